// The images query (codec/views/image_query.h) on files our writers make: a bag and an MCAP (CDR
// raw, protobuf compressed) with raw, depth and compressed frames. The frame at a time is the last
// at or before it, by index too; its bytes (last_frame_bytes) are the converter's RGBA (and depth
// values) or the stored bytes; damage is named; a frame is read from its own chunk only.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/byte_source.h"
#include "core/json.h"
#include "image_writers.h"
#include "mcap/inspector.h"
#include "rosbag/inspector.h"
#include "rosbag/model.h"
#include "test_support.h"
#include "views/image_convert.h"
#include "views/image_png.h"
#include "views/image_query.h"
#include "views/view_support.h"

using namespace logscope;
using namespace image_writers;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

Json ask(FormatInspector& inspector, Json args) {
  Json answer = inspector.query("images", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

Json args_of(const std::string& topic, const char* key = nullptr, uint64_t value = 0) {
  Json j = Json::object();
  if (!topic.empty()) j["topic"] = topic;
  if (key) j[key] = std::to_string(value);
  return j;
}

// Frames 0..11: rgb8 5x3 with padded rows, each filled with its own byte; 12: 16UC1 depth 4x2
// with a hole; 13: an unknown encoding. Frames 6 and 7 share a time (7 is written second).
std::vector<Case> raw_frames() {
  std::vector<Case> cases;
  for (int i = 0; i < 12; ++i) {
    std::string data(18 * 3, static_cast<char>(i * 10));
    for (size_t k = 0; k < data.size(); ++k) data[k] = static_cast<char>(data[k] + k % 7);
    cases.push_back({"rgb" + std::to_string(i), "rgb8", data, 5, 3, 18, false});
  }
  std::string depth;
  for (uint16_t v : {0, 1000, 1500, 2000, 2500, 3000, 3500, 4000}) depth += std::string{static_cast<char>(v & 0xff), static_cast<char>(v >> 8)};
  cases.push_back({"depth", "16UC1", depth, 4, 2, 8, false});
  cases.push_back({"unknown", "rgb9", std::string(45, 'x'), 5, 3, 15, false});
  return cases;
}

uint64_t raw_time(size_t i) { return time_of(i == 7 ? 6 : i); }

std::string raw_bag(const std::vector<Case>& cases, const std::vector<std::string>& compressed) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 256;  // a chunk or two per frame
  rosbag::BagWriter writer(sink, options);
  uint32_t camera = writer.add_connection("/camera", "sensor_msgs/Image", "*", kRos1Image);
  uint32_t jpeg = writer.add_connection("/camera/compressed", "sensor_msgs/CompressedImage", "*", kRos1Compressed);
  for (size_t i = 0; i < cases.size(); ++i) {
    REQUIRE(writer.write(camera, rosbag::Time::from_ns(raw_time(i)), ros1_image(i, cases[i])));
    if (i < compressed.size()) REQUIRE(writer.write(jpeg, rosbag::Time::from_ns(time_of(i) + 5), ros1_compressed(i, "jpeg", compressed[i])));
  }
  REQUIRE(writer.close());
  return sink.bytes;
}

// A tiny stand-in for a JPEG: its start and end markers (the page's decoder is the browser's).
std::string fake_jpeg(char fill) { return std::string("\xff\xd8\xff\xe0", 4) + std::string(40, fill) + std::string("\xff\xd9", 2); }

// The raw frames' answers: every frame by index and by time against convert_image, the depth's
// values, the unknown encoding named.
void check_raw(FormatInspector& inspector, const std::vector<Case>& cases) {
  Json first = ask(inspector, args_of("/camera"));
  CHECK(first.find("topic")->as_string() == "/camera");
  CHECK(first.find("count")->as_uint() == cases.size());
  CHECK(first.find("first_ns")->as_string() == std::to_string(time_of(0)));
  CHECK(first.find("last_ns")->as_string() == std::to_string(time_of(cases.size() - 1)));
  CHECK(first.find("frame")->find("index")->as_uint() == 0);
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    Json answer = ask(inspector, args_of("/camera", "index", i));
    const Json& f = *answer.find("frame");
    CHECK(f.find("index")->as_uint() == i);
    CHECK(f.find("time_ns")->as_string() == std::to_string(raw_time(i)));
    CHECK(f.find("encoding")->as_string() == cases[i].encoding);
    CHECK(f.find("place")->as_string().find("byte ") != std::string::npos);
    views::ImageFields fields{cases[i].width, cases[i].height, cases[i].encoding, cases[i].big, cases[i].step, cases[i].data};
    views::ImageResult expected = views::convert_image(fields);
    if (!expected.ok) {
      CHECK(!f.find("ok")->as_bool());
      CHECK(f.find("code")->as_string() == "image.encoding.unknown");
      CHECK(f.find("message")->as_string().find("\"rgb9\"") != std::string::npos);
      CHECK(f.find("kind")->is_null());
      CHECK(views::last_frame_bytes().empty());
      continue;
    }
    CHECK(f.find("ok")->as_bool());
    CHECK(f.find("kind")->as_string() == "rgba");
    CHECK(f.find("width")->as_uint() == cases[i].width);
    CHECK(f.find("height")->as_uint() == cases[i].height);
    std::string want(expected.image.rgba.begin(), expected.image.rgba.end());
    if (expected.image.depth) {
      const auto& values = expected.image.depth->values;
      want.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
      CHECK(f.find("depth")->find("unit")->as_string() == "mm");
      CHECK(f.find("depth")->find("low")->as_double() == 1000);
      CHECK(f.find("depth")->find("high")->as_double() == 4000);
    } else {
      CHECK(f.find("depth") == nullptr);
    }
    CHECK(f.find("bytes")->as_uint() == want.size());
    CHECK(views::last_frame_bytes() == want);
  }
  // By time: the last frame at or before it; frames 6 and 7 share a time, so 7 answers it.
  CHECK(ask(inspector, args_of("/camera", "at_ns", time_of(3))).find("frame")->find("index")->as_uint() == 3);
  CHECK(ask(inspector, args_of("/camera", "at_ns", time_of(3) + 9999999)).find("frame")->find("index")->as_uint() == 3);
  CHECK(ask(inspector, args_of("/camera", "at_ns", time_of(6))).find("frame")->find("index")->as_uint() == 7);
  CHECK(ask(inspector, args_of("/camera", "at_ns", UINT64_MAX)).find("frame")->find("index")->as_uint() == cases.size() - 1);
  Json before = ask(inspector, args_of("/camera", "at_ns", time_of(0) - 1));
  CHECK(before.find("before_first")->as_bool());
  CHECK(before.find("frame")->find("index")->as_uint() == 0);
  // The next frame's time, for a player; none after the last.
  CHECK(ask(inspector, args_of("/camera", "at_ns", time_of(3))).find("next_ns")->as_string() == std::to_string(time_of(4)));
  CHECK(ask(inspector, args_of("/camera", "index", cases.size() - 1)).find("next_ns")->is_null());
  // Frames at one time stay apart.
  ask(inspector, args_of("/camera", "index", 6));
  const std::string six = views::last_frame_bytes();
  ask(inspector, args_of("/camera", "index", 7));
  CHECK(six != views::last_frame_bytes());
  // Asking past the end, or a topic that is not an image topic, is an error that says so.
  Json past = inspector.query("images", args_of("/camera", "index", cases.size()), nullptr);
  REQUIRE(past.find("error"));
  CHECK(past.find("error")->as_string().find("past the 14 frames") != std::string::npos);
  Json none = inspector.query("images", args_of("/nothing"), nullptr);
  REQUIRE(none.find("error"));
  CHECK(none.find("error")->as_string().find("the image topics: /camera") != std::string::npos);
}

}  // namespace

TEST_CASE("images: a bag's raw, depth and JPEG frames by time and by index, their bytes, damage named") {
  const std::vector<Case> cases = raw_frames();
  const std::string jpeg = fake_jpeg('a'), cut = fake_jpeg('b').substr(0, 30);
  std::vector<std::string> compressed = {jpeg, cut, fake_jpeg('c')};
  std::string bytes = raw_bag(cases, compressed);
  MemoryByteSource memory(bytes_of(bytes));
  CountingByteSource source(memory);
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);

  Json topics = ask(*inspector, [] { Json j = Json::object(); j["topics_only"] = true; return j; }());
  REQUIRE(topics.find("topics")->size() == 2);
  check_raw(*inspector, cases);

  Json answer = ask(*inspector, args_of("/camera/compressed", "index", 0));
  const Json* f = answer.find("frame");
  CHECK(answer.find("count")->as_uint() == 3);
  CHECK(f->find("ok")->as_bool());
  CHECK(f->find("kind")->as_string() == "jpeg");
  CHECK(f->find("encoding")->as_string() == "jpeg");
  CHECK(f->find("width")->is_null());  // the browser decodes it
  CHECK(views::last_frame_bytes() == jpeg);
  answer = ask(*inspector, args_of("/camera/compressed", "at_ns", time_of(1) + 5));
  f = answer.find("frame");
  CHECK(f->find("index")->as_uint() == 1);
  CHECK(!f->find("ok")->as_bool());
  CHECK(f->find("code")->as_string() == "image.jpeg.cut");
  CHECK(views::last_frame_bytes().empty());

  SUBCASE("a frame is read from its own chunk, not the file") {
    source.reset();
    ask(*inspector, args_of("/camera", "index", 9));
    CHECK(source.bytes_read() > 0);
    CHECK(source.bytes_read() * 4 < bytes.size());
  }
}

TEST_CASE("images: an MCAP's CDR raw frames and protobuf compressed frames") {
  const std::vector<Case> cases = raw_frames();
  mcap::WriterOptions options;
  options.chunk_size = 256;
  mcap::Writer writer(options);
  uint16_t raw = writer.add_channel(writer.add_schema("sensor_msgs/msg/Image", "ros2msg", kRos2Image), "/camera", "cdr");
  const std::string dir = test_support::scratch_dir("images_mcap");
  uint16_t jpeg = writer.add_channel(writer.add_schema("foxglove.CompressedImage", "protobuf", descriptor_set(dir, "CompressedImage")),
                                     "/camera/compressed", "protobuf");
  uint32_t sequence = 0;
  for (size_t i = 0; i < cases.size(); ++i) writer.write_message(raw, sequence++, raw_time(i), raw_time(i), ros2_image(i, cases[i]));
  writer.write_message(jpeg, sequence++, time_of(0), time_of(0), protobuf_compressed("jpeg", fake_jpeg('z')));
  writer.write_message(jpeg, sequence++, time_of(1), time_of(1), protobuf_compressed("h264", std::string("\0\0\0\1gM", 6)));
  std::string bytes = writer.finish();
  MemoryByteSource source(bytes_of(bytes));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);
  check_raw(*inspector, cases);
  Json answer = ask(*inspector, args_of("/camera/compressed", "index", 0));
  CHECK(answer.find("frame")->find("kind")->as_string() == "jpeg");
  CHECK(views::last_frame_bytes() == fake_jpeg('z'));
  answer = ask(*inspector, args_of("/camera/compressed", "index", 1));
  CHECK(answer.find("frame")->find("code")->as_string() == "image.format.unknown");
  CHECK(answer.find("frame")->find("message")->as_string().find("\"h264\"") != std::string::npos);
}

TEST_CASE("images: a thumbnail is the first frame in a span, read from the chunks there without listing the topic") {
  const std::vector<Case> cases = raw_frames();
  std::string bytes = raw_bag(cases, {fake_jpeg('a'), fake_jpeg('b'), fake_jpeg('c')});
  MemoryByteSource memory(bytes_of(bytes));
  CountingByteSource source(memory);
  auto inspector = rosbag::open_inspector(source, rosbag::Format::RosbagV20);
  REQUIRE(inspector);
  auto span = [](const std::string& topic, uint64_t from, uint64_t to) {
    Json j = args_of(topic);
    j["from_ns"] = std::to_string(from);
    j["to_ns"] = std::to_string(to);
    return j;
  };
  uint64_t total = 0;
  for (size_t i = 0; i + 1 < cases.size(); ++i) {
    if (i == 7) continue;  // (frame 7 shares frame 6's time)
    source.reset();
    Json answer = ask(*inspector, span("/camera", time_of(i), time_of(i + 1) - 1));
    total += source.bytes_read();
    CAPTURE(i);
    const Json* f = answer.find("frame");
    REQUIRE(f->is_object());
    CHECK(f->find("time_ns")->as_string() == std::to_string(raw_time(i)));
    CHECK(f->find("index")->is_null());
    CHECK(source.bytes_read() * 4 < bytes.size());  // its own chunks, not the file
    if (i == 12) {
      CHECK(f->find("depth")->is_object());
      continue;
    }
    REQUIRE(f->find("kind")->as_string() == "rgba");
    CHECK(f->find("width")->as_uint() == 5);
    views::ImageFields fields{cases[i].width, cases[i].height, cases[i].encoding, cases[i].big, cases[i].step, cases[i].data};
    views::ImageResult expected = views::convert_image(fields);
    REQUIRE(expected.ok);
    CHECK(views::last_frame_bytes() == std::string(expected.image.rgba.begin(), expected.image.rgba.end()));
  }
  CHECK(total < bytes.size());  // eleven thumbnails read less than the file once

  // The unknown encoding is named, a span without frames has none, a JPEG is as stored.
  Json unknown = ask(*inspector, span("/camera", raw_time(13), raw_time(13)));
  CHECK(unknown.find("frame")->find("code")->as_string().find("image.") == 0);
  Json empty = ask(*inspector, span("/camera", time_of(0) - 1000, time_of(0) - 1));
  CHECK(empty.find("frame")->is_null());
  CHECK(views::last_frame_bytes().empty());
  Json jpeg = ask(*inspector, span("/camera/compressed", time_of(2), time_of(3)));
  CHECK(jpeg.find("frame")->find("kind")->as_string() == "jpeg");
  CHECK(views::last_frame_bytes() == fake_jpeg('c'));

  // Asked wrongly: the topic must be an image topic, the span in order.
  CHECK(inspector->query("images", span("/nothing", 0, 1), nullptr).find("error")->as_string().find("the image topics: /camera") != std::string::npos);
  CHECK(inspector->query("images", span("/camera", 2, 1), nullptr).find("error"));
  Json no_topic = Json::object();
  no_topic["from_ns"] = "0";
  CHECK(inspector->query("images", no_topic, nullptr).find("error"));
}

// The images bench's inputs (bench/browser-images.mjs): each camera writer's file checks clean and
// holds 640 x 480 frames 33.3 ms apart from 2026-01-01, which logscope frames writes.
TEST_CASE("images: the bench's camera writers (bag and rosbag2 rgb8, MCAP JPEG) write files that check clean") {
  const std::string dir = test_support::scratch_dir("camera_writers");
  const std::string jpegs = dir + "/jpegs";
  std::filesystem::create_directories(jpegs);
  // A real JPEG (the CLI checks each with libjpeg before it writes it as stored), made by Debian's ffmpeg.
  REQUIRE(std::system(("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=64x48 -frames:v 1 '" + jpegs + "/a.jpg'").c_str()) == 0);
  const std::string jpeg = test_support::read_text(jpegs + "/a.jpg");
  struct Writer {
    std::string command, out, topic, extra, extension;
  };
  for (const Writer& w : {Writer{"make-demo-camera-bag", "c.bag", "/camera/image_raw", "", "png"},
                          Writer{"make-demo-camera-mcap", "c.mcap", "/camera/image_raw/compressed", " --jpeg-dir '" + jpegs + "'", "jpg"},
                          Writer{"make-demo-camera-rosbag2", "c2", "/camera/image_raw", "", "png"}}) {
    CAPTURE(w.command);
    const std::string path = dir + "/" + w.out, frames = dir + "/frames-" + w.out;
    int status = -1;
    test_support::run_cli(w.command + " '" + path + "' --size-mb 3" + w.extra, &status);
    REQUIRE(status == 0);
    test_support::run_cli("check '" + path + "'", &status);
    CHECK(status == 0);
    std::string out = test_support::run_cli("frames '" + path + "' --topic " + w.topic + " -o '" + frames + "' --to +0.04", &status);
    CHECK_MESSAGE(status == 0, out);
    CHECK(std::filesystem::exists(frames + "/1767225600.000000000." + w.extension));
    CHECK(std::filesystem::exists(frames + "/1767225600.033333333." + w.extension));
    if (w.extension == "jpg") CHECK(test_support::read_text(frames + "/1767225600.000000000.jpg") == jpeg);
    else {
      views::RgbaImage image;
      std::string code, words;
      REQUIRE(views::decode_png_rgba(test_support::read_text(frames + "/1767225600.033333333.png"), image, code, words, nullptr));
      CHECK(image.width == 640);
      CHECK(image.height == 480);
      CHECK(image.rgba[0] == 4);  // red: x + 4 * frame, at frame 1
    }
  }
}

// A byte field read whole (view_support.h): the decoders' raw bytes, hex, or protobuf's hex text; a
// length the text does not hold is a preview, whatever the number (a JSON message can say any).
TEST_CASE("images: a byte field is read whole from raw bytes, hex or hex text, and a lying length is a preview") {
  auto read = [](const std::string& text, std::string* out) {
    std::optional<Json> j = Json::parse(text, nullptr);
    REQUIRE(j);
    return views::whole_bytes_of(&*j, out);
  };
  std::string out;
  CHECK(read(R"({"length": 3, "raw": "abc"})", &out) == views::WholeBytes::Ok);
  CHECK(out == "abc");
  CHECK(read(R"({"length": 2, "hex": "0aFf"})", &out) == views::WholeBytes::Ok);
  CHECK(out == std::string("\x0a\xff", 2));
  CHECK(read(R"("00ff10")", &out) == views::WholeBytes::Ok);
  CHECK(out == std::string("\x00\xff\x10", 3));
  CHECK(read(R"({"length": 9223372036854775808, "hex": ""})", &out) == views::WholeBytes::Preview);
  CHECK(read(R"({"length": 4, "raw": "abc"})", &out) == views::WholeBytes::Preview);
  CHECK(read(R"({"length": 64, "hex": "00ff"})", &out) == views::WholeBytes::Preview);
  CHECK(read(R"("0f0")", &out) == views::WholeBytes::Preview);
  CHECK(read(R"({"length": 1, "hex": "zz"})", &out) == views::WholeBytes::NotHex);
  CHECK(out.empty());
  CHECK(read("null", &out) == views::WholeBytes::Missing);
  CHECK(views::whole_bytes_of(nullptr, &out) == views::WholeBytes::Missing);
}
