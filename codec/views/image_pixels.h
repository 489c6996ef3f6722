// Per-pixel arithmetic shared by the image conversions (image_convert.cpp, image_depth.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "views/image_convert.h"

namespace logscope::views {

// 16 bits to 8 as cv::Mat::convertTo(CV_8U, 1.0 / 256) does: v / 256 rounded half to even
// (cvRound), saturated at 255.
inline uint8_t scale_16_to_8(uint16_t v) {
  unsigned q = v >> 8, r = v & 0xff;
  if (r > 128 || (r == 128 && (q & 1))) ++q;
  return uint8_t(std::min(q, 255u));
}

// One Y with its pair's U and V to RGBA, in OpenCV's fixed point (ITU-R BT.601, video range;
// color_yuv.simd.hpp, YUV422toRGB8Invoker).
inline void yuv_to_rgba(uint8_t y, uint8_t u, uint8_t v, uint8_t* rgba) {
  constexpr int kShift = 20, kCY = 1220542, kCUB = 2116026, kCUG = -409993, kCVG = -852492, kCVR = 1673527;
  const int uu = int(u) - 128, vv = int(v) - 128;
  const int ruv = (1 << (kShift - 1)) + kCVR * vv;
  const int guv = (1 << (kShift - 1)) + kCVG * vv + kCUG * uu;
  const int buv = (1 << (kShift - 1)) + kCUB * uu;
  const int yy = std::max(0, int(y) - 16) * kCY;
  auto sat = [](int x) { return uint8_t(std::clamp(x, 0, 255)); };
  rgba[0] = sat((yy + ruv) >> kShift);
  rgba[1] = sat((yy + guv) >> kShift);
  rgba[2] = sat((yy + buv) >> kShift);
  rgba[3] = 255;
}

// Fills image.rgba from image.depth->values (NaN: black) through the Turbo map (or grey, for
// map "grey") over the measured range, and sets the range:
// index = floor((v - low) * 255 / (high - low) + 0.5).
void colour_depth(RgbaImage& image);

}  // namespace logscope::views
