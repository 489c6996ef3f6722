// `make-demo-video`: an MCAP of one foxglove_msgs/msg/CompressedVideo topic (ROS 2, CDR) made of
// an H.264 Annex B stream, one access unit a message, for the CompressedVideo tests
// (tests/reference/video_reference.py makes the stream with ffmpeg; tests/web/video.test.mjs).
// An access unit starts at a slice whose first_mb_in_slice is 0 (a VCL NAL unit of type 1 or 5
// with the first bit after its header set); the non-VCL units before it (AUD, SPS, PPS, SEI)
// belong to it.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cdr/writer.h"
#include "command.h"
#include "mcap/writer.h"
#include "views/video_bitstream.h"

namespace logscope::cli {
namespace {

constexpr uint64_t kStart = 1767225600000000000ull;  // 2026-01-01

const char* kDefinition =
    "builtin_interfaces/Time timestamp\nstring frame_id\nuint8[] data\nstring format\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";

// The stream's access units, each with the start code of its first unit.
std::vector<std::string> access_units(const std::string& stream, std::string& error) {
  std::vector<views::NalUnit> units;
  std::vector<std::string> out;
  if (!views::annexb_units(stream, units, error)) return out;
  std::string pending;  // non-VCL units waiting for their slice
  bool open = false;    // out.back() has its first slice
  for (const views::NalUnit& u : units) {
    const std::string unit = std::string("\x00\x00\x00\x01", 4) + stream.substr(u.offset, u.size);
    const unsigned type = uint8_t(stream[u.offset]) & 31;
    const bool vcl = type == 1 || type == 5;
    const bool first_slice = vcl && u.size > 1 && (uint8_t(stream[u.offset + 1]) & 0x80);
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

int run_make_demo_video(const std::vector<std::string>& raw_args) {
  Arguments args(raw_args, {"--stream", "--fps"});
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1 || !args.has("--stream")) return fail("usage: logscope make-demo-video OUT --stream FILE.h264 [--fps N]");
  uint64_t fps = 10;
  if (args.has("--fps") && (!parse_u64(args.value("--fps"), &fps) || fps == 0 || fps > 1000)) return fail("--fps needs a whole number from 1 to 1000");
  std::ifstream in(args.value("--stream"), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return fail(args.value("--stream") + ": cannot read the stream");
  std::string error;
  const std::vector<std::string> frames = access_units(text.str(), error);
  if (frames.empty()) return fail(args.value("--stream") + ": no H.264 access unit" + (error.empty() ? "" : ": " + error));

  mcap::WriterOptions options;
  options.chunk_size = 16 * 1024;
  mcap::Writer writer(options);
  const uint16_t channel = writer.add_channel(writer.add_schema("foxglove_msgs/msg/CompressedVideo", "ros2msg", kDefinition), "/camera/video", "cdr");
  for (size_t i = 0; i < frames.size(); ++i) {
    const uint64_t t = kStart + i * (1000000000ull / fps);
    cdr::CdrWriter w;
    w.put<int32_t>(static_cast<int32_t>(t / 1000000000u));
    w.put<uint32_t>(static_cast<uint32_t>(t % 1000000000u));
    w.string("camera");
    w.sequence_length(static_cast<uint32_t>(frames[i].size()));
    w.octets(frames[i]);
    w.string("h264");
    writer.write_message(channel, static_cast<uint32_t>(i), t, t, w.bytes());
  }
  const std::string bytes = writer.finish();
  const std::string& path = args.positional()[0];
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.good()) return fail(path + ": cannot write");
  std::printf("wrote %s: %zu frames\n", path.c_str(), frames.size());
  return kExitClean;
}

const CommandRegistrar kMakeDemoVideo({"make-demo-video", "write an MCAP of an H.264 stream as foxglove_msgs/msg/CompressedVideo (CDR)",
                                       "usage: logscope make-demo-video OUT --stream FILE.h264 [--fps N]\n\n"
                                       "Splits an H.264 Annex B stream (ffmpeg's -f h264) into access units and writes\n"
                                       "them as /camera/video, one message a frame at N Hz (default 10) from 2026-01-01.",
                                       run_make_demo_video});

}  // namespace
}  // namespace logscope::cli
