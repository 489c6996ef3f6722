// Depth images: the colour map over measured values, and compressed_depth_image_transport's
// compressedDepth messages (ConfigHeader, then a 16-bit grey PNG or RVL).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "views/image_convert.h"
#include "views/image_pixels.h"
#include "views/image_png.h"

namespace logscope::views {
namespace {

// Turbo (A. Mikhailov, Google, 2019), 256 sRGB entries as OpenCV's COLORMAP_TURBO holds them
// (written from Debian's python3-opencv: cv2.applyColorMap(arange(256), COLORMAP_TURBO)).
const uint8_t kTurbo[256 * 3] = {
#include "views/turbo_colormap.inc"
};

ImageResult failure(std::string code, std::string message) {
  ImageResult r;
  r.code = std::move(code);
  r.message = std::move(message);
  return r;
}

uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

float le_f32(const uint8_t* p) {
  uint32_t bits = le32(p);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// compressed_depth_image_transport's ConfigHeader: int32 compressionFormat, float depthParam[2].
constexpr size_t kConfigHeaderBytes = 12;

}  // namespace

const uint8_t* turbo_colormap() { return kTurbo; }

void shrink_image(RgbaImage& image, uint32_t factor) {
  if (factor < 2 || image.width < factor || image.height < factor) return;
  const uint32_t w = image.width / factor, h = image.height / factor;
  const size_t row = size_t{image.width} * 4;
  std::vector<uint8_t> out(size_t{w} * h * 4);
  const uint32_t area = factor * factor;
  std::vector<uint32_t> sums(size_t{w} * 4);
  for (uint32_t y = 0; y < h; ++y) {
    std::fill(sums.begin(), sums.end(), 0u);
    for (uint32_t dy = 0; dy < factor; ++dy) {
      const uint8_t* in = &image.rgba[(size_t{y} * factor + dy) * row];
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t dx = 0; dx < factor; ++dx, in += 4)
          for (int c = 0; c < 4; ++c) sums[size_t{x} * 4 + c] += in[c];
    }
    uint8_t* o = &out[size_t{y} * w * 4];
    for (size_t i = 0; i < sums.size(); ++i) o[i] = static_cast<uint8_t>((sums[i] + area / 2) / area);
  }
  image.rgba = std::move(out);
  image.width = w;
  image.height = h;
  image.depth.reset();
}

void colour_depth(RgbaImage& image) {
  DepthValues& depth = *image.depth;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (float v : depth.values)
    if (!std::isnan(v)) {
      low = std::min(low, double(v));
      high = std::max(high, double(v));
    }
  if (low > high) low = high = 0;  // nothing measured
  depth.low = low;
  depth.high = high;
  const double span = high - low;
  const bool grey = depth.map == "grey";
  uint8_t* dst = image.rgba.data();
  for (float v : depth.values) {
    if (std::isnan(v)) {
      dst[0] = dst[1] = dst[2] = 0;
    } else {
      int index = span > 0 ? int(std::floor((double(v) - low) * 255.0 / span + 0.5)) : 0;
      index = std::clamp(index, 0, 255);
      if (grey) dst[0] = dst[1] = dst[2] = uint8_t(index);
      else std::memcpy(dst, kTurbo + index * 3, 3);
    }
    dst[3] = 255;
    dst += 4;
  }
}

bool is_compressed_depth(std::string_view format) { return format.find("compressedDepth") != std::string_view::npos; }

bool decode_rvl(std::string_view data, uint64_t count, std::vector<uint16_t>& out, std::string& error) {
  // Values are variable-length runs of nibbles (3 bits and a continuation bit), packed high
  // nibble first into little-endian 32-bit words: zeros, nonzeros, then each nonzero value as
  // the zigzag of its difference from the previous one.
  const uint8_t* words = reinterpret_cast<const uint8_t*>(data.data());
  const size_t word_count = data.size() / 4;
  size_t next_word = 0;
  uint32_t word = 0;
  int nibbles_left = 0;
  bool ended = false;
  auto decode_vle = [&]() -> uint64_t {
    uint64_t value = 0;
    for (int shift = 0;; shift += 3) {
      if (!nibbles_left) {
        if (next_word >= word_count) {
          ended = true;
          return 0;
        }
        word = le32(words + 4 * next_word++);
        nibbles_left = 8;
      }
      const uint32_t nibble = word >> 28;
      word <<= 4;
      --nibbles_left;
      if (shift < 40) value |= uint64_t(nibble & 7) << shift;  // beyond any count: a lie, caught below
      if (!(nibble & 8)) return value;
    }
  };
  // The output grows as runs are decoded, never to the header's count at once: a cut or lying
  // stream fails having allocated what its own runs gave (a run of zeros still costs its length).
  out.clear();
  out.reserve(std::min<uint64_t>(count, uint64_t(data.size()) * 2));
  uint64_t at = 0;
  uint16_t previous = 0;
  while (at < count) {
    const uint64_t zeros = decode_vle();
    const uint64_t nonzeros = ended ? 0 : decode_vle();
    if (ended) break;
    if (zeros > count - at || nonzeros > count - at - zeros) {
      error = "RVL data runs past the image's " + std::to_string(count) + " pixels at pixel " + std::to_string(at);
      return false;
    }
    out.insert(out.end(), zeros, 0);
    at += zeros;
    for (uint64_t i = 0; i < nonzeros; ++i) {
      const uint64_t positive = decode_vle();
      if (ended) break;
      const int64_t delta = int64_t(positive >> 1) ^ -int64_t(positive & 1);
      previous = uint16_t(previous + delta);
      out.push_back(previous);
      ++at;
    }
    if (ended) break;
  }
  if (at < count) {
    error = "RVL data ends after " + std::to_string(at) + " of " + std::to_string(count) + " pixels";
    return false;
  }
  return true;
}

ImageResult convert_compressed_depth(std::string_view format, std::string_view data) {
  const std::string_view encoding = trim(format.substr(0, format.find(';')));
  if (encoding != "16UC1" && encoding != "32FC1")
    return failure("image.compressed_depth.encoding", "a compressedDepth image of encoding \"" + std::string(encoding) +
                                                          "\": only 16UC1 and 32FC1 are defined");
  // "compressedDepth png", "compressedDepth rvl", or the older "compressedDepth" (always PNG).
  const size_t word = format.find("compressedDepth");
  if (word == std::string_view::npos)
    return failure("image.compressed_depth.format", "the format \"" + std::string(format) + "\" is not compressedDepth");
  const std::string_view method = trim(format.substr(word + std::strlen("compressedDepth")));
  if (!method.empty() && method != "png" && method != "rvl")
    return failure("image.compressed_depth.method", "compressedDepth by \"" + std::string(method) + "\": logscope reads png and rvl");
  if (data.size() < kConfigHeaderBytes)
    return failure("image.compressed_depth.short", "the data holds " + std::to_string(data.size()) +
                                                       " bytes, less than the 12-byte compressedDepth header");
  const uint8_t* header = reinterpret_cast<const uint8_t*>(data.data());
  const float quant_a = le_f32(header + 4), quant_b = le_f32(header + 8);
  const std::string_view payload = data.substr(kConfigHeaderBytes);

  std::vector<uint16_t> raw;
  uint32_t width = 0, height = 0;
  std::string error;
  if (method == "rvl") {
    if (payload.size() < 8)
      return failure("image.compressed_depth.short", "the RVL data holds " + std::to_string(payload.size()) +
                                                         " bytes, less than its 8-byte size");
    width = le32(reinterpret_cast<const uint8_t*>(payload.data()));
    height = le32(reinterpret_cast<const uint8_t*>(payload.data()) + 4);
    if (!width || !height || uint64_t(width) * height > kMaxImagePixels)
      return failure("image.size.too_large", "the RVL image is " + std::to_string(width) + " x " + std::to_string(height) +
                                                 " pixels: empty, or more than the " + std::to_string(kMaxImagePixels) +
                                                 " logscope converts");
    if (!decode_rvl(payload.substr(8), uint64_t(width) * height, raw, error))
      return failure("image.compressed_depth.rvl", error);
  } else {
    std::string code;
    if (!decode_png_grey16(payload, raw, width, height, code, error)) return failure(code, error);
  }

  ImageResult result;
  result.ok = true;
  RgbaImage& out = result.image;
  out.width = width;
  out.height = height;
  out.rgba.resize(uint64_t(width) * height * 4);
  DepthValues depth;
  depth.values.resize(raw.size());
  const float none = std::numeric_limits<float>::quiet_NaN();
  if (encoding == "16UC1") {
    depth.unit = "mm";
    for (size_t i = 0; i < raw.size(); ++i) depth.values[i] = raw[i] ? float(raw[i]) : none;
  } else {
    // The inverse depth quantisation of compressed_depth_image_transport: depth = a / (q - b).
    depth.unit = "m";
    for (size_t i = 0; i < raw.size(); ++i) {
      const float m = raw[i] ? quant_a / (float(raw[i]) - quant_b) : none;
      depth.values[i] = std::isfinite(m) && m > 0 ? m : none;
    }
  }
  out.depth = std::move(depth);
  colour_depth(out);
  return result;
}

}  // namespace logscope::views
