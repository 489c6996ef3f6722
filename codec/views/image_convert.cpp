// Raw image encodings to RGBA (image_convert.h). Every length is checked against the data before a
// byte is read; the output is at most 4 bytes per input pixel, so a lying width or height cannot
// allocate beyond what the data holds.
#include "views/image_convert.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "views/image_pixels.h"

namespace logscope::views {
namespace {

enum class Kind { Packed8, Grey16, Depth16, Depth32F, Bayer8, Bayer16, Uyvy, Yuy2 };

struct Encoding {
  const char* name;
  Kind kind;
  unsigned bytes_per_pixel;
  int source[4];        // Packed8: the byte of R, G, B and A in a pixel (-1: opaque)
  const char* pattern;  // Bayer: the top-left 2x2 block
};

// 8UC3 carries no channel order; OpenCV (and so cv_bridge and rqt_image_view) holds it as BGR.
const Encoding kEncodings[] = {
    {"rgb8", Kind::Packed8, 3, {0, 1, 2, -1}, nullptr},
    {"rgba8", Kind::Packed8, 4, {0, 1, 2, 3}, nullptr},
    {"bgr8", Kind::Packed8, 3, {2, 1, 0, -1}, nullptr},
    {"bgra8", Kind::Packed8, 4, {2, 1, 0, 3}, nullptr},
    {"8UC3", Kind::Packed8, 3, {2, 1, 0, -1}, nullptr},
    {"mono8", Kind::Packed8, 1, {0, 0, 0, -1}, nullptr},
    {"8UC1", Kind::Packed8, 1, {0, 0, 0, -1}, nullptr},
    {"mono16", Kind::Grey16, 2, {}, nullptr},
    {"16UC1", Kind::Depth16, 2, {}, nullptr},
    {"32FC1", Kind::Depth32F, 4, {}, nullptr},
    {"bayer_rggb8", Kind::Bayer8, 1, {}, "rggb"},
    {"bayer_bggr8", Kind::Bayer8, 1, {}, "bggr"},
    {"bayer_gbrg8", Kind::Bayer8, 1, {}, "gbrg"},
    {"bayer_grbg8", Kind::Bayer8, 1, {}, "grbg"},
    {"bayer_rggb16", Kind::Bayer16, 2, {}, "rggb"},
    {"bayer_bggr16", Kind::Bayer16, 2, {}, "bggr"},
    {"bayer_gbrg16", Kind::Bayer16, 2, {}, "gbrg"},
    {"bayer_grbg16", Kind::Bayer16, 2, {}, "grbg"},
    // ROS 1 names UYVY "yuv422" and YUYV "yuv422_yuy2"; ROS 2 and Foxglove add "uyvy"/"yuyv".
    {"yuv422", Kind::Uyvy, 2, {}, nullptr},
    {"uyvy", Kind::Uyvy, 2, {}, nullptr},
    {"yuv422_yuy2", Kind::Yuy2, 2, {}, nullptr},
    {"yuyv", Kind::Yuy2, 2, {}, nullptr},
};

const Encoding* find_encoding(const std::string& name) {
  for (const Encoding& e : kEncodings)
    if (name == e.name) return &e;
  return nullptr;
}

ImageResult failure(std::string code, std::string message) {
  ImageResult r;
  r.code = std::move(code);
  r.message = std::move(message);
  return r;
}

// Rows of `fields` as the encoding reads them: row y starts at y * step.
struct Rows {
  const uint8_t* base;
  uint64_t step;
  const uint8_t* row(uint32_t y) const { return base + uint64_t(y) * step; }
};

uint16_t read16(const uint8_t* p, bool big) {
  return big ? uint16_t(p[0] << 8 | p[1]) : uint16_t(p[1] << 8 | p[0]);
}

float read_f32(const uint8_t* p, bool big) {
  uint32_t bits = big ? (uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3])
                      : (uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0]);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

void convert_packed(const Encoding& e, const Rows& rows, RgbaImage& out) {
  uint8_t* dst = out.rgba.data();
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t* src = rows.row(y);
    for (uint32_t x = 0; x < out.width; ++x, src += e.bytes_per_pixel, dst += 4) {
      dst[0] = src[e.source[0]];
      dst[1] = src[e.source[1]];
      dst[2] = src[e.source[2]];
      dst[3] = e.source[3] < 0 ? 255 : src[e.source[3]];
    }
  }
}

// mono16: a contrast stretch in grey over the image's own range (every value is one, 0 too), the
// raw values kept for the value under the pointer. cv_bridge's 1/256 shows a 10- or 12-bit sensor
// near-black.
void convert_grey16(const Rows& rows, bool big, RgbaImage& out) {
  DepthValues raw;
  raw.unit = "raw";
  raw.map = "grey";
  raw.values.resize(uint64_t(out.width) * out.height);
  float* v = raw.values.data();
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t* src = rows.row(y);
    for (uint32_t x = 0; x < out.width; ++x, src += 2) *v++ = float(read16(src, big));
  }
  out.depth = std::move(raw);
  colour_depth(out);
}

void convert_depth(const Encoding& e, const Rows& rows, bool big, RgbaImage& out) {
  DepthValues depth;
  depth.unit = e.kind == Kind::Depth16 ? "mm" : "m";
  depth.values.resize(uint64_t(out.width) * out.height);
  float* v = depth.values.data();
  const float none = std::numeric_limits<float>::quiet_NaN();
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t* src = rows.row(y);
    for (uint32_t x = 0; x < out.width; ++x, src += e.bytes_per_pixel) {
      if (e.kind == Kind::Depth16) {
        uint16_t mm = read16(src, big);
        *v++ = mm ? float(mm) : none;  // 0: no return
      } else {
        float m = read_f32(src, big);
        *v++ = std::isfinite(m) && m > 0 ? m : none;  // NaN, inf or 0: no return
      }
    }
  }
  out.depth = std::move(depth);
  colour_depth(out);
}

void convert_bayer(const Encoding& e, const Rows& rows, bool big, RgbaImage& out) {
  std::vector<uint16_t> mosaic(uint64_t(out.width) * out.height);
  uint16_t* m = mosaic.data();
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t* src = rows.row(y);
    for (uint32_t x = 0; x < out.width; ++x, src += e.bytes_per_pixel)
      *m++ = e.kind == Kind::Bayer8 ? *src : read16(src, big);
  }
  std::vector<uint16_t> rgb = demosaic_bilinear(mosaic, out.width, out.height, e.pattern);
  uint8_t* dst = out.rgba.data();
  for (size_t i = 0; i < rgb.size(); i += 3, dst += 4) {
    for (int c = 0; c < 3; ++c) dst[c] = e.kind == Kind::Bayer8 ? uint8_t(rgb[i + c]) : scale_16_to_8(rgb[i + c]);
    dst[3] = 255;
  }
}

void convert_yuv422(const Encoding& e, const Rows& rows, RgbaImage& out) {
  // UYVY: U Y0 V Y1; YUY2: Y0 U Y1 V (one U and V for each pair of pixels).
  const int u_at = e.kind == Kind::Uyvy ? 0 : 1, y_at = e.kind == Kind::Uyvy ? 1 : 0;
  uint8_t* dst = out.rgba.data();
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t* src = rows.row(y);
    for (uint32_t x = 0; x < out.width; x += 2, src += 4, dst += 8) {
      yuv_to_rgba(src[y_at], src[u_at], src[u_at + 2], dst);
      yuv_to_rgba(src[y_at + 2], src[u_at], src[u_at + 2], dst + 4);
    }
  }
}

}  // namespace

const std::vector<std::string>& raw_image_encodings() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const Encoding& e : kEncodings) list.push_back(e.name);
    return list;
  }();
  return names;
}

ImageResult convert_image(const ImageFields& fields) {
  const Encoding* e = find_encoding(fields.encoding);
  if (!e)
    return failure("image.encoding.unknown", "the image encoding \"" + fields.encoding + "\" is not one logscope reads");
  const std::string shape = std::to_string(fields.width) + " x " + std::to_string(fields.height);
  if (fields.width == 0 || fields.height == 0)
    return failure("image.size.empty", "the image is " + shape + " pixels: nothing to show");
  if (uint64_t(fields.width) * fields.height > kMaxImagePixels)
    return failure("image.size.too_large", "the image is " + shape + " pixels, more than the " +
                                               std::to_string(kMaxImagePixels) + " logscope converts");
  if ((e->kind == Kind::Uyvy || e->kind == Kind::Yuy2) && fields.width % 2)
    return failure("image.size.odd_width", fields.encoding + " holds pixels in pairs, but the width is " +
                                               std::to_string(fields.width));
  const uint64_t row_bytes = uint64_t(fields.width) * e->bytes_per_pixel;
  if (fields.step < row_bytes)
    return failure("image.step.too_small", "step is " + std::to_string(fields.step) + " bytes, but a row of " +
                                               std::to_string(fields.width) + " " + fields.encoding +
                                               " pixels needs " + std::to_string(row_bytes));
  const uint64_t needed = uint64_t(fields.step) * (fields.height - 1) + row_bytes;
  if (fields.data.size() < needed)
    return failure("image.data.short", "the data holds " + std::to_string(fields.data.size()) + " bytes, but " +
                                           std::to_string(fields.height) + " rows of step " +
                                           std::to_string(fields.step) + " need " + std::to_string(needed));

  ImageResult result;
  result.ok = true;
  RgbaImage& out = result.image;
  out.width = fields.width;
  out.height = fields.height;
  out.rgba.resize(uint64_t(out.width) * out.height * 4);
  const Rows rows{reinterpret_cast<const uint8_t*>(fields.data.data()), fields.step};
  switch (e->kind) {
    case Kind::Packed8: convert_packed(*e, rows, out); break;
    case Kind::Grey16: convert_grey16(rows, fields.is_bigendian, out); break;
    case Kind::Depth16:
    case Kind::Depth32F: convert_depth(*e, rows, fields.is_bigendian, out); break;
    case Kind::Bayer8:
    case Kind::Bayer16: convert_bayer(*e, rows, fields.is_bigendian, out); break;
    case Kind::Uyvy:
    case Kind::Yuy2: convert_yuv422(*e, rows, out); break;
  }
  return result;
}

}  // namespace logscope::views
