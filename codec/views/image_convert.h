// Camera images to RGBA8 for a viewer, from the fields of a raw image message (width, height,
// encoding, is_bigendian, step, data) or of a compressed depth image (format + data). No format
// is named here: any log format hands over the fields its messages carry.
//
// Pixels equal what OpenCV computes as cv_bridge converts them for display (tests/reference/
// image_reference.py computes them independently with python3-opencv, pixel-exact): Bayer
// patterns demosaiced as cv2.cvtColor(COLOR_Bayer*2RGB) does, borders included; yuv422 (UYVY)
// and yuv422_yuy2 as COLOR_YUV2RGB_UYVY / _YUY2; 16-bit grey and Bayer scaled to 8 bits as
// cv::Mat::convertTo(1/256) rounds (Bayer 16). Depth (16UC1 in mm, 32FC1 in m) is drawn through the
// Turbo colour map over the range of its measured values; mono16 (which cv_bridge's 1/256 leaves
// near-black for a 10- or 12-bit sensor) is stretched in grey over its own range, its raw values
// kept for the value under the pointer (docs/views.md, "Images").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logscope::views {

// The fields of a raw image message (sensor_msgs/Image; foxglove.RawImage has the same).
struct ImageFields {
  uint32_t width = 0;
  uint32_t height = 0;
  std::string encoding;
  bool is_bigendian = false;
  uint32_t step = 0;  // bytes per row, padding included
  std::string_view data;
};

// A depth image's own values (or mono16's raw ones), for a legend and the value under the pointer.
struct DepthValues {
  std::string unit;              // "mm" (16UC1), "m" (32FC1) or "raw" (mono16: its 16-bit values)
  std::string map = "turbo";     // the colours: "turbo" (depth) or "grey" (mono16's contrast stretch)
  double low = 0, high = 0;      // the measured range the colour map spans (0, 0 if none)
  std::vector<float> values;     // one per pixel, row by row; NaN where nothing was measured
};

struct RgbaImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;           // width * height * 4 bytes, row by row, no padding
  std::optional<DepthValues> depth;    // depth encodings and mono16 only
};

struct ImageResult {
  bool ok = false;
  std::string code;      // when !ok: a stable "image.area.what" code
  std::string message;   // a sentence for the user that names the values at fault
  RgbaImage image;
};

// A raw image message to RGBA. An unknown encoding, a step shorter than a row, data shorter than
// the rows need or a shape the encoding cannot have is an error that says so; nothing is guessed.
ImageResult convert_image(const ImageFields& fields);

// A compressed_depth_image_transport image: `format` as "16UC1; compressedDepth png" (or rvl, or
// the older "...; compressedDepth" that means png), data = the 12-byte ConfigHeader
// (compressionFormat, depthParam[2]) and then a 16-bit grey PNG or RVL data.
ImageResult convert_compressed_depth(std::string_view format, std::string_view data);

// True when `format` names a compressedDepth image (rather than a JPEG, PNG, ...).
bool is_compressed_depth(std::string_view format);

// A thumbnail of converted pixels: each `factor` x `factor` block averaged into one pixel (the
// last partial row and column of blocks dropped), its depth values dropped (a thumbnail draws
// colours only). Unchanged when `factor` < 2 or the image is smaller than one block.
void shrink_image(RgbaImage& image, uint32_t factor);

// The raw encodings convert_image reads, for help texts and the page.
const std::vector<std::string>& raw_image_encodings();

// The largest image converted: 2^26 pixels (8192 x 8192). RVL's runs of zeros cost a few bits
// each, so its data never bounds the pixel count it claims; this does, for every source.
constexpr uint64_t kMaxImagePixels = uint64_t(1) << 26;

// --- Pieces, for the tests and the fuzz harness ---

// Demosaics a Bayer mosaic (one sample per pixel, row by row) into RGB triples as OpenCV's
// cvtColor(COLOR_Bayer*2RGB) does. `pattern` names the top-left 2x2 block: "rggb", "bggr",
// "gbrg" or "grbg".
std::vector<uint16_t> demosaic_bilinear(const std::vector<uint16_t>& mosaic, uint32_t width, uint32_t height,
                                        std::string_view pattern);

// RVL (A. D. Wilson, "Fast Lossless Depth Image Compression", 2017): decodes `count` 16-bit
// values into `out`; false with `error` when the data ends early or runs past `count`.
bool decode_rvl(std::string_view data, uint64_t count, std::vector<uint16_t>& out, std::string& error);

// The Turbo colour map (256 RGB entries, as OpenCV's COLORMAP_TURBO) used for depth.
const uint8_t* turbo_colormap();

}  // namespace logscope::views
