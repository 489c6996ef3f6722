// `make-demo-video`: an MCAP of one CompressedVideo topic made of an H.264, H.265, VP9 or AV1
// stream, one frame a message, for the CompressedVideo tests (tests/reference/video_reference.py
// makes the stream with ffmpeg; tests/web/images.test.mjs, tests/codec/test_video.cpp). As
// foxglove_msgs/msg/CompressedVideo in CDR (ROS 2), or as foxglove.CompressedVideo in JSON, whose
// `data` is base64 text (Foxglove's JSON schema says so with "contentEncoding": "base64").
// - H.264 and H.265: Annex B, split into access units. One starts at the first slice of a picture
//   (H.264: a VCL unit of type 1 to 5 whose first_mb_in_slice is 0; H.265: a VCL unit, types 0 to
//   31, with first_slice_segment_in_pic_flag set: in both, the first bit after the unit's header);
//   the non-VCL units before it (AUD, parameter sets, SEI) belong to it.
// - VP9 and AV1: IVF (ffmpeg's -f ivf), whose frames are the messages (AV1: temporal units).
#include <google/protobuf/stubs/strutil.h>  // Base64Escape

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cdr/writer.h"
#include "command.h"
#include "core/json.h"
#include "mcap/writer.h"
#include "views/video_bitstream.h"

namespace logscope::cli {
namespace {

constexpr uint64_t kStart = 1767225600000000000ull;  // 2026-01-01

const char* kRos2Definition =
    "builtin_interfaces/Time timestamp\nstring frame_id\nuint8[] data\nstring format\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

// foxglove.CompressedVideo's JSON schema, as Foxglove publishes it (its fields and their types).
const char* kJsonSchema =
    R"({"title":"foxglove.CompressedVideo","type":"object","properties":{)"
    R"("timestamp":{"type":"object","properties":{"sec":{"type":"integer","minimum":0},"nsec":{"type":"integer","minimum":0,"maximum":999999999}}},)"
    R"("frame_id":{"type":"string"},"data":{"type":"string","contentEncoding":"base64"},"format":{"type":"string"}}})";

// The stream's access units (H.264, H.265), each with the start code of its first unit.
std::vector<std::string> access_units(const std::string& stream, bool h265, std::string& error) {
  std::vector<views::NalUnit> units;
  std::vector<std::string> out;
  if (!views::annexb_units(stream, units, error)) return out;
  std::string pending;  // non-VCL units waiting for their slice
  bool open = false;    // out.back() has its first slice
  for (const views::NalUnit& u : units) {
    const std::string unit = std::string("\x00\x00\x00\x01", 4) + stream.substr(u.offset, u.size);
    const uint8_t head = uint8_t(stream[u.offset]);
    const bool vcl = h265 ? (head >> 1 & 63) <= 31 : (head & 31) >= 1 && (head & 31) <= 5;
    const uint64_t header_size = h265 ? 2 : 1;
    const bool first_slice = vcl && u.size > header_size && (uint8_t(stream[u.offset + header_size]) & 0x80);
    if (!vcl) {
      pending += unit;
      continue;
    }
    if (first_slice || !open) {
      out.push_back(pending + unit);
      open = true;
    } else {
      out.back() += pending + unit;
    }
    pending.clear();
  }
  return out;
}

uint32_t le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(s[at + i]);
  return v;
}

// The frames of an IVF file whose fourcc is `fourcc` ("VP90", "AV01"); empty with `error`.
std::vector<std::string> ivf_frames(const std::string& file, const char* fourcc, std::string& error) {
  std::vector<std::string> out;
  if (file.size() < 32 || file.compare(0, 4, "DKIF") != 0) return error = "not an IVF file (no DKIF signature)", out;
  if (file.compare(8, 4, fourcc) != 0) return error = "the IVF file holds \"" + file.substr(8, 4) + "\", not " + fourcc, out;
  const size_t header = uint8_t(file[6]) | uint8_t(file[7]) << 8;
  for (size_t at = header; at < file.size();) {
    if (file.size() - at < 12) return error = "the frame header at byte " + std::to_string(at) + " is cut", std::vector<std::string>();
    const uint32_t size = le32(file, at);
    if (size > file.size() - at - 12)
      return error = "the frame at byte " + std::to_string(at) + " says " + std::to_string(size) + " bytes, more than remain", std::vector<std::string>();
    out.push_back(file.substr(at + 12, size));
    at += 12 + size;
  }
  return out;
}

std::string cdr_message(uint64_t t, const std::string& frame, const std::string& format) {
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(t / 1000000000u));
  w.put<uint32_t>(static_cast<uint32_t>(t % 1000000000u));
  w.string("camera");
  w.sequence_length(static_cast<uint32_t>(frame.size()));
  w.octets(frame);
  w.string(format);
  return w.bytes();
}

std::string json_message(uint64_t t, const std::string& frame, const std::string& format) {
  std::string data;
  google::protobuf::Base64Escape(frame, &data);
  Json j = Json::object();
  j["timestamp"] = Json::object();
  j["timestamp"]["sec"] = t / 1000000000u;
  j["timestamp"]["nsec"] = t % 1000000000u;
  j["frame_id"] = "camera";
  j["data"] = data;
  j["format"] = format;
  return j.dump();
}

int run_make_demo_video(const std::vector<std::string>& raw_args) {
  const char* usage = "usage: logscope make-demo-video OUT --stream FILE [--codec h264|h265|vp9|av1] [--encoding cdr|json] [--fps N]";
  Arguments args(raw_args, {"--stream", "--fps", "--codec", "--encoding"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1 || !args.has("--stream")) return fail(usage);
  uint64_t fps = 10;
  if (args.has("--fps") && (!parse_u64(args.value("--fps"), &fps) || fps == 0 || fps > 1000)) return fail("--fps needs a whole number from 1 to 1000");
  const std::string codec = args.has("--codec") ? args.value("--codec") : "h264";
  const std::string encoding = args.has("--encoding") ? args.value("--encoding") : "cdr";
  if (codec != "h264" && codec != "h265" && codec != "vp9" && codec != "av1") return fail("--codec must be h264, h265, vp9 or av1");
  if (encoding != "cdr" && encoding != "json") return fail("--encoding must be cdr or json");
  std::ifstream in(args.value("--stream"), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return fail(args.value("--stream") + ": cannot read the stream");
  std::string error;
  const std::vector<std::string> frames = codec == "vp9"   ? ivf_frames(text.str(), "VP90", error)
                                          : codec == "av1" ? ivf_frames(text.str(), "AV01", error)
                                                           : access_units(text.str(), codec == "h265", error);
  if (frames.empty()) return fail(args.value("--stream") + ": no " + codec + " frame" + (error.empty() ? "" : ": " + error));

  mcap::WriterOptions options;
  options.chunk_size = 16 * 1024;
  mcap::Writer writer(options);
  const bool json = encoding == "json";
  const uint16_t schema = json ? writer.add_schema("foxglove.CompressedVideo", "jsonschema", kJsonSchema)
                               : writer.add_schema("foxglove_msgs/msg/CompressedVideo", "ros2msg", kRos2Definition);
  const uint16_t channel = writer.add_channel(schema, "/camera/video", encoding);
  for (size_t i = 0; i < frames.size(); ++i) {
    const uint64_t t = kStart + i * (1000000000ull / fps);
    writer.write_message(channel, static_cast<uint32_t>(i), t, t, json ? json_message(t, frames[i], codec) : cdr_message(t, frames[i], codec));
  }
  const std::string bytes = writer.finish();
  const std::string& path = args.positional()[0];
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.good()) return fail(path + ": cannot write");
  std::printf("wrote %s: %zu frames\n", path.c_str(), frames.size());
  return kExitClean;
}

const CommandRegistrar kMakeDemoVideo({"make-demo-video", "write an MCAP of a video stream as CompressedVideo (CDR or JSON)",
                                       "usage: logscope make-demo-video OUT --stream FILE [--codec h264|h265|vp9|av1]\n"
                                       "                                [--encoding cdr|json] [--fps N]\n\n"
                                       "Splits an H.264 or H.265 Annex B stream (ffmpeg's -f h264, -f hevc) into access\n"
                                       "units, or a VP9 or AV1 IVF file (-f ivf) into its frames, and writes them as\n"
                                       "/camera/video, one message a frame at N Hz (default 10) from 2026-01-01:\n"
                                       "foxglove_msgs/msg/CompressedVideo in CDR (the default), or foxglove.CompressedVideo\n"
                                       "in JSON with its data as base64.",
                                       run_make_demo_video});

}  // namespace
}  // namespace logscope::cli
