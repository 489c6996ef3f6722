// PNG through libpng (Debian's libpng-dev natively; the wasm build compiles Debian's source,
// scripts/build-wasm-deps.sh): 16-bit grey images in (compressedDepth), RGBA images out (frames).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace logscope::views {

// A 16-bit grey PNG into `values` (row by row). False with a stable `code` and a sentence in
// `error` when the PNG is damaged or cut, is not 16-bit grey, or has more than kMaxImagePixels.
bool decode_png_grey16(std::string_view png, std::vector<uint16_t>& values, uint32_t& width, uint32_t& height,
                       std::string& code, std::string& error);

// Any PNG to RGBA8 (palette, grey and tRNS expanded, 16-bit samples scaled to 8 bits), read to
// its end. False with a stable `code` and a sentence when it is damaged or cut, or too large. A
// chunk whose CRC is wrong but whose data reads is used, as most decoders do, and said in `warning`.
struct RgbaImage;
bool decode_png_rgba(std::string_view png, RgbaImage& image, std::string& code, std::string& error, std::string* warning = nullptr);

// An RGBA8 image (width * height * 4 bytes) as a PNG file's bytes; empty when libpng fails.
std::string encode_png_rgba(const uint8_t* rgba, uint32_t width, uint32_t height);

}  // namespace logscope::views
