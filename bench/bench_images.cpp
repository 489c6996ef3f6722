// The images view's raw conversions alone (issue 35: "Raw conversion (Bayer, YUV, 16-bit) runs in
// the codec and is measured alone"): views::convert_image on one frame of each encoding, and the
// thumbnail's shrink, with no reading, decoding of a message or drawing around them. Built natively
// and as WebAssembly for the browser (CMakeLists.txt: bench_images_web), so that
// bench/browser-images.mjs times the same code in Chromium and natively in one run.
//
//   bench_images [--width W] [--height H] [--seconds S (0.3 per encoding)]
// Prints one JSON line per encoding: {"encoding", "width", "height", "frames", "best_ms",
// "median_ms"}. The frames are pseudo-random bytes (a conversion's cost does not depend on them,
// except depth's colour map, which spans the values' range) with each row padded by 7 bytes.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "views/image_convert.h"

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Case {
  const char* encoding;
  unsigned bytes_per_pixel;
  bool big_endian;
};

// Each kind of conversion once (image_convert.cpp's kinds), 16-bit in both byte orders.
const Case kCases[] = {
    {"rgb8", 3, false},        {"bgra8", 4, false},        {"mono8", 1, false},       {"mono16", 2, false},
    {"mono16", 2, true},       {"16UC1", 2, false},        {"32FC1", 4, false},       {"bayer_rggb8", 1, false},
    {"bayer_grbg16", 2, false}, {"bayer_grbg16", 2, true}, {"yuv422", 2, false},      {"yuv422_yuy2", 2, false},
};

// Deterministic bytes; 32FC1's as floats of 0.3-8 m (random bytes would be NaNs and infinities).
std::vector<uint8_t> frame_bytes(const Case& c, uint32_t width, uint32_t height, uint32_t step) {
  std::vector<uint8_t> data(size_t{step} * height);
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &data[size_t{y} * step + size_t{x} * c.bytes_per_pixel];
      if (std::strcmp(c.encoding, "32FC1") == 0) {
        float metres = 0.3f + static_cast<float>(next() % 7700) / 1000.0f;
        std::memcpy(p, &metres, 4);
      } else {
        for (unsigned b = 0; b < c.bytes_per_pixel; ++b) p[b] = static_cast<uint8_t>(next() >> 24);
      }
    }
  return data;
}

struct Timing {
  size_t frames = 0;
  double best_ms = 0, median_ms = 0;
};

// Runs `once` for about `seconds` (at least 5 times, after 2 unmeasured), each run timed alone.
template <typename Fn>
Timing time_runs(double seconds, Fn once) {
  for (int i = 0; i < 2; ++i) once();
  std::vector<double> ms;
  const double start = now();
  while (ms.size() < 5 || now() - start < seconds) {
    const double t = now();
    once();
    ms.push_back((now() - t) * 1000.0);
  }
  std::sort(ms.begin(), ms.end());
  return {ms.size(), ms.front(), ms[ms.size() / 2]};
}

void print(const std::string& what, uint32_t width, uint32_t height, const Timing& t) {
  std::printf("{\"encoding\": \"%s\", \"width\": %u, \"height\": %u, \"frames\": %zu, \"best_ms\": %.3f, \"median_ms\": %.3f}\n",
              what.c_str(), width, height, t.frames, t.best_ms, t.median_ms);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t width = 640, height = 480;
  double seconds = 0.3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--width") width = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    else if (flag == "--height") height = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    else if (flag == "--seconds") seconds = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "bench_images: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  if (width < 2 || height < 2 || width > 8192 || height > 8192) {
    std::fprintf(stderr, "bench_images: --width and --height must be 2 to 8192\n");
    return 2;
  }
  width &= ~1u;  // yuv422 holds pixels in pairs
  for (const Case& c : kCases) {
    const uint32_t step = width * c.bytes_per_pixel + 7;  // padded rows, as the tests have them
    const std::vector<uint8_t> data = frame_bytes(c, width, height, step);
    logscope::views::ImageFields fields{width, height, c.encoding, c.big_endian, step,
                                        std::string_view(reinterpret_cast<const char*>(data.data()), data.size())};
    bool ok = true;
    const Timing t = time_runs(seconds, [&] { ok = logscope::views::convert_image(fields).ok && ok; });
    if (!ok) {
      std::fprintf(stderr, "bench_images: %s did not convert\n", c.encoding);
      return 1;
    }
    print(std::string(c.encoding) + (c.bytes_per_pixel > 1 && c.big_endian ? " (big-endian)" : ""), width, height, t);
  }
  // The thumbnail's shrink (image_query.cpp: to the strip's 54 px), on a converted rgb8 frame.
  const Case rgb = kCases[0];
  const uint32_t step = width * 3 + 7;
  const std::vector<uint8_t> data = frame_bytes(rgb, width, height, step);
  const logscope::views::ImageResult converted = logscope::views::convert_image(
      {width, height, "rgb8", false, step, std::string_view(reinterpret_cast<const char*>(data.data()), data.size())});
  const uint32_t factor = std::max<uint32_t>(2, height / 54);
  const Timing shrink = time_runs(seconds, [&] {
    logscope::views::RgbaImage copy = converted.image;
    logscope::views::shrink_image(copy, factor);
  });
  print("thumbnail shrink of rgba (1/" + std::to_string(factor) + ", with a copy of the frame)", width, height, shrink);
  return 0;
}
