// Camera frames of any format (docs/views.md, "Images"): a decoded image message, as any
// MessageSource hands it, to a frame: RGBA pixels (raw encodings and compressedDepth, through
// image_convert.h) or the compressed bytes as stored (JPEG, PNG, WebP), or a named error. The
// types are ROS 1 and ROS 2's sensor_msgs/Image and CompressedImage and Foxglove's RawImage and
// CompressedImage, and CompressedVideo (one encoded frame a message: video_bitstream.h), and Spot's
// image service messages (bosdyn.api, image_spot.cpp); no format is named here.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/message_source.h"
#include "views/image_convert.h"

namespace logscope::views {

// Spot: bosdyn.api.GetImageResponse, ImageResponse, ImageCaptureAndSource and ImageCapture, as
// protobuf by name gives them (the user's schemas).
enum class ImageType { None, Raw, Compressed, Video, Spot };
ImageType image_type(std::string_view type);

// A type whose messages hold one image per camera (Spot's GetImageResponse): the view shows each
// camera as an image topic of its own, named camera_topic(topic, camera).
bool holds_cameras(std::string_view type);
std::string camera_topic(const std::string& topic, const std::string& camera);
// The cameras a message of such a type holds, in its order (each named once); empty for others.
std::vector<std::string> message_cameras(std::string_view type, const Json& message);

// The view's image topic `name` among a source's topics: a source topic itself, or one camera of
// a topic whose type holds cameras ("<topic>#<camera>"). `source` null when there is none.
struct ImageTopic {
  const SourceTopic* source = nullptr;
  std::string camera;  // "": the topic's own frames (or, for a type with cameras, each message's first)
};
ImageTopic find_image_topic(const std::vector<SourceTopic>& topics, const std::string& name);

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
// `type`. Byte fields must be whole (WalkOptions::whole_bytes): a preview is an error. `camera`
// picks one image of a type that holds cameras ("": the first).
void frame_from_message(std::string_view type, const Json& message, Frame& frame, const std::string& camera = "");
// Spot's image messages (image_spot.cpp).
void spot_frame(std::string_view type, const Json& message, Frame& frame, const std::string& camera);

// Whether stored bytes are whole: a JPEG ends with its EOI marker, a PNG decodes to its end
// (libpng; a wrong CRC over data that reads is a warning in frame.warning). False with the
// frame's code and message set. WebP is taken as it is.
bool check_stored(Frame& frame);

// The frames of image topic `topic` (find_image_topic: a source topic, or one camera of it) in
// [options.t0_ns, options.t1_ns], in the source's order, every `every`th frame (1: all): for one
// camera, the messages that hold it. `visit` returns false to stop. False when cancelled; `stopped`: where and why
// reading stopped early (damage), with the frames before it handed on.
bool walk_frames(MessageSource& source, const std::string& topic, WalkOptions options, uint64_t every,
                 const std::function<bool(Frame&)>& visit, const ProgressFn& progress, std::string* stopped);

}  // namespace logscope::views
