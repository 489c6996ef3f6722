// Camera frames of any format (docs/views.md, "Images"): a decoded image message, as any
// MessageSource hands it, to a frame: RGBA pixels (raw encodings and compressedDepth, through
// image_convert.h) or the compressed bytes as stored (JPEG, PNG, WebP), or a named error. The
// types are ROS 1 and ROS 2's sensor_msgs/Image and CompressedImage and Foxglove's RawImage and
// CompressedImage, and CompressedVideo (one encoded frame a message: video_bitstream.h); no format
// is named here.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/message_source.h"
#include "views/image_convert.h"

namespace logscope::views {

enum class ImageType { None, Raw, Compressed, Video };
ImageType image_type(std::string_view type);

struct Frame {
  uint64_t time_ns = 0;
  uint64_t offset = SourceMessage::kNoOffset;  // SourceMessage's: the record's, or its chunk's
  uint64_t in_chunk = 0;
  uint64_t index = 0;  // among the topic's messages of the walked range
  std::string type;
  bool ok = false;
  std::string code, message;  // !ok: a stable "image.area.what" code and a sentence
  std::string warning;        // ok, but the message's metadata disagrees with its data (the data won)
  std::string encoding;       // raw: the encoding; compressed: the format as the message states it
  // Compressed and kept as stored: "jpeg", "png" or "webp", its bytes in `bytes`; "video": one
  // encoded video frame in `bytes` (its codec in `encoding`). Empty: `image` holds the pixels (raw
  // encodings, compressedDepth).
  std::string container;
  std::string bytes;
  bool key = false;          // video: a decoder can start at this frame (from its bitstream)
  std::string codec_string;  // video: WebCodecs' codec string, when the frame carries it (SPS, ...)
  RgbaImage image;
};

// Where the frame is in the file, for a message: "byte 1234", "the chunk at byte 1234, byte 56 of
// its data", or "no byte offset (a database row)".
std::string frame_place(const Frame& frame);

// Fills `frame` (its outcome; times and places are the caller's) from a decoded message of
// `type`. Byte fields must be whole (WalkOptions::whole_bytes): a preview is an error.
void frame_from_message(std::string_view type, const Json& message, Frame& frame);

// Whether stored bytes are whole: a JPEG ends with its EOI marker, a PNG decodes to its end
// (libpng; a wrong CRC over data that reads is a warning in frame.warning). False with the
// frame's code and message set. WebP is taken as it is.
bool check_stored(Frame& frame);

// The frames of `topic` in [options.t0_ns, options.t1_ns], in the source's order, every `every`th
// message (1: all). `visit` returns false to stop. False when cancelled; `stopped`: where and why
// reading stopped early (damage), with the frames before it handed on.
bool walk_frames(MessageSource& source, const std::string& topic, WalkOptions options, uint64_t every,
                 const std::function<bool(Frame&)>& visit, const ProgressFn& progress, std::string* stopped);

}  // namespace logscope::views
