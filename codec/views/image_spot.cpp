// Spot's image service messages to frames (image_frames.h), as protobuf by name decodes them with
// the Spot SDK's schemas: field names, enums by name (a number the schema does not name stays a
// number), proto3 defaults left out. Field facts from the SDK's bosdyn/api/image.proto:
//   GetImageResponse{header 1, image_responses 2}; ImageResponse{shot 1, source 2, status 4};
//   ImageCaptureAndSource{shot 1, source 2}; ImageCapture{image 3, frame_name_image_sensor 5,
//   acquisition_time 30}; ImageSource{name 2, cols 4, rows 5, depth_scale 6};
//   Image{cols 2, rows 3, data 4, format 5, pixel_format 6}.
// A raw image has no row padding and no byte order field: Spot's 16-bit samples are
// little-endian, as the SDK reads them (numpy's uint16 on the robot's own hosts).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "views/image_fields.h"

namespace logscope::views {
namespace {

constexpr double kMillimetres = 1000;  // a depth_scale of 1000 per metre: the values are mm

// An enum field by name or number: `name` when it is that name or `number`, "" when absent (the
// proto3 default, 0).
std::string enum_field(const Json& message, const char* field) {
  const Json* j = message.find(field);
  if (!j || j->is_null()) return "";
  if (j->is_string()) return j->as_string();
  if (j->is_number()) return std::to_string(j->as_int());
  return "?";
}

bool is_enum(const std::string& value, const char* name, int number) { return value == name || value == std::to_string(number); }

const Json* object_field(const Json& message, const char* field) {
  const Json* j = message.find(field);
  return j && j->is_object() ? j : nullptr;
}

std::string name_of(const Json& response, size_t index) {
  const Json* source = object_field(response, "source");
  const Json* name = source ? source->find("name") : nullptr;
  if (name && name->is_string() && !name->as_string().empty()) return name->as_string();
  return "image_responses[" + std::to_string(index) + "]";
}

// The raw pixel formats, as sensor_msgs encodings (image_convert.h reads those).
const char* raw_encoding(const std::string& pixel_format) {
  if (is_enum(pixel_format, "PIXEL_FORMAT_GREYSCALE_U8", 1)) return "mono8";
  if (is_enum(pixel_format, "PIXEL_FORMAT_RGB_U8", 3)) return "rgb8";
  if (is_enum(pixel_format, "PIXEL_FORMAT_RGBA_U8", 4)) return "rgba8";
  if (is_enum(pixel_format, "PIXEL_FORMAT_DEPTH_U16", 5)) return "16UC1";
  if (is_enum(pixel_format, "PIXEL_FORMAT_GREYSCALE_U16", 6)) return "mono16";
  return nullptr;
}

uint32_t bytes_per_pixel(const char* encoding) {
  const std::string e = encoding;
  return e == "mono8" ? 1 : e == "rgb8" ? 3 : e == "rgba8" ? 4 : 2;
}

// A bosdyn.api.Image: `depth_scale` (per metre; 0 when the source gives none) places depth values.
void image_frame(const Json& image, double depth_scale, Frame& frame) {
  uint64_t cols = 0, rows = 0;
  std::string data;
  if (!number_field(image, "cols", true, &cols, frame) || !number_field(image, "rows", true, &rows, frame) ||
      !data_field(image, true, &data, frame))
    return;
  std::string format = enum_field(image, "format");
  const std::string pixel_format = enum_field(image, "pixel_format");
  if (is_enum(format, "FORMAT_UNKNOWN", 0)) format.clear();  // as when proto3 leaves the default out
  const std::string stated = (format.empty() ? "FORMAT_UNKNOWN" : format) + " " + (pixel_format.empty() ? "PIXEL_FORMAT_UNKNOWN" : pixel_format);
  if (is_enum(format, "FORMAT_JPEG", 1) || format.empty()) {
    // FORMAT_UNKNOWN with bytes that are an image: the data wins, and the frame says so.
    frame.encoding = format.empty() ? stated : "jpeg";
    frame.bytes = std::move(data);
    if (format.empty()) {
      if (frame.bytes.empty()) return fail(frame, "image.data.empty", "the image holds no bytes (" + stated + ")");
      if (container_of_bytes(frame.bytes).empty())
        return fail(frame, "image.format.unknown", "the image's format is not stated (" + stated + ") and its bytes are no JPEG, PNG or WebP");
      take_stored(frame);
      if (frame.ok) frame.warning = "the image's format is not stated (" + stated + "); its bytes are a " + container_label(frame.container);
      frame.encoding = stated;
      return;
    }
    take_stored(frame);
    frame.encoding = stated;
    return;
  }
  frame.encoding = stated;
  if (is_enum(format, "FORMAT_RLE", 3))
    return fail(frame, "image.format.unknown", "Spot's run-length encoded images (FORMAT_RLE) are not one logscope reads");
  if (!is_enum(format, "FORMAT_RAW", 2)) return fail(frame, "image.format.unknown", "the image format " + format + " is not one logscope reads");
  const char* encoding = raw_encoding(pixel_format);
  if (!encoding) return fail(frame, "image.encoding.unknown", "the raw image's pixel format " + stated + " is not one logscope reads");
  if (cols > UINT32_MAX / 4 || rows > UINT32_MAX)
    return fail(frame, "image.size.too_large", "the image is " + std::to_string(cols) + " x " + std::to_string(rows) + " pixels: more than logscope converts");
  ImageFields fields;
  fields.width = static_cast<uint32_t>(cols);
  fields.height = static_cast<uint32_t>(rows);
  fields.encoding = encoding;
  fields.step = static_cast<uint32_t>(cols) * bytes_per_pixel(encoding);
  std::string metres;  // depth at another scale than mm: float32 metres, as 32FC1
  if (fields.encoding == "16UC1") {
    if (depth_scale == 0) {
      frame.warning = "the image source gives no depth_scale: the values are taken as millimetres (1000 per metre)";
    } else if (!std::isfinite(depth_scale) || depth_scale < 0) {
      return fail(frame, "image.depth.scale", "the image source's depth_scale is " + std::to_string(depth_scale) + ": no depth can be read");
    } else if (depth_scale != kMillimetres && fields.width && fields.height) {
      const uint64_t count = uint64_t{fields.width} * fields.height;
      if (data.size() >= count * 2) {
        metres.resize(count * 4);
        for (uint64_t i = 0; i < count; ++i) {
          uint16_t raw;
          std::memcpy(&raw, &data[2 * i], 2);  // little-endian, as the host
          const float m = raw ? static_cast<float>(raw / depth_scale) : std::numeric_limits<float>::quiet_NaN();
          std::memcpy(&metres[4 * i], &m, 4);
        }
        fields.encoding = "32FC1";
        fields.step = fields.width * 4;
      }
    }
  }
  fields.data = metres.empty() ? std::string_view(data) : std::string_view(metres);
  ImageResult result = convert_image(fields);
  if (!result.ok) return fail(frame, result.code, result.message);
  frame.ok = true;
  frame.image = std::move(result.image);
}

double depth_scale_of(const Json& holder) {
  const Json* source = object_field(holder, "source");
  const Json* scale = source ? source->find("depth_scale") : nullptr;
  if (!scale || scale->is_null()) return 0;
  if (scale->is_number()) return scale->as_double();
  return std::numeric_limits<double>::quiet_NaN();  // "NaN", "Infinity" as text
}

// An ImageResponse or ImageCaptureAndSource: its shot's image, placed by its source.
void response_frame(const Json& response, Frame& frame) {
  const std::string status = enum_field(response, "status");
  const Json* shot = object_field(response, "shot");
  const Json* image = shot ? object_field(*shot, "image") : nullptr;
  const bool answered_ok = status.empty() || is_enum(status, "STATUS_OK", 1);
  if (!image) {
    if (!answered_ok) return fail(frame, "image.service.status", "the image service answered " + status + ": the response holds no image");
    return fail(frame, "image.message.field", "the response holds no image (shot.image)");
  }
  image_frame(*image, depth_scale_of(response), frame);
  if (!answered_ok) {
    const std::string note = "the image service answered " + status;
    if (frame.ok) frame.warning += (frame.warning.empty() ? "" : "; ") + note;
    else frame.message = note + "; " + frame.message;
  }
}

}  // namespace

bool holds_cameras(std::string_view type) { return type == "bosdyn.api.GetImageResponse"; }

std::vector<std::string> message_cameras(std::string_view type, const Json& message) {
  std::vector<std::string> names;
  if (!holds_cameras(type)) return names;
  const Json* responses = message.find("image_responses");
  if (!responses || !responses->is_array()) return names;
  for (size_t i = 0; i < responses->size(); ++i) {
    const Json& r = (*responses)[i];
    if (!r.is_object()) continue;
    std::string name = name_of(r, i);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

void spot_frame(std::string_view type, const Json& message, Frame& frame, const std::string& camera) {
  if (type == "bosdyn.api.ImageCapture") {
    const Json* image = object_field(message, "image");
    if (!image) return fail(frame, "image.message.field", "the capture holds no image");
    return image_frame(*image, 0, frame);
  }
  if (type != "bosdyn.api.GetImageResponse") return response_frame(message, frame);
  const Json* responses = message.find("image_responses");
  const size_t count = responses && responses->is_array() ? responses->size() : 0;
  for (size_t i = 0; i < count; ++i) {
    const Json& r = (*responses)[i];
    if (r.is_object() && (camera.empty() || name_of(r, i) == camera)) return response_frame(r, frame);
  }
  if (camera.empty()) return fail(frame, "image.camera.none", "the response holds no image (image_responses is empty)");
  fail(frame, "image.camera.missing", "the response holds no image of camera " + camera);
}

}  // namespace logscope::views
