// libFuzzer harness: camera image conversions (views/image_convert.h).
// Input layout: byte 0 picks the message. Below 0x80 it is a raw image: encoding index (byte 0
// modulo the list), width and height (little-endian uint16 each), step (uint16), a flags byte
// (bit 0: is_bigendian), then the data. From 0x80 it is a compressedDepth image: format index
// (byte 0 & 3), then the message data (the 12-byte header, then PNG or RVL). From 0xc0 it is a
// compressed image message (views/image_frames.h) whose data is the rest: format "png" or
// "jpeg" (bit 0), checked as `logscope frames` checks what it writes as stored (libpng). From
// 0xe0 it is a CompressedVideo frame (views/video_bitstream.h) of codec h264, h265, vp9 or av1
// (byte 0 & 3): the NAL (or OBU, or VP9 header) scanning, keyframe and codec string. From 0xd0
// to 0xdf it is Spot's GetImageResponse as protobuf by name gives it (views/image_spot.cpp): cols
// and rows (uint16 each), format, pixel format and depth scale picked by the next three bytes,
// then the image data, as one camera's response.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/report.h"
#include "views/image_convert.h"
#include "views/image_frames.h"
#include "views/video_bitstream.h"

namespace {

uint16_t le16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

// A result either is an image of its own size or names what is wrong; nothing else.
void check(const logscope::views::ImageResult& r) {
  if (!r.ok) {
    if (r.code.empty() || r.message.empty()) __builtin_trap();
    return;
  }
  const uint64_t pixels = uint64_t(r.image.width) * r.image.height;
  if (!pixels || pixels > logscope::views::kMaxImagePixels || r.image.rgba.size() != pixels * 4) __builtin_trap();
  if (r.image.depth) {
    const auto& d = *r.image.depth;
    if (d.values.size() != pixels || d.low > d.high) __builtin_trap();
    for (float v : d.values)
      if (!std::isnan(v) && (v < d.low || v > d.high)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace logscope::views;
  using logscope::Json;
  if (size < 1) return 0;
  if (data[0] >= 0xe0) {
    static const char* const kCodecs[] = {"h264", "h265", "vp9", "av1"};
    const std::string_view stream(reinterpret_cast<const char*>(data + 1), size - 1);
    Json message = Json::object();
    Json bytes = Json::object();
    bytes["length"] = size - 1;
    bytes["hex"] = logscope::hex_string(data + 1, size - 1);
    message["format"] = kCodecs[data[0] & 3];
    message["data"] = std::move(bytes);
    Frame frame;
    frame_from_message("foxglove.CompressedVideo", message, frame);
    if (frame.ok && (frame.container != "video" || frame.bytes != stream)) __builtin_trap();
    if (!frame.ok && (frame.code.empty() || frame.message.empty() || frame.key)) __builtin_trap();
    std::vector<NalUnit> units;
    std::string error;
    if (annexb_units(stream, units, error)) {
      uint64_t end = 0;
      for (const NalUnit& u : units)
        if (!u.size || u.offset < end + 3 || u.offset + u.size > stream.size()) __builtin_trap();
        else end = u.offset + u.size;
    } else if (error.empty()) {
      __builtin_trap();
    }
    return 0;
  }
  if (data[0] >= 0xd0 && size >= 8) {
    static const char* const kFormats[] = {"FORMAT_UNKNOWN", "FORMAT_JPEG", "FORMAT_RAW", "FORMAT_RLE"};
    static const double kScales[] = {0, 1000, 4000, -1, NAN, 0.5};
    Json image = Json::object();
    image["cols"] = static_cast<uint64_t>(le16(data + 1));
    image["rows"] = static_cast<uint64_t>(le16(data + 3));
    image["format"] = kFormats[data[5] & 3];
    image["pixel_format"] = static_cast<int64_t>(data[6] % 8);  // a number, as an enum value the schema may not name
    image["data"] = logscope::hex_string(data + 8, size - 8);
    Json shot = Json::object();
    shot["image"] = std::move(image);
    Json source = Json::object();
    source["name"] = "a";
    const double scale = kScales[data[7] % 6];
    if (scale != 0) source["depth_scale"] = scale;
    Json response = Json::object();
    response["shot"] = std::move(shot);
    response["source"] = std::move(source);
    Json message = Json::object();
    message["image_responses"] = Json::array();
    message["image_responses"].push_back(std::move(response));
    Frame frame;
    frame_from_message("bosdyn.api.GetImageResponse", message, frame, data[0] & 1 ? "a" : "");
    if (frame.ok && frame.container.empty()) check(ImageResult{true, "", "", frame.image});
    if (frame.ok && !frame.container.empty() && !check_stored(frame) && (frame.code.empty() || frame.message.empty())) __builtin_trap();
    if (!frame.ok && (frame.code.empty() || frame.message.empty())) __builtin_trap();
    return 0;
  }
  if (data[0] >= 0xc0) {
    Json message = Json::object();
    Json bytes = Json::object();
    bytes["length"] = size - 1;
    bytes["hex"] = logscope::hex_string(data + 1, size - 1);
    message["format"] = data[0] & 1 ? "jpeg" : "png";
    message["data"] = std::move(bytes);
    Frame frame;
    frame_from_message("sensor_msgs/CompressedImage", message, frame);
    if (frame.ok && frame.container.empty()) __builtin_trap();  // compressed images are never pixels here
    if (frame.ok && !check_stored(frame) && (frame.code.empty() || frame.message.empty())) __builtin_trap();
    if (!frame.ok && (frame.code.empty() || frame.message.empty())) __builtin_trap();
    return 0;
  }
  if (data[0] >= 0x80) {
    static const char* const kFormats[] = {"16UC1; compressedDepth png", "16UC1; compressedDepth rvl",
                                           "32FC1; compressedDepth rvl", "32FC1; compressedDepth"};
    std::string_view message(reinterpret_cast<const char*>(data + 1), size - 1);
    check(convert_compressed_depth(kFormats[data[0] & 3], message));
    return 0;
  }
  if (size < 8) return 0;
  const auto& encodings = raw_image_encodings();
  ImageFields fields;
  fields.encoding = encodings[data[0] % encodings.size()];
  fields.width = le16(data + 1);
  fields.height = le16(data + 3);
  fields.step = le16(data + 5);
  fields.is_bigendian = data[7] & 1;
  fields.data = std::string_view(reinterpret_cast<const char*>(data + 8), size - 8);
  check(convert_image(fields));
  return 0;
}
