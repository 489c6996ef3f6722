// Bilinear demosaicing exactly as OpenCV's cvtColor(COLOR_Bayer*2RGB) (demosaicing.cpp,
// Bayer2RGB_ and its invoker), which cv_bridge calls: inside the one-pixel border, a pixel's own
// colour is its sample; at a red or blue pixel, green is the rounded mean of its four neighbours
// and the other colour the rounded mean of its four diagonals; at a green pixel, each of the
// other two colours is the rounded mean of the two neighbours that carry it. The border copies its
// inner neighbour: the first and last columns of each inner row, then the first and last rows.
// An image narrower or lower than 3 pixels is black, as OpenCV leaves it.
#include <algorithm>
#include <string>

#include "views/image_convert.h"

namespace logscope::views {
namespace {

enum Colour { R = 0, G = 1, B = 2 };

}  // namespace

std::vector<uint16_t> demosaic_bilinear(const std::vector<uint16_t>& mosaic, uint32_t width, uint32_t height,
                                        std::string_view pattern) {
  const uint64_t w = width, h = height;
  std::vector<uint16_t> rgb(w * h * 3, 0);
  if (w < 3 || h < 3 || mosaic.size() < w * h || pattern.size() != 4) return rgb;
  int colour_at[4];  // (y & 1) * 2 + (x & 1) -> colour
  for (int i = 0; i < 4; ++i) colour_at[i] = pattern[i] == 'r' ? R : pattern[i] == 'g' ? G : B;

  for (uint64_t y = 1; y + 1 < h; ++y) {
    const uint16_t* up = &mosaic[(y - 1) * w];
    const uint16_t* mid = &mosaic[y * w];
    const uint16_t* down = &mosaic[(y + 1) * w];
    uint16_t* out = &rgb[y * w * 3];
    for (uint64_t x = 1; x + 1 < w; ++x) {
      uint16_t* px = out + x * 3;
      const int own = colour_at[(y & 1) * 2 + (x & 1)];
      px[own] = mid[x];
      if (own == G) {
        const int beside = colour_at[(y & 1) * 2 + ((x + 1) & 1)];  // the colour left and right
        const int above = colour_at[((y + 1) & 1) * 2 + (x & 1)];   // the colour above and below
        px[beside] = uint16_t((mid[x - 1] + mid[x + 1] + 1) >> 1);
        px[above] = uint16_t((up[x] + down[x] + 1) >> 1);
      } else {
        px[G] = uint16_t((up[x] + down[x] + mid[x - 1] + mid[x + 1] + 2) >> 2);
        px[2 - own] = uint16_t((up[x - 1] + up[x + 1] + down[x - 1] + down[x + 1] + 2) >> 2);
      }
    }
    for (int c = 0; c < 3; ++c) {
      out[c] = out[3 + c];
      out[(w - 1) * 3 + c] = out[(w - 2) * 3 + c];
    }
  }
  std::copy(rgb.begin() + w * 3, rgb.begin() + w * 6, rgb.begin());
  std::copy(rgb.begin() + (h - 2) * w * 3, rgb.begin() + (h - 1) * w * 3, rgb.begin() + (h - 1) * w * 3);
  return rgb;
}

}  // namespace logscope::views
