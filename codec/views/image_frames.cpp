// Image messages to frames (image_frames.h). Fields come as the formats' decoders give them:
// numbers, or decimal text (protobuf's 64-bit); byte arrays as {"length", "raw"} (ROS 1 and CDR)
// or as hex text (protobuf bytes). Protobuf leaves proto3 defaults out, so Foxglove's types take
// a missing field as its default; ROS types need every field.
#include "views/image_frames.h"

#include <algorithm>
#include <cctype>

#include "views/image_fields.h"
#include "views/image_png.h"
#include "views/video_bitstream.h"
#include "views/view_support.h"

namespace logscope::views {
namespace {

bool foxglove_type(std::string_view type) { return type.rfind("foxglove", 0) == 0; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void fail(Frame& frame, std::string code, std::string message) {
  frame.ok = false;
  frame.code = std::move(code);
  frame.message = std::move(message);
}

bool number_field(const Json& message, const char* name, bool defaults, uint64_t* out, Frame& frame) {
  const Json* j = message.find(name);
  if (!j || j->is_null()) {
    if (defaults) return *out = 0, true;
    fail(frame, "image.message.field", std::string("the message has no field \"") + name + "\"");
    return false;
  }
  if (j->is_number() && j->as_double() >= 0) return *out = j->as_uint(), true;
  if (j->is_boolean()) return *out = j->as_bool() ? 1 : 0, true;
  if (j->is_string()) {
    const std::string& text = j->as_string();
    if (!text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string::npos) return *out = std::stoull(text), true;
  }
  fail(frame, "image.message.field", std::string("field \"") + name + "\" is not a number");
  return false;
}

bool text_field(const Json& message, const char* name, bool defaults, std::string* out, Frame& frame) {
  const Json* j = message.find(name);
  if (!j || j->is_null()) {
    if (defaults) return out->clear(), true;
    fail(frame, "image.message.field", std::string("the message has no field \"") + name + "\"");
    return false;
  }
  if (!j->is_string()) {
    fail(frame, "image.message.field", std::string("field \"") + name + "\" is not text");
    return false;
  }
  *out = j->as_string();
  return true;
}

bool data_field(const Json& message, bool defaults, std::string* out, Frame& frame) {
  const Json* j = message.find("data");
  if ((!j || j->is_null()) && defaults) return out->clear(), true;
  switch (whole_bytes_of(j, out)) {
    case WholeBytes::Ok: return true;
    case WholeBytes::Missing: fail(frame, "image.message.field", "the message has no field \"data\""); return false;
    case WholeBytes::Preview: fail(frame, "image.data.preview", "the message's data came as a preview, not whole: no frame can be made of it"); return false;
    case WholeBytes::NotHex: fail(frame, "image.data.preview", "the message's data is not hex text"); return false;
  }
  return false;
}

std::string container_of_bytes(std::string_view b) {
  if (b.size() >= 3 && b.compare(0, 3, "\xff\xd8\xff") == 0) return "jpeg";
  if (b.size() >= 8 && b.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) return "png";
  if (b.size() >= 12 && b.compare(0, 4, "RIFF") == 0 && b.compare(8, 4, "WEBP") == 0) return "webp";
  return "";
}

std::string container_of_format(std::string_view format) {
  std::string f = lower(format);
  if (f.find("jpeg") != std::string::npos || f.find("jpg") != std::string::npos) return "jpeg";
  if (f.find("png") != std::string::npos) return "png";
  if (f.find("webp") != std::string::npos) return "webp";
  return "";
}

const char* container_label(const std::string& c) { return c == "jpeg" ? "JPEG" : c == "png" ? "PNG" : "WebP"; }

void take_stored(Frame& frame) {
  if (frame.bytes.empty()) return fail(frame, "image.data.empty", "the compressed image holds no bytes");
  const std::string by_bytes = container_of_bytes(frame.bytes), by_format = container_of_format(frame.encoding);
  if (by_bytes.empty()) {
    frame.bytes.clear();
    if (by_format.empty()) return fail(frame, "image.format.unknown", "the compressed format \"" + frame.encoding + "\" is not one logscope reads");
    return fail(frame, "image.compressed.damaged", std::string("the data does not start as a ") + container_label(by_format) +
                                                      " does (format \"" + frame.encoding + "\")");
  }
  // Metadata that disagrees with the data is a warning; the data wins.
  if (!by_format.empty() && by_format != by_bytes)
    frame.warning = "the format says \"" + frame.encoding + "\" but the data is a " + container_label(by_bytes) + "; it is taken as one";
  frame.ok = true;
  frame.container = by_bytes;
}

namespace {

void raw_frame(std::string_view type, const Json& message, Frame& frame) {
  const bool defaults = foxglove_type(type);
  uint64_t width = 0, height = 0, step = 0, big = 0;
  std::string data;
  if (!number_field(message, "width", defaults, &width, frame) || !number_field(message, "height", defaults, &height, frame) ||
      !text_field(message, "encoding", defaults, &frame.encoding, frame) || !number_field(message, "step", defaults, &step, frame) ||
      !data_field(message, defaults, &data, frame))
    return;
  // Foxglove's RawImage has no byte order field: its 16- and 32-bit samples are little-endian.
  if (!foxglove_type(type) && !number_field(message, "is_bigendian", false, &big, frame)) return;
  if (width > UINT32_MAX || height > UINT32_MAX || step > UINT32_MAX)
    return fail(frame, "image.size.too_large", "the image is " + std::to_string(width) + " x " + std::to_string(height) +
                                                   " pixels with a step of " + std::to_string(step) + " bytes: more than logscope converts");
  ImageFields fields;
  fields.width = static_cast<uint32_t>(width);
  fields.height = static_cast<uint32_t>(height);
  fields.encoding = frame.encoding;
  fields.is_bigendian = big != 0;
  fields.step = static_cast<uint32_t>(step);
  fields.data = data;
  ImageResult result = convert_image(fields);
  if (!result.ok) return fail(frame, result.code, result.message);
  frame.ok = true;
  frame.image = std::move(result.image);
}

void compressed_frame(std::string_view type, const Json& message, Frame& frame) {
  const bool defaults = foxglove_type(type);
  if (!text_field(message, "format", defaults, &frame.encoding, frame) || !data_field(message, defaults, &frame.bytes, frame)) return;
  if (is_compressed_depth(frame.encoding)) {
    ImageResult result = convert_compressed_depth(frame.encoding, frame.bytes);
    frame.bytes.clear();
    if (!result.ok) return fail(frame, result.code, result.message);
    frame.ok = true;
    frame.image = std::move(result.image);
    return;
  }
  take_stored(frame);
}

// foxglove.CompressedVideo: `format` names the codec, `data` is one frame's bitstream.
void video_frame(const Json& message, Frame& frame) {
  if (!text_field(message, "format", true, &frame.encoding, frame) || !data_field(message, true, &frame.bytes, frame)) return;
  const VideoCodec codec = video_codec(frame.encoding);
  if (codec == VideoCodec::Unknown) {
    frame.bytes.clear();
    return fail(frame, "image.video.codec", "the video format \"" + frame.encoding + "\" is not one logscope reads (h264, h265, vp9, av1)");
  }
  const VideoFrameInfo info = inspect_video_frame(codec, frame.bytes);
  if (!info.ok) {
    frame.bytes.clear();
    return fail(frame, info.code, info.message);
  }
  frame.encoding = video_codec_name(codec);
  frame.ok = true;
  frame.container = "video";
  frame.key = info.key;
  frame.codec_string = info.codec_string;
}

}  // namespace

ImageType image_type(std::string_view type) {
  if (type == "sensor_msgs/Image" || type == "sensor_msgs/msg/Image" || type == "foxglove.RawImage" ||
      type == "foxglove_msgs/msg/RawImage" || type == "foxglove_msgs/RawImage")
    return ImageType::Raw;
  if (type == "sensor_msgs/CompressedImage" || type == "sensor_msgs/msg/CompressedImage" || type == "foxglove.CompressedImage" ||
      type == "foxglove_msgs/msg/CompressedImage" || type == "foxglove_msgs/CompressedImage")
    return ImageType::Compressed;
  if (type == "foxglove.CompressedVideo" || type == "foxglove_msgs/msg/CompressedVideo" || type == "foxglove_msgs/CompressedVideo")
    return ImageType::Video;
  if (type == "bosdyn.api.GetImageResponse" || type == "bosdyn.api.ImageResponse" || type == "bosdyn.api.ImageCaptureAndSource" ||
      type == "bosdyn.api.ImageCapture")
    return ImageType::Spot;
  return ImageType::None;
}

std::string camera_topic(const std::string& topic, const std::string& camera) { return topic + "#" + camera; }

ImageTopic find_image_topic(const std::vector<SourceTopic>& topics, const std::string& name) {
  ImageTopic found;
  for (const SourceTopic& t : topics)
    if (t.topic == name && image_type(t.type) != ImageType::None) return found.source = &t, found;
  for (const SourceTopic& t : topics)
    if (holds_cameras(t.type) && name.size() > t.topic.size() + 1 && name.compare(0, t.topic.size(), t.topic) == 0 && name[t.topic.size()] == '#') {
      found.source = &t;
      found.camera = name.substr(t.topic.size() + 1);
      return found;
    }
  return found;
}

std::string frame_place(const Frame& frame) {
  if (frame.offset == SourceMessage::kNoOffset) return "no byte offset (a database row)";
  if (frame.in_chunk) return "the chunk at byte " + std::to_string(frame.offset) + ", byte " + std::to_string(frame.in_chunk) + " of its data";
  return "byte " + std::to_string(frame.offset);
}

void frame_from_message(std::string_view type, const Json& message, Frame& frame, const std::string& camera) {
  frame.ok = false;
  frame.container.clear();
  frame.bytes.clear();
  frame.key = false;
  frame.codec_string.clear();
  frame.image = RgbaImage();
  if (!message.is_object()) return fail(frame, "image.message.field", "the message is not a structure");
  switch (image_type(type)) {
    case ImageType::Raw: return raw_frame(type, message, frame);
    case ImageType::Compressed: return compressed_frame(type, message, frame);
    case ImageType::Video: return video_frame(message, frame);
    case ImageType::Spot: return spot_frame(type, message, frame, camera);
    case ImageType::None: return fail(frame, "image.type.unknown", "\"" + std::string(type) + "\" is not an image type");
  }
}

bool check_stored(Frame& frame) {
  if (frame.container == "jpeg") {
    // The EOI marker ends the image; encoders may pad after it with zeros.
    std::string_view b = frame.bytes;
    while (!b.empty() && b.back() == '\0') b.remove_suffix(1);
    if (b.size() >= 4 && b.compare(b.size() - 2, 2, "\xff\xd9") == 0) return true;
    fail(frame, "image.jpeg.cut", "the JPEG has no end marker (FF D9) after its " + std::to_string(frame.bytes.size()) + " bytes: it is cut or damaged");
    return false;
  }
  if (frame.container == "png") {
    RgbaImage image;
    std::string code, message, warning;
    if (!decode_png_rgba(frame.bytes, image, code, message, &warning)) {
      fail(frame, code, message);
      return false;
    }
    if (!warning.empty()) frame.warning += (frame.warning.empty() ? "" : "; ") + warning;
  }
  return true;
}

bool walk_frames(MessageSource& source, const std::string& topic, WalkOptions options, uint64_t every,
                 const std::function<bool(Frame&)>& visit, const ProgressFn& progress, std::string* stopped) {
  options.whole_bytes = true;
  const std::vector<SourceTopic> topics = source.topics();
  const ImageTopic found = find_image_topic(topics, topic);
  const std::string walked = found.source ? found.source->topic : topic;
  const bool cameras = found.source && holds_cameras(found.source->type);
  uint64_t index = 0;
  Frame frame;
  return source.walk_with({walked}, options, [&](const SourceMessage& m) {
    if (m.topic != walked) return true;
    if (cameras && !found.camera.empty()) {  // one camera: only the messages that hold it
      if (!m.message) return true;
      const std::vector<std::string> names = message_cameras(m.type, *m.message);
      if (std::find(names.begin(), names.end(), found.camera) == names.end()) return true;
    }
    const uint64_t i = index++;
    if (every > 1 && i % every) return true;
    frame = Frame();
    frame.time_ns = m.time_ns;
    frame.offset = m.offset;
    frame.in_chunk = m.in_chunk;
    frame.index = i;
    frame.type = m.type;
    if (m.message) frame_from_message(m.type, *m.message, frame, found.camera);
    else fail(frame, "image.message.undecoded", m.error.empty() ? "the message could not be decoded" : m.error);
    return visit(frame);
  }, progress, stopped);
}

}  // namespace logscope::views
