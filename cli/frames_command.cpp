// `logscope frames FILE --topic T -o DIR`: one file per camera frame, named by its time, from any
// format that carries messages (the image view's frames, codec/views/image_frames.h), one frame
// in memory at a time. Raw images and compressedDepth become PNGs (libpng); JPEG and PNG are
// written as stored unless --png converts them (JPEG through libjpeg-turbo, frames_jpeg.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "command.h"
#include "core/export.h"
#include "core/message_source.h"
#include "frames_jpeg.h"
#include "schema_options.h"
#include "view_command.h"
#include "views/image_frames.h"
#include "views/image_png.h"

namespace logscope::cli {
namespace {

std::string seconds_text(uint64_t ns) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return buffer;
}

struct Skipped {
  views::Frame frame;  // its time, place, code and message (no pixels kept)
};

Json frame_json(const views::Frame& f) {
  Json j = Json::object();
  j["index"] = f.index;
  j["time_ns"] = std::to_string(f.time_ns);
  j["offset"] = f.offset == SourceMessage::kNoOffset ? Json() : Json(f.offset);
  j["in_chunk"] = f.in_chunk;
  j["place"] = views::frame_place(f);
  j["code"] = f.code;
  j["message"] = f.message;
  return j;
}

// The frame's file: its bytes and extension, or false with the frame's code and message set.
bool frame_file(views::Frame& f, bool to_png, std::string* bytes, std::string* extension) {
  if (f.container.empty()) {  // pixels
    *bytes = views::encode_png_rgba(f.image.rgba.data(), f.image.width, f.image.height);
    *extension = "png";
    if (bytes->empty()) f.ok = false, f.code = "image.png.write", f.message = "libpng could not write the frame";
    return f.ok;
  }
  if (!views::check_stored(f)) return false;
  std::string code, message;
  views::RgbaImage image;
  bool whole = true;
  if (f.container == "jpeg") whole = decode_jpeg_rgba(f.bytes, image, &code, &message);
  else if (f.container == "png" && to_png) whole = views::decode_png_rgba(f.bytes, image, code, message);
  if (!whole) {
    f.ok = false, f.code = code, f.message = message;
    return false;
  }
  if (!to_png || f.container == "png") {  // as stored (a PNG is one already)
    *bytes = std::move(f.bytes);
    *extension = f.container == "jpeg" ? "jpg" : f.container;
    return true;
  }
  if (f.container == "webp") {
    f.ok = false, f.code = "image.webp.no_decoder";
    f.message = "--png cannot convert WebP (logscope has no WebP decoder); without --png it is written as stored";
    return false;
  }
  *bytes = views::encode_png_rgba(image.rgba.data(), image.width, image.height);
  *extension = "png";
  if (bytes->empty()) f.ok = false, f.code = "image.png.write", f.message = "libpng could not write the frame";
  return f.ok;
}

// A CompressedVideo topic's frames written as its elementary stream, one file (--raw): H.264 and
// H.265 as Annex B (.h264, .h265), AV1 as its OBUs (.obu), VP9 in an IVF file (.ivf), each
// playable by ffmpeg. Frames before the first keyframe are left out (a decoder cannot start there).
struct VideoStream {
  std::ofstream out;
  std::string name;
  bool started = false;
  uint64_t frames = 0, first_ns = 0;
  std::string codec;
  void put_le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.put(static_cast<char>(v >> (8 * i) & 0xff));
  }
  // False with the frame's code set when it is not written; `error` when the file cannot be.
  bool add(const std::string& dir, views::Frame& f, std::string& error) {
    if (!started && !f.key) {
      f.ok = false, f.code = "image.video.before_keyframe";
      f.message = "before the topic's first keyframe: a decoder cannot start here, so --raw leaves it out";
      return false;
    }
    if (!started) {
      started = true;
      codec = f.encoding;
      first_ns = f.time_ns;
      name = seconds_text(f.time_ns) + "." + (codec == "vp9" ? "ivf" : codec == "av1" ? "obu" : codec);
      out.open(dir + "/" + name, std::ios::binary);
      if (codec == "vp9") {  // IVF: a 32-byte header (the size and frame count are not known here: 0)
        out.write("DKIF", 4);
        put_le(0, 2), put_le(32, 2);
        out.write("VP90", 4);
        put_le(0, 2), put_le(0, 2), put_le(1000000000, 4), put_le(1, 4), put_le(0, 4), put_le(0, 4);
      }
    }
    if (f.encoding != codec) {
      f.ok = false, f.code = "image.video.codec_changed";
      f.message = "the frame is " + f.encoding + " but the stream began as " + codec + ": left out";
      return false;
    }
    if (codec == "vp9") put_le(f.bytes.size(), 4), put_le(f.time_ns - first_ns, 8);
    out.write(f.bytes.data(), static_cast<std::streamsize>(f.bytes.size()));
    if (!out.good()) error = dir + "/" + name + ": cannot write";
    ++frames;
    return true;
  }
};

int run_frames_command(const std::vector<std::string>& raw) {
  Arguments args(raw, view_flags({"--topic", "--from", "--to", "--every", "-o"}));
  if (!args.ok()) return fail(args.error());
  if (args.positional().size() != 1) return fail("frames takes one FILE (see `logscope frames --help`)");
  if (!args.has("--topic") || args.value("--topic").empty()) return fail("frames needs --topic T (an image topic; `logscope frames --help`)");
  if (!args.has("-o") || args.value("-o").empty()) return fail("frames needs -o DIR, the folder the frames are written to");
  uint64_t every = 1;
  if (args.has("--every") && (!parse_u64(args.value("--every"), &every) || every == 0))
    return fail("--every needs a whole number of at least 1, got \"" + args.value("--every") + "\"");
  const std::string topic = args.value("--topic"), dir = args.value("-o");
  const bool to_png = args.has("--png"), json = args.has("--json"), raw_video = args.has("--raw");

  int exit = 0;
  auto file = open_view_file(args, "frames", "camera frames", &exit);
  if (!file) return exit;
  MessageSource* source = &view_source(*file);

  const std::vector<SourceTopic> topics = source->topics();
  std::string image_topics;
  for (const SourceTopic& t : topics) {
    if (views::image_type(t.type) == views::ImageType::None) {
      if (t.topic == topic)
        return fail(file->path + ": " + topic + " is " + t.type + ", not an image type (sensor_msgs/Image, sensor_msgs/CompressedImage, foxglove.RawImage, foxglove.CompressedImage, foxglove.CompressedVideo, bosdyn.api.GetImageResponse, ImageResponse, ImageCaptureAndSource, ImageCapture)");
      continue;
    }
    image_topics += (image_topics.empty() ? "" : ", ") + t.topic + " (" + t.type + (views::holds_cameras(t.type) ? ", one camera as " + t.topic + "#CAMERA" : "") + ")";
  }
  const views::ImageTopic found = views::find_image_topic(topics, topic);
  if (!found.source) return fail(file->path + ": no image topic " + topic + (image_topics.empty() ? "; the file has no image topics" : "; its image topics: " + image_topics));
  const std::string type = found.source->type;
  if (!found.source->note.empty()) return fail(file->path + ": " + found.source->topic + " (" + type + "): " + found.source->note);

  WalkOptions range;
  for (const char* flag : {"--from", "--to"}) {
    uint64_t ns = 0;
    std::string error;
    if (!args.has(flag)) continue;
    if (!view_time(args, flag, *file, &ns, &error)) return fail(error);
    (std::string(flag) == "--from" ? range.t0_ns : range.t1_ns) = ns;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) return fail(dir + ": cannot make the folder" + (ec ? " (" + ec.message() + ")" : ""));

  uint64_t written = 0;
  std::vector<views::Frame> skipped;  // without their pixels or bytes
  std::vector<std::string> warnings;
  std::set<std::string> names;
  std::string write_error, stopped;
  ProgressFn progress = terminal_progress("writing frames");
  VideoStream stream;
  if (views::image_type(type) == views::ImageType::Video && every > 1) return fail("--every cannot thin a video topic: its frames depend on the ones before");
  bool walked = views::walk_frames(*source, topic, range, every, [&](views::Frame& f) {
    std::string bytes, extension;
    if (f.ok && f.container == "video") {
      if (raw_video && stream.add(dir, f, write_error)) return write_error.empty();
      if (!raw_video) {
        f.ok = false, f.code = "image.video.no_decoder";
        f.message = "a " + f.encoding + " video frame: logscope has no video decoder, so it writes no PNG of it; --raw writes the topic's stream as stored";
      }
    } else if (f.ok && frame_file(f, to_png, &bytes, &extension)) {
      std::string stem = seconds_text(f.time_ns), name = stem + "." + extension;
      for (int k = 2; !names.insert(name).second; ++k) name = stem + "-" + std::to_string(k) + "." + extension;  // frames at one time
      std::ofstream out(dir + "/" + name, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out.good()) {
        write_error = dir + "/" + name + ": cannot write";
        return false;
      }
      ++written;
      if (!f.warning.empty()) {
        std::fprintf(stderr, "logscope: frame at %s s (%s): %s\n", seconds_text(f.time_ns).c_str(), views::frame_place(f).c_str(), f.warning.c_str());
        warnings.push_back(name + ": " + f.warning);
      }
      return true;
    }
    std::fprintf(stderr, "logscope: frame at %s s (%s): %s: %s\n", seconds_text(f.time_ns).c_str(), views::frame_place(f).c_str(), f.code.c_str(),
                 f.message.c_str());
    f.bytes.clear();
    f.image = views::RgbaImage();
    skipped.push_back(std::move(f));
    return true;
  }, progress, &stopped);
  if (std::string why = remote_failure(*file); !why.empty()) return fail(why);
  if (!write_error.empty()) return fail(write_error);
  if (!walked) return fail(file->path + ": cancelled");
  if (!stopped.empty()) std::fprintf(stderr, "logscope: reading stopped: %s\n", stopped.c_str());
  if (json) {
    Json out = Json::object();
    out["topic"] = topic;
    out["type"] = type;
    out["folder"] = dir;
    out["written"] = written;
    if (stream.started) {
      out["stream"] = stream.name;
      out["stream_frames"] = stream.frames;
    }
    out["skipped"] = skipped.size();
    Json list = Json::array();
    for (const views::Frame& f : skipped) list.push_back(frame_json(f));
    out["problems"] = std::move(list);
    Json warned = Json::array();
    for (const std::string& w : warnings) warned.push_back(w);
    out["warnings"] = std::move(warned);
    out["stopped"] = stopped.empty() ? Json() : Json(stopped);
    std::printf("%s\n", out.dump().c_str());
  } else {
    if (stream.started)
      std::fprintf(stderr, "%llu video frames of %s written as one %s stream, %s/%s\n", static_cast<unsigned long long>(stream.frames), topic.c_str(),
                   stream.codec.c_str(), dir.c_str(), stream.name.c_str());
    else std::fprintf(stderr, "%llu frames of %s written to %s%s\n", static_cast<unsigned long long>(written), topic.c_str(), dir.c_str(),
                 skipped.empty() ? "" : (", " + std::to_string(skipped.size()) + " skipped (named above)").c_str());
  }
  return skipped.empty() && stopped.empty() ? kExitClean : kExitProblems;
}

const CommandRegistrar kFrames({"frames", "camera frames of an image topic, one file each, named by time",
                                "usage: logscope frames FILE --topic T -o DIR [--from S --to S] [--every N] [--png] [--raw] [--json]\n"
                                "                       [--msg-path DIR | --definitions-from FILE] [--descriptors FILE | --proto-path DIR]\n\n"
                                "Writes each frame of T (sensor_msgs/Image or CompressedImage, ROS 1 or ROS 2;\n"
                                "foxglove.RawImage or CompressedImage; Spot's bosdyn.api image responses, given their\n"
                                "schemas, where T#CAMERA picks one camera of a GetImageResponse topic) to DIR as\n"
                                "<seconds>.<nanoseconds>.<ext>, the\n"
                                "message's time in the file (frames at one time get -2, -3...). Raw images (every\n"
                                "encoding of docs/views.md, depth through a colour map) and compressedDepth become PNG;\n"
                                "JPEG and PNG are written as stored (.jpg, .png), WebP too (.webp).\n"
                                "  --from/--to seconds: +12.5 after the start, or absolute like 1700000000.25\n"
                                "  --every N   every Nth message of the range (the first, the N+1th...)\n"
                                "  --png       JPEG and PNG frames converted to PNG too (WebP cannot be)\n"
                                "  --raw       a foxglove.CompressedVideo topic: its frames from the first keyframe as one\n"
                                "              stream file, as stored (.h264 and .h265 Annex B, .obu for AV1, .ivf for VP9),\n"
                                "              for ffmpeg to play or convert. Without it, video frames are named as not\n"
                                "              written: logscope has no video decoder, so it writes no PNG of them.\n"
                                "  --json      a summary on stdout: frames written, frames skipped and why\n" +
                                    definition_flags_help() + schema_flags_help() +
                                    "A frame that cannot be written (unknown encoding, short data, a lying step, a cut\n"
                                    "JPEG...) is named on stderr with its time and byte offset; the others are written.\n"
                                    "Exit status: 0 every frame written, 1 some skipped, 2 unreadable file or bad arguments.",
                                run_frames_command});

}  // namespace
}  // namespace logscope::cli
