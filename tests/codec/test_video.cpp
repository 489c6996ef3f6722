// CompressedVideo (codec/views/video_bitstream.h, video_query.h): keyframes and codec strings
// from hand-made H.264, H.265, VP9 and AV1 bitstreams, damaged streams named with their byte
// offset, and the images query on an MCAP of foxglove_msgs/msg/CompressedVideo (CDR): the
// keyframe index, the frame at a position as the frames from the keyframe before it, a frame with
// no keyframe before it and a damaged frame between.
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

#include <google/protobuf/stubs/strutil.h>  // Base64Escape

#include "cdr/writer.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "mcap/inspector.h"
#include "mcap/writer.h"
#include "open_log.h"
#include "test_support.h"
#include "views/image_query.h"
#include "views/video_bitstream.h"

using namespace logscope;
using namespace logscope::views;

namespace {

const std::string kSc("\x00\x00\x00\x01", 4);
const std::string kSps = kSc + std::string("\x67\x64\x00\x1f\xac\xd9\x40", 7);
const std::string kPps = kSc + std::string("\x68\xeb\xe3\xcb", 4);
const std::string kIdr = kSc + std::string("\x65\x88\x84\x00\x33", 5);
std::string p_slice(char tag) { return std::string("\x00\x00\x01\x41\x9a", 5) + tag; }

// Emulation prevention: 00 00 then a byte <= 3 gets a 03 between.
std::string escape(const std::string& rbsp) {
  std::string out;
  int zeros = 0;
  for (char c : rbsp) {
    if (zeros >= 2 && uint8_t(c) <= 3) {
      out.push_back(3);
      zeros = 0;
    }
    out.push_back(c);
    zeros = c == 0 ? zeros + 1 : 0;
  }
  return out;
}

struct Bits {
  std::string out;
  int used = 0;
  void put(uint32_t value, int count) {
    for (int i = count - 1; i >= 0; --i) {
      if (used % 8 == 0) out.push_back(0);
      if (value >> i & 1) out.back() = char(out.back() | (0x80 >> (used % 8)));
      ++used;
    }
  }
};

}  // namespace

TEST_CASE("video: H.264 Annex B units, IDR keyframes and the codec string from the SPS") {
  std::vector<NalUnit> units;
  std::string error;
  REQUIRE(annexb_units(kSps + kPps + kIdr, units, error));
  REQUIRE(units.size() == 3);
  CHECK(units[0].offset == 4);
  CHECK(units[0].size == 7);
  CHECK(units[2].offset == 4 + 7 + 4 + 4 + 4);
  VideoFrameInfo key = inspect_video_frame(VideoCodec::H264, kSps + kPps + kIdr);
  REQUIRE(key.ok);
  CHECK(key.key);
  CHECK(key.codec_string == "avc1.64001f");
  VideoFrameInfo delta = inspect_video_frame(VideoCodec::H264, p_slice('a') + p_slice('b'));
  REQUIRE(delta.ok);
  CHECK(!delta.key);
  CHECK(delta.codec_string.empty());
  CHECK(video_codec("H264") == VideoCodec::H264);
  CHECK(video_codec("mjpeg") == VideoCodec::Unknown);
}

TEST_CASE("video: damaged H.264 is named with its byte offset") {
  VideoFrameInfo r = inspect_video_frame(VideoCodec::H264, std::string("\x65\x88\x84", 3));
  CHECK(r.code == "image.video.nal");
  CHECK(r.message.find("start code") != std::string::npos);
  r = inspect_video_frame(VideoCodec::H264, kSps + std::string("\x00\x00\x01", 3) + kIdr);  // an empty unit at byte 14
  CHECK(r.code == "image.video.nal");
  CHECK(r.message.find("byte 14") != std::string::npos);
  r = inspect_video_frame(VideoCodec::H264, kSps + kPps + kSc);  // cut after a start code
  CHECK(r.code == "image.video.nal");
  r = inspect_video_frame(VideoCodec::H264, kSc + std::string("\x67\x64", 2));  // a truncated SPS
  CHECK(r.code == "image.video.sps");
  CHECK(r.message.find("byte 4") != std::string::npos);
  r = inspect_video_frame(VideoCodec::H264, kSc + std::string("\xe5\x88", 2));  // forbidden_zero_bit
  CHECK(r.code == "image.video.nal");
  CHECK(inspect_video_frame(VideoCodec::H264, "").code == "image.video.empty");
  // Every cut of a good frame is read without a crash; the whole one is a keyframe.
  const std::string whole = kSps + kPps + kIdr;
  for (size_t keep = 0; keep <= whole.size(); ++keep) (void)inspect_video_frame(VideoCodec::H264, whole.substr(0, keep));
}

TEST_CASE("video: H.265 IRAP keyframes and the codec string from the SPS's profile_tier_level") {
  // SPS: NAL header 42 01, vps_id 0 / max_sub_layers 0 / nesting 1, then space 0 tier 0 profile 1,
  // compatibility flags 1 and 2, constraint bytes 90 00 00 00 00 00, level 93.
  std::string rbsp("\x42\x01\x01\x01\x60\x00\x00\x00\x90\x00\x00\x00\x00\x00\x5d\x90", 16);
  const std::string sps = kSc + escape(rbsp);
  CHECK(sps.size() > kSc.size() + rbsp.size());  // the stream has emulation prevention bytes
  const std::string idr = kSc + std::string("\x26\x01\xaf\x10", 4);  // IDR_W_RADL (19)
  VideoFrameInfo r = inspect_video_frame(VideoCodec::H265, sps + idr);
  REQUIRE(r.ok);
  CHECK(r.key);
  CHECK(r.codec_string == "hev1.1.6.L93.90");
  r = inspect_video_frame(VideoCodec::H265, kSc + std::string("\x02\x01\xd0", 3));  // TRAIL_R (1)
  REQUIRE(r.ok);
  CHECK(!r.key);
  CHECK(inspect_video_frame(VideoCodec::H265, kSc + std::string("\x42\x01\x01", 3)).code == "image.video.sps");
}

TEST_CASE("video: VP9 keyframes from the uncompressed header") {
  VideoFrameInfo r = inspect_video_frame(VideoCodec::Vp9, std::string("\x82\x49\x83\x42\x00", 5));
  REQUIRE(r.ok);
  CHECK(r.key);
  CHECK(r.codec_string == "vp09.00.41.08");
  r = inspect_video_frame(VideoCodec::Vp9, std::string("\x86\x00", 2));  // an inter frame
  REQUIRE(r.ok);
  CHECK(!r.key);
  CHECK(inspect_video_frame(VideoCodec::Vp9, std::string("\x82\x49\x00\x00", 4)).code == "image.video.vp9");  // no sync code
  CHECK(inspect_video_frame(VideoCodec::Vp9, std::string("\x82\x49", 2)).code == "image.video.vp9");          // cut
  CHECK(inspect_video_frame(VideoCodec::Vp9, std::string("\x42", 1)).code == "image.video.vp9");              // no frame marker
}

TEST_CASE("video: AV1 keyframes from the sequence header and frame OBUs") {
  Bits seq;  // profile 0, not still, not reduced, no timing info, 1 operating point at level 8, tier 0
  seq.put(0, 3), seq.put(0, 1), seq.put(0, 1), seq.put(0, 1), seq.put(0, 1), seq.put(0, 5), seq.put(0, 12), seq.put(8, 5), seq.put(0, 1);
  const std::string td("\x12\x00", 2);
  const std::string seq_obu = std::string("\x0a", 1) + char(seq.out.size()) + seq.out;
  const std::string key_frame("\x32\x01\x10", 3);    // show_existing_frame 0, frame_type 0 (KEY), show_frame 1
  const std::string inter_frame("\x32\x01\x30", 3);  // frame_type 1 (INTER)
  VideoFrameInfo r = inspect_video_frame(VideoCodec::Av1, td + seq_obu + key_frame);
  REQUIRE(r.ok);
  CHECK(r.key);
  CHECK(r.codec_string == "av01.0.08M.08");
  r = inspect_video_frame(VideoCodec::Av1, td + inter_frame);
  REQUIRE(r.ok);
  CHECK(!r.key);
  r = inspect_video_frame(VideoCodec::Av1, td + key_frame);  // a key frame with no sequence header: no start
  REQUIRE(r.ok);
  CHECK(!r.key);
  r = inspect_video_frame(VideoCodec::Av1, td + std::string("\x32\x09\x10", 3));  // says 9 bytes, 1 remains
  CHECK(r.code == "image.video.obu");
  CHECK(r.message.find("byte 2") != std::string::npos);
}

namespace {

constexpr uint64_t kT0 = 1767225600000000000ull;
const char* kDefinition =
    "builtin_interfaces/Time timestamp\nstring frame_id\nuint8[] data\nstring format\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

std::string video_message(uint64_t t, const std::string& data) {
  cdr::CdrWriter w;
  w.put<int32_t>(int32_t(t / 1000000000u));
  w.put<uint32_t>(uint32_t(t % 1000000000u));
  w.string("camera");
  w.sequence_length(uint32_t(data.size()));
  w.octets(data);
  w.string("h264");
  return w.bytes();
}

std::string video_mcap(const std::vector<std::string>& frames) {
  mcap::WriterOptions options;
  options.chunk_size = 64;  // a chunk or two a frame
  mcap::Writer writer(options);
  const uint16_t channel = writer.add_channel(writer.add_schema("foxglove_msgs/msg/CompressedVideo", "ros2msg", kDefinition), "/video", "cdr");
  for (size_t i = 0; i < frames.size(); ++i) writer.write_message(channel, uint32_t(i), kT0 + i * 100000000ull, kT0, video_message(kT0 + i * 100000000ull, frames[i]));
  return writer.finish();
}

Json ask(FormatInspector& inspector, uint64_t index, bool list = false) {
  Json args = Json::object();
  args["topic"] = "/video";
  args["index"] = std::to_string(index);
  if (list) args["video_frames"] = true;
  Json answer = inspector.query("images", args, nullptr);
  REQUIRE_MESSAGE(!answer.find("error"), answer.dump());
  return answer;
}

}  // namespace

TEST_CASE("video: the images query lists keyframes and hands over the frames from the keyframe before") {
  // 0: P before any keyframe; 1: SPS PPS IDR; 2, 3: P; 4: IDR; 5: P; 6: a damaged frame; 7: P.
  const std::vector<std::string> frames = {p_slice('0'), kSps + kPps + kIdr, p_slice('2'), p_slice('3'), kSps + kPps + kIdr + "4",
                                           p_slice('5'), kSc + std::string("\x00\x00\x01\x41", 4), p_slice('7')};
  const std::string bytes = video_mcap(frames);
  MemoryByteSource source(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);

  Json answer = ask(*inspector, 3, true);

  CHECK(answer.find("type")->as_string() == "foxglove_msgs/msg/CompressedVideo");
  CHECK(answer.find("count")->as_uint() == 8);
  CHECK(answer.find("video")->find("keyframes")->as_uint() == 2);
  const Json* listed = answer.find("video_frames");
  REQUIRE(listed);
  REQUIRE(listed->size() == 8);
  for (size_t i = 0; i < 8; ++i) CHECK((*listed)[i].find("key")->as_bool() == (i == 1 || i == 4));
  const Json* f = answer.find("frame");
  REQUIRE(f);
  CHECK(f->find("ok")->as_bool());
  CHECK(f->find("kind")->as_string() == "video");
  CHECK(f->find("encoding")->as_string() == "h264");
  CHECK(f->find("video")->find("first_index")->as_uint() == 1);
  CHECK(f->find("video")->find("codec_string")->as_string() == "avc1.64001f");
  CHECK(f->find("video")->find("run")->size() == 3);
  CHECK(last_frame_bytes() == frames[1] + frames[2] + frames[3]);

  answer = ask(*inspector, 4);  // a keyframe: itself alone
  CHECK(answer.find("frame")->find("video")->find("run")->size() == 1);
  CHECK(last_frame_bytes() == frames[4]);

  answer = ask(*inspector, 0);  // no keyframe before it
  CHECK(answer.find("frame")->find("code")->as_string() == "image.video.no_keyframe");
  CHECK(last_frame_bytes().empty());

  answer = ask(*inspector, 6);  // the damaged frame itself
  CHECK(answer.find("frame")->find("code")->as_string() == "image.video.damaged");
  CHECK(answer.find("frame")->find("message")->as_string().find("image.video.nal") != std::string::npos);
  answer = ask(*inspector, 7);  // past it: a decoder cannot go on
  CHECK(answer.find("frame")->find("code")->as_string() == "image.video.damaged");
  CHECK(last_frame_bytes().empty());
}

namespace {


}  // namespace

// Real streams, encoded by Debian's ffmpeg (tests/reference/video_reference.py: 12 frames, a
// keyframe every 5), written by `make-demo-video` as CDR and as JSON with base64 data: every
// frame is a message, the keyframes are the frames ffprobe calls keyframes, the codec string is
// read from the stream, and the JSON file's frames are the CDR file's bytes.
TEST_CASE("video: real H.264, H.265, VP9 and AV1 streams from ffmpeg, in CDR and in JSON (base64): keyframes as ffprobe finds them") {
  const std::string dir = test_support::scratch_dir("video-real");
  const std::map<std::string, std::string> prefixes = {{"h264", "avc1.64"}, {"h265", "hev1.1."}, {"vp9", "vp09.00."}, {"av1", "av01.0."}};
  for (const auto& [codec, prefix] : prefixes) {
    CAPTURE(codec);
    const std::string out = dir + "/" + codec;
    const std::string command = "/usr/bin/python3 '" + std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/video_reference.py' make '" + out +
                                "' 12 5 96x64 " + codec + " 2>&1";
    const int status = std::system(command.c_str());
    if (WEXITSTATUS(status) == 77) {
      test_support::skip("ffmpeg or its " + codec + " encoder is missing: no " + codec + " stream");
      continue;
    }
    REQUIRE(status == 0);
    std::optional<Json> reference = Json::parse(test_support::read_text(out + "/reference.json"));
    REQUIRE(reference);
    std::vector<bool> ffprobe_key(reference->find("frames")->as_uint(), false);
    for (const Json& k : reference->find("keyframes")->elements()) ffprobe_key.at(k.as_uint()) = true;
    std::string frame_bytes[2];
    for (const std::string encoding : {"cdr", "json"}) {
      CAPTURE(encoding);
      const std::string file = out + "/video-" + encoding + ".mcap";
      int cli_status = 0;
      const std::string said = test_support::run_cli("make-demo-video '" + file + "' --stream '" + out + "/stream." + codec + "' --codec " + codec +
                                                         " --encoding " + encoding,
                                                     &cli_status);
      REQUIRE_MESSAGE(cli_status == 0, said);
      test_support::OpenedLog m = test_support::open_log(file);
      Json args = Json::object();
      args["topic"] = "/camera/video";
      args["index"] = "7";
      args["video_frames"] = true;
      Json answer = m.inspector->query("images", args, nullptr);
      REQUIRE_MESSAGE(!answer.find("error"), answer.dump());
      CHECK(answer.find("type")->as_string() == (encoding == std::string("cdr") ? "foxglove_msgs/msg/CompressedVideo" : "foxglove.CompressedVideo"));
      const Json* listed = answer.find("video_frames");
      REQUIRE(listed);
      REQUIRE(listed->size() == ffprobe_key.size());
      for (size_t i = 0; i < ffprobe_key.size(); ++i) {
        CAPTURE(i);
        CHECK((*listed)[i].find("key")->as_bool() == ffprobe_key[i]);
      }
      const Json* f = answer.find("frame");
      REQUIRE(f);
      REQUIRE_MESSAGE(f->find("ok")->as_bool(), f->dump());
      CHECK(f->find("encoding")->as_string() == codec);
      CHECK(f->find("video")->find("first_index")->as_uint() == 5);
      CHECK(f->find("video")->find("codec_string")->as_string().rfind(prefix, 0) == 0);
      CHECK(f->find("video")->find("run")->size() == 3);
      frame_bytes[encoding == std::string("json")] = last_frame_bytes();
    }
    CHECK(!frame_bytes[0].empty());
    CHECK(frame_bytes[0] == frame_bytes[1]);
  }
}

namespace {

// The images query's frame 0 of `topic` in an MCAP of one JSON message of `type`, whose jsonschema
// marks `data` base64 (as Foxglove's do).
Json json_image_frame(const std::string& type, const std::string& payload) {
  mcap::Writer writer{mcap::WriterOptions()};
  const uint16_t schema = writer.add_schema(
      type, "jsonschema",
      R"({"type":"object","properties":{"frame_id":{"type":"string"},"data":{"type":"string","contentEncoding":"base64"},"format":{"type":"string"}}})");
  writer.write_message(writer.add_channel(schema, "/image", "json"), 0, kT0, kT0, payload);
  const std::string bytes = writer.finish();
  MemoryByteSource source(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  auto inspector = mcap::open_inspector(source);
  REQUIRE(inspector);
  Json args = Json::object();
  args["topic"] = "/image";
  args["index"] = "0";
  Json answer = inspector->query("images", args, nullptr);
  REQUIRE_MESSAGE(!answer.find("error"), answer.dump());
  REQUIRE(answer.find("frame"));
  return *answer.find("frame");
}

}  // namespace

// A JSON message whose data is not the base64 its schema says: the frame is a named error.
TEST_CASE("video: JSON data that is not base64 is named, and the frame is not made") {
  const Json f = json_image_frame("foxglove.CompressedVideo", R"({"data":"not base64!","format":"vp9"})");
  CHECK(!f.find("ok")->as_bool());
  CHECK(f.find("code")->as_string() == "image.video.damaged");
  CHECK_MESSAGE(f.find("message")->as_string().find("message.data is not base64") != std::string::npos, f.dump());
}

// The base64 of JSON holds for every image type, not only video: a foxglove.CompressedImage in
// JSON hands over its JPEG as the bytes the base64 text holds.
TEST_CASE("images: a JSON CompressedImage's base64 data is handed over as the stored JPEG") {
  const std::string jpeg("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9", 22);
  std::string text;
  google::protobuf::Base64Escape(jpeg, &text);
  const Json f = json_image_frame("foxglove.CompressedImage", R"({"frame_id":"camera","data":")" + text + R"(","format":"jpeg"})");
  REQUIRE_MESSAGE(f.find("ok")->as_bool(), f.dump());
  CHECK(f.find("kind")->as_string() == "jpeg");
  CHECK(last_frame_bytes() == jpeg);
}
