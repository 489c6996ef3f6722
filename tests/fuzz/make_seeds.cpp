// Writes small seed files for the fuzzers into OUT_DIR/<format> (every format of the table: its
// small_demo, plus the variants below), OUT_DIR/detect and OUT_DIR/msgdef:
//   build/fuzz/tests/fuzz/fuzz_make_seeds OUT_DIR [SAMPLES_DIR]
// and prints one line per format, "NAME ENDING...", for scripts/fuzz.sh to pick real samples by.
// Each format's seeds also come with one byte flipped at a few fixed places (flip_*), and with
// SAMPLES_DIR, so do the first 8 KB of the real files there (sample_flip_*): see flip_places.
// (Real-world samples may be added to a local corpus, never to the repository.)
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "cdr/writer.h"
#include "core/format_table.h"
#include "mcap/cdr_demo.h"
#include "mcap/writer.h"
#include "rosbag2/writer.h"
#include "tiny_files.h"
#include "views/image_convert.h"
#include "views/image_png.h"

namespace {

void write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::perror(path.c_str());
    return;
  }
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

void write_text(const std::string& path, const std::string& text) { write(path, std::vector<uint8_t>(text.begin(), text.end())); }

// A string literal with its embedded NULs, sized by the compiler (a hand count overran, ASan).
template <size_t N>
std::string raw(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

// An MCAP with a protobuf channel whose schema is a FileDescriptorSet (fz.Point: a double, packed
// sint32s, an enum, itself nested), three messages and one that does not parse: fuzz_mcap
// decodes it by name (mcap/payload_protobuf.cpp).
// `messages` messages with "\r\n" and "\n" in their payloads, chunks of 256 bytes, converted as a
// text-mode transfer converts them: every "\r" before a "\n" deleted.
std::vector<uint8_t> crlf_mcap(const std::string& compression, int messages) {
  logscope::mcap::WriterOptions options;
  options.compression = compression;
  options.chunk_size = 256;
  logscope::mcap::Writer writer(options);
  uint16_t channel = writer.add_channel(0, "/text", "json");
  for (int i = 0; i < messages; ++i) {
    std::string data = "line " + std::to_string(i) + "\r\n";
    for (int j = 0; j < 40; ++j) data += static_cast<char>((i * 31 + j * 17) % 11 == 0 ? '\n' : (i * 7 + j * 13) & 0xFF);
    writer.write_message(channel, static_cast<uint32_t>(i), 1000 + static_cast<uint64_t>(i), 1000, data + "\r\n");
  }
  std::string bytes = writer.finish();
  std::vector<uint8_t> out;
  for (size_t i = 0; i < bytes.size(); ++i)
    if (!(bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')) out.push_back(static_cast<uint8_t>(bytes[i]));
  return out;
}

std::string protobuf_mcap() {
  namespace gpb = google::protobuf;
  gpb::FileDescriptorSet set;
  gpb::FileDescriptorProto* file = set.add_file();
  file->set_name("fz_point.proto");
  file->set_package("fz");
  file->set_syntax("proto3");
  gpb::EnumDescriptorProto* mode = file->add_enum_type();
  mode->set_name("Mode");
  mode->add_value()->set_name("MODE_A");
  gpb::EnumValueDescriptorProto* b = mode->add_value();
  b->set_name("MODE_B");
  b->set_number(1);
  gpb::DescriptorProto* point = file->add_message_type();
  point->set_name("Point");
  auto add = [&](const char* name, int number, gpb::FieldDescriptorProto::Type type, bool repeated, const char* type_name) {
    gpb::FieldDescriptorProto* f = point->add_field();
    f->set_name(name);
    f->set_number(number);
    f->set_type(type);
    f->set_label(repeated ? gpb::FieldDescriptorProto::LABEL_REPEATED : gpb::FieldDescriptorProto::LABEL_OPTIONAL);
    if (type_name) f->set_type_name(type_name);
  };
  add("x", 1, gpb::FieldDescriptorProto::TYPE_DOUBLE, false, nullptr);
  add("ids", 2, gpb::FieldDescriptorProto::TYPE_SINT32, true, nullptr);
  add("mode", 3, gpb::FieldDescriptorProto::TYPE_ENUM, false, ".fz.Mode");
  add("next", 4, gpb::FieldDescriptorProto::TYPE_MESSAGE, false, ".fz.Point");
  logscope::mcap::WriterOptions options;
  options.compression = "";
  logscope::mcap::Writer writer(options);
  uint16_t channel = writer.add_channel(writer.add_schema("fz.Point", "protobuf", set.SerializeAsString()), "/proto", "protobuf");
  // x = 1.5, ids = [1, -2], mode = MODE_B, next = {x = 1.5}; then a length past the end.
  std::string message = raw("\x09\0\0\0\0\0\0\xf8\x3f\x12\x02\x02\x03\x18\x01\x22\x09\x09\0\0\0\0\0\0\xf8\x3f");
  for (uint32_t k = 0; k < 3; ++k) writer.write_message(channel, k, 1700000000000000000ull + k, 0, message);
  writer.write_message(channel, 3, 1700000000000000003ull, 0, raw("\x22\x7f\x01"));
  return writer.finish();
}

// foxglove.CompressedVideo in JSON, its data base64 as the jsonschema says: a VP9 keyframe, an
// inter frame, and data that is not base64 (fuzz_mcap's images queries read them as video).
std::string json_video_mcap() {
  logscope::mcap::WriterOptions options;
  options.compression = "";
  logscope::mcap::Writer writer(options);
  const uint16_t schema = writer.add_schema(
      "foxglove.CompressedVideo", "jsonschema",
      R"({"type":"object","properties":{"data":{"type":"string","contentEncoding":"base64"},"format":{"type":"string"}}})");
  const uint16_t channel = writer.add_channel(schema, "/video", "json");
  const char* payloads[] = {R"({"data":"gkmDQgA=","format":"vp9"})", R"({"data":"hgA=","format":"vp9"})", R"({"data":"not base64!","format":"vp9"})"};
  for (uint32_t k = 0; k < 3; ++k) writer.write_message(channel, k, 1700000000000000000ull + k, 0, payloads[k]);
  return writer.finish();
}

// --- Flipped bytes: one byte of a real file or a writer's changed at a few fixed places ---

// One flip: a name for the place, its offset and the bits changed.
struct Flip {
  const char* place;
  size_t offset;
  uint8_t mask;
};

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
size_t be16(const std::vector<uint8_t>& b, size_t at) { return size_t(b[at]) << 8 | b[at + 1]; }

// The offset of the first character of the value after `key` in a yaml text, or the text's size.
size_t yaml_value(const std::vector<uint8_t>& b, const std::string& key) {
  auto found = std::search(b.begin(), b.end(), key.begin(), key.end());
  size_t at = static_cast<size_t>(found - b.begin()) + key.size();
  while (at < b.size() && (b[at] == ' ' || b[at] == '\n' || b[at] == '-')) ++at;
  return std::min(at, b.size());
}

// A cell of an SQLite database's second page (a table row, or a child page number): its first
// byte, the varint of the row's length in a leaf. Or 0 where the bytes hold no second page.
size_t sqlite_cell(const std::vector<uint8_t>& b) {
  if (b.size() < 100) return 0;
  size_t page = be16(b, 16) == 1 ? 65536 : be16(b, 16);
  if (page < 512 || b.size() < 2 * page) return 0;
  uint8_t type = b[page];
  size_t header = (type == 0x02 || type == 0x05) ? 12 : 8;
  if (be16(b, page + 3) == 0) return 0;
  size_t cell = page + be16(b, page + header);
  return cell < 2 * page ? cell : 0;
}

// The first 4-byte little-endian value in the head that could be a length of what follows it.
size_t plausible_length(const std::vector<uint8_t>& b) {
  for (size_t at = 8; at + 4 <= std::min<size_t>(b.size(), 1024); ++at) {
    uint32_t v = le32(b, at);
    if (v >= 8 && v <= b.size() - at - 4) return at;
  }
  return 0;
}

// Where to flip a byte of a file of `kind` (a format's name, or "yaml"): a header field, a record's
// length (a high byte: a huge length), the index or footer (at the end for most formats), the
// middle. A yaml's flips change one bit of a value (a digit becomes another, a letter its case).
std::vector<Flip> flip_places(const std::string& kind, const std::vector<uint8_t>& b) {
  std::vector<Flip> flips;
  size_t n = b.size();
  auto add = [&](const char* place, size_t offset, uint8_t mask) {
    if (n >= 16 && offset < n) flips.push_back({place, offset, mask});
  };
  if (kind == "yaml") {
    add("header", yaml_value(b, "version:"), 0x01);
    add("length", yaml_value(b, "message_count:"), 0x01);
    add("index", yaml_value(b, "relative_file_paths:"), 0x01);
    add("middle", n / 2, 0x01);
    return flips;
  }
  if (kind == "mcap") {  // magic 8, Header record: opcode, u64 length, profile's u32 length
    add("header", 17, 0xff);
    add("length", 12, 0x80);
    if (n > 64) add("index", n - 28, 0x01);  // the Footer's summary_start: the summary moves by one
  } else if (kind == "rosbag") {  // "#ROSBAG V2.0\n", then the bag header record's u32 header length
    add("header", 21, 0xff);
    add("length", 16, 0x80);
    add("index", n - 20, 0xff);
  } else if (kind == "ulog") {  // magic 7, version, u64 timestamp, then messages: u16 size, type
    add("header", 15, 0x80);  // the timestamp's high byte: a stamp near the edge
    add("length", 17, 0x80);
    add("index", n - 8, 0xff);
  } else if (kind == "rosbag2") {  // an SQLite database
    add("header", 31, 0xff);          // the database's size in pages
    add("index", 103, 0xff);          // page 1's (the schema table's) cell count
    if (size_t cell = sqlite_cell(b)) add("length", cell, 0x80);
  } else {
    add("header", 16, 0xff);
    if (size_t at = plausible_length(b)) add("length", at + 3, 0x80);
    add("index", n - 24, 0xff);
  }
  add("middle", n / 2, 0xff);
  return flips;
}

// The kind of flips a file of `format`'s corpus gets (its yaml files are text).
std::string flip_kind(const std::string& format, const std::string& name) {
  return name.size() >= 5 && name.compare(name.size() - 5, 5, ".yaml") == 0 ? "yaml" : format;
}

// DIR/TAG_PLACE_NAME for each place.
void write_flips(const std::string& dir, const std::string& tag, const std::string& name, const std::string& kind, const std::vector<uint8_t>& bytes) {
  for (const Flip& flip : flip_places(kind, bytes)) {
    std::vector<uint8_t> flipped = bytes;
    flipped[flip.offset] ^= flip.mask;
    write(dir + "/" + tag + "_" + flip.place + "_" + name, flipped);
  }
}

std::vector<uint8_t> read_head(const std::filesystem::path& path, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(limit);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(limit));
  bytes.resize(static_cast<size_t>(in.gcount()));
  return bytes;
}

// Real files are read up to this much, scripts/fuzz.sh's -max_len for the file harnesses (libFuzzer
// cuts a longer input to it), and at most this many per format, the first by path.
constexpr size_t kSampleHead = 8192;
constexpr size_t kSamplesPerFormat = 16;

// Flips of every seed already written for the table's formats, and of the real samples whose names
// end as the format's do (a bag folder's metadata.yaml for rosbag2's corpus).
void write_flipped_seeds(const std::string& out, const std::string& samples) {
  namespace fs = std::filesystem;
  for (const logscope::FormatEntry& entry : logscope::formats()) {
    std::string dir = out + "/" + entry.name;
    std::vector<fs::path> seeds;
    // Not the line-ending seeds (crlf_*): damaged by design already, each costs the repair's bounded
    // search seconds under the sanitizers, and 24 flipped copies ran fuzz_mcap's start past its
    // 10 s per-input limit on a loaded machine.
    for (const fs::directory_entry& f : fs::directory_iterator(dir)) {
      std::string file = f.path().filename().string();
      if (f.is_regular_file() && file.rfind("flip_", 0) != 0 && file.rfind("sample_flip_", 0) != 0 && file.rfind("crlf_", 0) != 0)
        seeds.push_back(f.path());
    }
    std::sort(seeds.begin(), seeds.end());
    for (const fs::path& seed : seeds) {
      std::string name = seed.filename().string();
      write_flips(dir, "flip", name, flip_kind(entry.name, name), read_head(seed, 1 << 20));
    }
    if (samples.empty() || !fs::is_directory(samples)) continue;
    std::vector<std::string> endings = entry.file_endings;
    if (entry.name == "rosbag2") endings.push_back("metadata.yaml");
    std::vector<fs::path> real;
    for (const fs::directory_entry& f : fs::recursive_directory_iterator(samples, fs::directory_options::skip_permission_denied)) {
      std::string name = f.path().filename().string();
      if (!f.is_regular_file()) continue;
      for (const std::string& e : endings)
        if (name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
          real.push_back(f.path());
          break;
        }
    }
    std::sort(real.begin(), real.end());
    if (real.size() > kSamplesPerFormat) real.resize(kSamplesPerFormat);
    for (const fs::path& path : real) {
      // The parent folder's name too: every bag folder's yaml is metadata.yaml.
      std::string name = path.parent_path().filename().string() + "_" + path.filename().string();
      write_flips(dir, "sample_flip", name, flip_kind(entry.name, name), read_head(path, kSampleHead));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR [SAMPLES_DIR]\n", argv[0]);
    return 2;
  }
  std::string out = argv[1];
  for (const char* sub : {"", "/detect", "/msgdef", "/protobuf", "/cdr", "/robot_log", "/image_convert", "/transforms", "/scans", "/diagnostics"}) ::mkdir((out + sub).c_str(), 0755);
  // Every format of the table: its own small demo, in its corpus and detection's.
  for (const logscope::FormatEntry& entry : logscope::formats()) {
    ::mkdir((out + "/" + entry.name).c_str(), 0755);
    std::string ending = entry.file_endings.empty() ? "" : entry.file_endings[0];
    if (entry.small_demo) {
      std::vector<uint8_t> demo = entry.small_demo();
      write(out + "/" + entry.name + "/demo" + ending, demo);
      write(out + "/detect/" + entry.name + "_demo" + ending, demo);
    }
    std::printf("%s", entry.name.c_str());
    for (const std::string& e : entry.file_endings) std::printf(" %s", e.c_str());
    std::printf("\n");
  }
  using logscope::carla::IdOrder;
  using logscope::carla::Variant;
  write(out + "/bddf/tiny.bddf", logscope_fuzz::tiny_bddf());
  write(out + "/bddf/tiny_nosha.bddf", logscope_fuzz::tiny_bddf(false));
  std::vector<uint8_t> cut = logscope_fuzz::tiny_bddf();
  cut.resize(cut.size() * 2 / 3);
  write(out + "/bddf/tiny_cut.bddf", cut);
  write(out + "/rosbag/tiny_none.bag", logscope_fuzz::tiny_bag(200, "none"));
  write(out + "/rosbag/tiny_lz4.bag", logscope_fuzz::tiny_bag(200, "lz4"));
  write(out + "/rosbag/tiny_bz2.bag", logscope_fuzz::tiny_bag(200, "bz2"));
  write(out + "/rosbag/tiny_v12.bag", logscope_fuzz::tiny_bag(102));
  write(out + "/rosbag/tiny_v11.bag", logscope_fuzz::tiny_bag(101));
  write(out + "/carla/tiny.log", logscope_fuzz::tiny_carla());
  Variant doubles;
  doubles.doubles = true;
  write(out + "/carla/tiny_ue5.log", logscope_fuzz::tiny_carla(doubles));
  Variant doors;
  doors.order = IdOrder::DevDoors;
  write(out + "/carla/tiny_doors.log", logscope_fuzz::tiny_carla(doors));
  write(out + "/mcap/tiny_zstd.mcap", logscope_fuzz::tiny_mcap("zstd"));
  write(out + "/mcap/tiny_lz4.mcap", logscope_fuzz::tiny_mcap("lz4"));
  write(out + "/mcap/tiny_none.mcap", logscope_fuzz::tiny_mcap(""));
  write(out + "/mcap/tiny_unchunked.mcap", logscope_fuzz::tiny_mcap("", false));
  {
    logscope::mcap::CdrDemoOptions cdr;  // CDR channels of every field kind, decoded by the harness
    cdr.messages_per_channel = 3;
    cdr.compression = "";
    std::string bytes = logscope::mcap::cdr_demo(cdr);
    write(out + "/mcap/cdr.mcap", std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  {
    std::string bytes = protobuf_mcap();
    write(out + "/mcap/protobuf.mcap", std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  {
    std::string bytes = json_video_mcap();
    write(out + "/mcap/json_video.mcap", std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  // Line endings converted ("\r\n" -> "\n", mcap/line_endings.h): small chunks of payloads that
  // hold "\r\n" and lone "\n", so the chunks lose bytes; both sizes' parities (check and repair).
  for (const char* compression : {"zstd", "lz4", ""})
    for (int messages : {9, 10}) {
      std::string name = std::string("/mcap/crlf_") + (*compression ? compression : "none") + "_" + std::to_string(messages) + ".mcap";
      write(out + name, crlf_mcap(compression, messages));
    }
  std::vector<uint8_t> mcap_cut = logscope_fuzz::tiny_mcap("zstd");
  mcap_cut.resize(mcap_cut.size() * 2 / 3);
  write(out + "/mcap/tiny_cut.mcap", mcap_cut);
  // rosbag2's harness reads any input that is no database as metadata.yaml: one of version 8
  // (QoS as a string) and one of version 9 (QoS as a list, an escape, a bag-folder prefix).
  write_text(out + "/rosbag2/metadata_v8.yaml",
             "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: sqlite3\n  duration:\n    nanoseconds: 290000000\n"
             "  starting_time:\n    nanoseconds_since_epoch: 1700000000000000000\n  message_count: 30\n"
             "  topics_with_message_count:\n    - topic_metadata:\n        name: /imu\n        type: demo_msgs/msg/Imu\n"
             "        serialization_format: cdr\n        offered_qos_profiles: \"- history: 3\\n  depth: 0\"\n"
             "        type_description_hash: \"\"\n      message_count: 10\n  compression_format: \"\"\n"
             "  compression_mode: \"\"\n  relative_file_paths:\n    - bag_0.db3\n  files:\n    - path: bag_0.db3\n"
             "      starting_time:\n        nanoseconds_since_epoch: 1700000000000000000\n      duration:\n"
             "        nanoseconds: 290000000\n      message_count: 30\n  custom_data: ~\n  ros_distro: jazzy\n");
  write_text(out + "/rosbag2/metadata_v9.yaml",
             "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: sqlite3\n  relative_file_paths:\n"
             "    - bag/x_0.db3\n  topics_with_message_count:\n    - topic_metadata:\n        name: '/a''b'\n"
             "        offered_qos_profiles:\n          - history: keep_last\n            depth: 10\n      message_count: 3\n"
             "  compression_format: zstd\n  compression_mode: \"MESS\\u0041GE\"\n");
  // A bag that stores MCAP (the harness puts the MCAP small demo under the names it gives), and
  // the small demo database cut and with a page damaged, for repair's salvage paths.
  write_text(out + "/rosbag2/metadata_mcap.yaml",
             "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: mcap\n  message_count: 3\n"
             "  relative_file_paths:\n    - bag_0.mcap\n    - bag_1.mcap\n  files:\n    - path: bag_0.mcap\n      message_count: 2\n");
  // The other shapes rosbag2's writers emit (yaml-cpp reads them all, metadata.cpp): flow style,
  // quoted numbers, comments, empty lists and maps on their own line (Jazzy's empty bag, a topic's
  // `offered_qos_profiles:\n []`), an anchor and an alias (one that refers to its own list), and
  // the damage the reader recovers from (a cut, a line indented wrong, a field of the wrong type).
  write_text(out + "/rosbag2/metadata_flow_quoted.yaml",
             "# flow style\nrosbag2_bagfile_information: {version: \"6\", storage_identifier: 'sqlite3', duration: {nanoseconds: 5},\n"
             "  starting_time: {nanoseconds_since_epoch: 7}, message_count: '30', relative_file_paths: [bag_0.db3, \"bag_1.db3\"],\n"
             "  topics_with_message_count: [{topic_metadata: {name: /imu, type: demo_msgs/msg/Imu, serialization_format: cdr,\n"
             "  offered_qos_profiles: ''}, message_count: 30}], compression_format: '', compression_mode: '', custom_data: {a: b},\n"
             "  files: [{path: bag_0.db3, starting_time: {nanoseconds_since_epoch: 7}, duration: {nanoseconds: 5}, message_count: 30}]}\n");
  write_text(out + "/rosbag2/metadata_jazzy_empty.yaml",
             "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap  # Jazzy's default\n  duration:\n"
             "    nanoseconds: 0\n  starting_time:\n    nanoseconds_since_epoch: 9223372036854775807\n  message_count: 0\n"
             "  topics_with_message_count:\n    []\n  compression_format: \"\"\n  compression_mode: \"\"\n"
             "  relative_file_paths:\n    - bag_0.mcap\n  files:\n    - path: bag_0.mcap\n      starting_time:\n"
             "        nanoseconds_since_epoch: 9223372036854775807\n      duration:\n        nanoseconds: 0\n"
             "      message_count: 0\n  custom_data:\n    {}\n  ros_distro: jazzy\n");
  write_text(out + "/rosbag2/metadata_qos_empty_list.yaml",
             "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap\n  message_count: 3\n"
             "  topics_with_message_count:\n    - topic_metadata:\n        name: /a\n        type: std_msgs/msg/String\n"
             "        serialization_format: cdr\n        offered_qos_profiles:\n          []\n        type_description_hash: x\n"
             "      message_count: 3\n  relative_file_paths:\n    - bag_0.mcap\n  files:\n    - path: bag_0.mcap\n"
             "      message_count: 6\n");
  write_text(out + "/rosbag2/metadata_alias.yaml",
             "rosbag2_bagfile_information:\n  version: &v 9\n  storage_identifier: sqlite3\n  message_count: *v\n"
             "  relative_file_paths: &p [bag_0.db3, *p]\n  topics_with_message_count:\n    - topic_metadata:\n"
             "        name: /a\n        offered_qos_profiles: &q [*q, {depth: *v}]\n      message_count: *v\n");
  write_text(out + "/rosbag2/metadata_damaged.yaml",
             "rosbag2_bagfile_information:\n  version: nine\n  storage_identifier: [sqlite3]\n  message_count: -4\n"
             "  relative_file_paths: {a: bag_0.db3}\n  topics_with_message_count:\n    - topic_metadata:\n        name: /a\n"
             "   message_count: 3\n  files:\n    - path: \"bag_0.db3\n");
  {
    std::vector<uint8_t> db = logscope::rosbag2::small_demo_database();
    std::vector<uint8_t> cut(db.begin(), db.begin() + static_cast<std::ptrdiff_t>(db.size() / 2 / 4096 * 4096));
    write(out + "/rosbag2/small_demo_cut.db3", cut);
    for (size_t i = 4096 + 8; i < 4096 + 200 && i < db.size(); i += 7) db[i] ^= 0x5a;  // page 2: a table's root
    write(out + "/rosbag2/small_demo_page2_damaged.db3", db);
  }
  write_text(out + "/detect/object.json", "{\"a\": [1, -2, 3.5e10, true, null, \"x\\u00e9\\n\"], \"b\": {\"c\": 18446744073709551615}}");
  write_text(out + "/detect/html", "<!DOCTYPE html><html>");
  write_text(out + "/detect/lfs", "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 12\n");
  write_text(out + "/detect/bag_header", "#ROSBAG V2.0\n");
  write_text(out + "/msgdef/pose", std::string("demo_msgs/Pose\nHeader header\nfloat64[3] position\nstring frame\nint32[] ids\n"
                                               "================================================================================\n"
                                               "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n") +
                                       raw("\0\1\0\0\0\2\0\0\0\3\0\0\0\3\0\0\0map") + std::string(24, '\0') +
                                       raw("\4\0\0\0base\2\0\0\0\7\0\0\0\11\0\0\0"));
  write_text(out + "/msgdef/consts", std::string("a/B\nuint8 X=1\nstring S=hello # c\nbool[] flags\nduration d\nchar[4] c\nuint8[] raw\n") +
                                         raw("\0\2\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0abcd\3\0\0\0xyz"));
  // tests/fuzz/fuzz_protobuf.cpp: a type byte, then a payload (fz.Tree when odd, fz.Scalars when
  // even), or 'P' and .proto text, or 'D' and a descriptor set.
  write_text(out + "/protobuf/scalars", raw("\0\x08\x96\x01\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x3d\0\0\x80\x3f"
                                              "\x61\0\0\0\0\0\0\xf0\x3f\x68\x01\x72\x02hi\x80\x01\x02"));
  write_text(out + "/protobuf/tree", raw("\1\x0a\x0b\x12\x08\0\0\0\0\0\0\xe0\x3f\x12\x10\0\0\0\0\0\0\xf0\x3f"
                                           "\0\0\0\0\0\0\0\x40\x22\x07\x0a\x01k\x12\x02\x08\x05\x2a\x04\x08\x07\x10\x02"
                                           "\x0b\x08\x01\x0c"));
  // Camera images (fuzz_image_convert): each raw encoding 6 x 4 with a padded step of 25, both byte
  // orders; a compressedDepth RVL image (2 x 2: 0 0 3 1) and one whose PNG is not 16-bit grey.
  const auto& encodings = logscope::views::raw_image_encodings();
  for (size_t i = 0; i < encodings.size(); ++i) {
    std::string input = {char(i), 6, 0, 4, 0, 25, 0, char(i & 1)};
    for (int b = 0; b < 25 * 4; ++b) input += char(b * 37 + int(i));
    write_text(out + "/image_convert/" + encodings[i], input);
  }
  write_text(out + "/image_convert/rvl", std::string("\x81") + std::string(12, '\0') + raw("\2\0\0\0\2\0\0\0\0\0\x63\x22"));
  const uint8_t pixel[4] = {1, 2, 3, 4};
  write_text(out + "/image_convert/png_rgba", std::string("\x80") + std::string(12, '\0') + logscope::views::encode_png_rgba(pixel, 1, 1));
  // A compressed image message holding a PNG (fuzz_image_convert's 0xc0 inputs: image_frames.h).
  write_text(out + "/image_convert/compressed_png", std::string("\xc0") + logscope::views::encode_png_rgba(pixel, 1, 1));
  // CompressedVideo frames (0xe0 + codec): an H.264 SPS, PPS and IDR slice; an H.265 IDR; a VP9
  // keyframe header; AV1 temporal delimiter, sequence header and key frame OBUs.
  write_text(out + "/image_convert/video_h264", raw("\xe0\0\0\0\1\x67\x64\0\x1f\xac\xd9\x40\0\0\0\1\x68\xeb\xe3\xcb\0\0\1\x65\x88\x84\0\x33"));
  write_text(out + "/image_convert/video_h265", raw("\xe1\0\0\1\x42\x01\x01\x01\x60\0\0\x03\0\x90\0\0\x03\0\0\0\x5d\0\0\1\x26\x01\xaf"));
  write_text(out + "/image_convert/video_vp9", raw("\xe2\x82\x49\x83\x42\0"));
  write_text(out + "/image_convert/video_av1", raw("\xe3\x12\0\x0a\x04\0\0\0\x40\x32\x01\x10"));
  write_text(out + "/protobuf/proto_text", "Psyntax = \"proto3\";\nmessage M { repeated double x = 1; map<string, M> m = 2; }\n");
  // The robot log view (fuzz_robot_log): a type, the query's arguments, decoded messages as JSON.
  write_text(out + "/robot_log/ros1", "rosgraph_msgs/Log\n{\"level\": \"warn\", \"grep\": \"b+\"}\n"
                                      "{\"header\": {\"stamp\": {\"secs\": 1, \"nsecs\": 2}}, \"level\": 4, \"name\": \"/n\", \"msg\": \"abb\", \"file\": \"f\", \"function\": \"g\", \"line\": 3}\n"
                                      "{\"level\": 8, \"name\": \"/m\", \"msg\": \"b\"}\n{\"level\": \"x\"}\nnot json");
  write_text(out + "/robot_log/ros2", "rcl_interfaces/msg/Log\n{\"node\": \"/n\", \"first\": 1, \"count\": 1}\n"
                                      "{\"stamp\": {\"sec\": 1, \"nanosec\": 2}, \"level\": 40, \"name\": \"/n\", \"msg\": \"e\"}\n"
                                      "{\"stamp\": {\"sec\": -1}, \"level\": 20, \"name\": \"/n\", \"msg\": \"i\"}");
  write_text(out + "/robot_log/sliced", "rosgraph_msgs/Log\n{\"slice_ms\": 1, \"count\": 2}\n"
                                        "{\"level\": 2, \"name\": \"/n\", \"msg\": \"a\"}\n{\"level\": 4, \"name\": \"/m\", \"msg\": \"b\"}\n"
                                        "{\"level\": 8, \"name\": \"/n\", \"msg\": \"c\"}");
  write_text(out + "/robot_log/foxglove", "foxglove.Log\n{}\n{\"timestamp\": {\"seconds\": 5, \"nanos\": 6}, \"level\": \"FATAL\", \"name\": \"a\", \"message\": \"z\", \"line\": 9}");
  // The diagnostics view (fuzz_diagnostics): a type, the query's arguments, decoded messages as JSON.
  write_text(out + "/diagnostics/ros", "diagnostic_msgs/DiagnosticArray\n{\"at_ns\": 5}\n"
             "{\"status\": [{\"level\": 0, \"name\": \"motor\", \"message\": \"ok\", \"hardware_id\": \"can0\", "
             "\"values\": [{\"key\": \"t\", \"value\": \"40\"}]}]}\n"
             "{\"status\": [{\"level\": 2, \"name\": \"motor\", \"message\": \"hot\", \"hardware_id\": \"can0\"}, "
             "{\"level\": -7, \"name\": \"gps\"}]}\n{\"status\": []}\n{\"status\": [{\"name\": \"x\"}]}");
  write_text(out + "/diagnostics/sliced", "diagnostic_msgs/DiagnosticArray\n{\"slice_ms\": 1, \"at_ns\": 11}\n"
             "{\"status\": [{\"level\": 0, \"name\": \"motor\"}]}\n{\"status\": [{\"level\": 1, \"name\": \"motor\"}]}\n"
             "{\"status\": [{\"level\": 3, \"name\": \"motor\"}, {\"level\": 0, \"name\": \"gps\"}]}\n{\"status\": [{\"level\": 0, \"name\": \"motor\"}]}");
  // The transforms view (fuzz_transforms): a type, the query's arguments, decoded messages as JSON.
  write_text(out + "/transforms/ros", "tf2_msgs/TFMessage\n{\"at_ns\": 5}\n"
             "{\"transforms\": [{\"header\": {\"frame_id\": \"/odom\"}, \"child_frame_id\": \"base\", \"transform\": "
             "{\"translation\": {\"x\": 1, \"y\": 0, \"z\": 0}, \"rotation\": {\"x\": 0, \"y\": 0, \"z\": 1, \"w\": 1}}}]}\n"
             "{\"transforms\": [{\"header\": {\"frame_id\": \"base\"}, \"child_frame_id\": \"odom\", \"transform\": "
             "{\"translation\": {\"x\": 0, \"y\": 0, \"z\": 0}, \"rotation\": {\"x\": 0, \"y\": 0, \"z\": 0, \"w\": 0}}}]}");
  write_text(out + "/transforms/sliced", "foxglove.FrameTransforms\n{\"slice_ms\": 1}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"a\", \"child_frame_id\": \"b\", \"rotation\": {\"w\": 1}}]}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"a\", \"child_frame_id\": \"b\", \"translation\": {\"x\": 2}}]}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"b\", \"child_frame_id\": \"c\"}]}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"a\", \"child_frame_id\": \"b\"}]}");
  write_text(out + "/transforms/foxglove", "foxglove.FrameTransforms\n{}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"a\", \"child_frame_id\": \"b\", \"rotation\": {\"w\": 1}}]}\n"
             "{\"transforms\": [{\"parent_frame_id\": \"c\", \"child_frame_id\": \"b\", \"translation\": {\"x\": 1e308}}]}");
  // The scans view (fuzz_scans): a type, the query's arguments, decoded messages as JSON (whole).
  write_text(out + "/scans/laser_scan", "sensor_msgs/LaserScan\n{\"at_ns\": 3, \"max_points\": 2}\n"
             "{\"header\": {\"stamp\": {\"secs\": 1, \"nsecs\": 2}, \"frame_id\": \"l\"}, \"angle_min\": -1, \"angle_increment\": 0.5, "
             "\"range_min\": 0.1, \"range_max\": 5, \"ranges\": [1, 2, 9, 0, 3], \"intensities\": [5, 6, 7, 8, 9]}\n"
             "{\"header\": {\"frame_id\": \"l\"}, \"angle_min\": 0, \"angle_increment\": 1e308, \"range_min\": 0, \"range_max\": 1e308, "
             "\"ranges\": [1e308, 2], \"intensities\": [1]}");
  write_text(out + "/scans/point_cloud2", "sensor_msgs/PointCloud2\n{}\n"
             "{\"header\": {\"frame_id\": \"c\"}, \"height\": 2, \"width\": 2, \"fields\": [{\"name\": \"x\", \"offset\": 0, \"datatype\": 7, \"count\": 1}, "
             "{\"name\": \"y\", \"offset\": 4, \"datatype\": 3, \"count\": 1}, {\"name\": \"intensity\", \"offset\": 6, \"datatype\": 8, \"count\": 1}], "
             "\"is_bigendian\": true, \"point_step\": 14, \"row_step\": 30, \"data\": {\"length\": 44, \"hex\": "
             "\"3f80000000017ff0000000000000000000000000000000000000000000000000000000000000000000000000\"}}\n"
             "{\"header\": {\"frame_id\": \"c\"}, \"height\": 4294967295, \"width\": 3, \"fields\": [{\"name\": \"x\", \"offset\": 0, \"datatype\": 7}, "
             "{\"name\": \"y\", \"offset\": 2, \"datatype\": 7}], \"is_bigendian\": false, \"point_step\": 4, \"row_step\": 1, \"data\": \"00000000\"}");
  write_text(out + "/scans/foxglove", "foxglove.PointCloud\n{\"max_points\": 1}\n"
             "{\"frame_id\": \"f\", \"pose\": {\"orientation\": {\"z\": 1}}, \"point_stride\": 8, \"fields\": [{\"name\": \"x\", \"type\": \"FLOAT32\"}, "
             "{\"name\": \"y\", \"offset\": 4, \"type\": 7}], \"data\": \"0000803f000000400000\"}\n"
             "{\"point_stride\": 0, \"data\": \"00\"}");
  write_text(out + "/scans/point_cloud", "sensor_msgs/PointCloud\n{\"at_ns\": 4}\n"
             "{\"header\": {\"frame_id\": \"p\"}, \"points\": [{\"x\": 1, \"y\": 2, \"z\": 3}, {\"x\": 1}], \"channels\": [{\"name\": \"intensity\", \"values\": [1, 2]}]}");
  // CDR (fuzz_cdr): XCDR1 little-endian and XCDR2 big-endian messages of a nested type.
  std::string cdr_definition = "t/msg/Scan\nstd_msgs/Header header\nfloat32[] ranges\nuint8[2] flags\nstring<=8 name\nint64 big\n"
                               "================================================================================\n"
                               "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n";
  for (int version : {1, 2}) {
    logscope::cdr::CdrWriter w(version, version == 2);
    w.put<int32_t>(5);
    w.put<uint32_t>(6);
    w.string("map");
    w.sequence_length(2);
    w.put<float>(1.0f);
    w.put<float>(2.0f);
    w.put<uint8_t>(1);
    w.put<uint8_t>(2);
    w.string("a");
    w.put<int64_t>(7);
    write_text(out + "/cdr/scan_xcdr" + std::to_string(version), cdr_definition + std::string(1, '\0') + w.bytes());
  }
  // Delimited and parameter-list forms (docs/cdr.md): D_CDR2, PL_CDR2 (members out of order, an
  // unknown one, length codes 0-5) and PL_CDR (extended header, sentinels), of one nested type.
  std::string xtypes_definition = "t/msg/R\nuint8 a\nt/Inner in\nstring[] names\nt/Inner[] list\nfloat64 d\n"
                                  "================================================================================\n"
                                  "MSG: t/Inner\nuint16 x\nfloat32 y\n";
  write_text(out + "/cdr/d_cdr2", xtypes_definition + std::string(1, '\0') + raw("\x00\x09\x00\x00\x48\x00\x00\x00\x07\x00\x00\x00\x08\x00\x00\x00\x02\x01\x00\x00\x00\x00\xc0\x3f\x0b\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00\x68\x69\x00\x00\x1c\x00\x00\x00\x02\x00\x00\x00\x08\x00\x00\x00\x02\x01\x00\x00\x00\x00\xc0\x3f\x08\x00\x00\x00\x02\x01\x00\x00\x00\x00\xc0\x3f\x00\x00\x00\x00\x00\x00\x04\x40"));
  write_text(out + "/cdr/pl_cdr2", xtypes_definition + std::string(1, '\0') + raw("\x00\x0b\x00\x00\x68\x00\x00\x00\x04\x00\x00\x30\x00\x00\x00\x00\x00\x00\x04\x40\x00\x00\x00\x00\x07\x00\x00\x00\x01\x00\x00\x50\x10\x00\x00\x00\x01\x00\x00\x20\x00\x00\xc0\x3f\x00\x00\x00\x10\x02\x01\x00\x00\x02\x00\x00\x50\x0b\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00\x68\x69\x00\x00\x03\x00\x00\x50\x18\x00\x00\x00\x01\x00\x00\x00\x10\x00\x00\x00\x01\x00\x00\x20\x00\x00\xc0\x3f\x00\x00\x00\x10\x02\x01\x00\x00\x09\x00\x00\x20\x61\x62\x63\x64"));
  write_text(out + "/cdr/pl_cdr", xtypes_definition + std::string(1, '\0') + raw("\x00\x03\x00\x00\x04\x00\x08\x00\x00\x00\x00\x00\x00\x00\x04\x40\x00\x00\x01\x00\x07\x00\x00\x00\x01\x00\x14\x00\x00\x00\x02\x00\x02\x01\x00\x00\x01\x00\x04\x00\x00\x00\xc0\x3f\x02\x3f\x00\x00\x02\x00\x0b\x00\x01\x00\x00\x00\x03\x00\x00\x00\x68\x69\x00\x00\x03\x00\x18\x00\x01\x00\x00\x00\x00\x00\x02\x00\x02\x01\x00\x00\x01\x00\x04\x00\x00\x00\xc0\x3f\x02\x3f\x00\x00\x01\x3f\x08\x00\x0c\x00\x00\x00\x04\x00\x00\x00\x7a\x7a\x7a\x7a\x02\x3f\x00\x00"));
  write_text(out + "/cdr/idl_header", std::string("idl:std_msgs/msg/Header\n") +
                                          "module std_msgs { module msg { typedef double double__2[2];\n"
                                          "@verbatim (language=\"comment\", text=\"x\") struct Header {\n"
                                          "builtin_interfaces::msg::Time stamp; string<8> frame_id; double__2 d; sequence<int16, 3> s; }; }; };\n" +
                                          std::string(1, '\0') + raw("\0\1\0\0\1\0\0\0\2\0\0\0\2\0\0\0a\0\0\0") + std::string(16, '\0') + raw("\1\0\0\0\5\0"));
  write_flipped_seeds(out, argc == 3 ? argv[2] : "");
  return 0;
}
