// Camera image conversions (codec/views/image_convert.h) against what numpy and OpenCV compute
// from the same message bytes (tests/reference/image_reference.py), pixel for pixel: every raw
// encoding at odd widths, with and without row padding, in both byte orders; compressedDepth
// PNG and RVL messages made in Python; and damaged messages, which give a named error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/json.h"
#include "test_support.h"
#include "views/image_convert.h"
#include "views/image_png.h"

using namespace logscope;
using namespace logscope::views;

namespace {

bool have_opencv() {
  bool ok = std::system("/usr/bin/python3 -c 'import cv2, numpy' 2>/dev/null") == 0;
  if (!ok) test_support::skip("/usr/bin/python3 with cv2 and numpy (python3-opencv, python3-numpy) is missing: no reference");
  return ok;
}

void run_reference(const std::string& mode, const std::string& dir) {
  std::string command = "/usr/bin/python3 '" + std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/image_reference.py' " +
                        mode + " '" + dir + "'";
  REQUIRE(std::system(command.c_str()) == 0);
}

std::string as_text(const std::vector<uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }

// The first pixel where two RGBA images differ, as "(x, y) rgba a,b,c,d != e,f,g,h", or "".
std::string first_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint32_t width) {
  if (got.size() != want.size()) return "sizes " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); i += 4) {
    if (std::memcmp(&got[i], &want[i], 4) == 0) continue;
    auto px = [&](const std::vector<uint8_t>& v) {
      return std::to_string(v[i]) + "," + std::to_string(v[i + 1]) + "," + std::to_string(v[i + 2]) + "," + std::to_string(v[i + 3]);
    };
    size_t p = i / 4;
    return "(" + std::to_string(p % width) + ", " + std::to_string(p / width) + ") " + px(got) + " != " + px(want);
  }
  return "";
}

void check_values(const std::vector<float>& got, const std::vector<uint8_t>& want_bytes) {
  REQUIRE(want_bytes.size() == got.size() * 4);
  for (size_t i = 0; i < got.size(); ++i) {
    float want;
    std::memcpy(&want, &want_bytes[i * 4], 4);
    if (std::isnan(want) != std::isnan(got[i]) || (!std::isnan(want) && want != got[i])) {
      FAIL("value " << i << ": " << got[i] << " != " << want);
      return;
    }
  }
}

struct Shape {
  uint32_t width, height;
};

unsigned bytes_per_pixel(const std::string& encoding) {
  if (encoding == "rgb8" || encoding == "bgr8" || encoding == "8UC3") return 3;
  if (encoding == "rgba8" || encoding == "bgra8" || encoding == "32FC1") return 4;
  if (encoding == "mono8" || encoding == "8UC1" || encoding.back() == '8') return 1;
  return 2;  // mono16, 16UC1, bayer_*16, the yuv422 family
}

// Sample bytes that exercise an encoding: depth gets holes (0, NaN, inf, negative) and a spread
// of values; everything else is uniform noise (rounding, saturation and every Bayer position).
std::vector<uint8_t> message_bytes(const std::string& encoding, uint32_t step, uint32_t height, bool big,
                                   std::mt19937& rng, uint32_t row_bytes) {
  std::vector<uint8_t> data(uint64_t(step) * height);
  for (auto& b : data) b = uint8_t(rng());
  if (encoding == "32FC1") {
    std::uniform_real_distribution<float> metres(0.2f, 12.f);
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x * 4 < row_bytes; ++x) {
        float v = metres(rng);
        uint32_t pick = rng() % 10;
        if (pick == 0) v = NAN;
        if (pick == 1) v = 0;
        if (pick == 2) v = INFINITY;
        if (pick == 3) v = -1.5f;
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        uint8_t* p = &data[uint64_t(y) * step + x * 4];
        for (int k = 0; k < 4; ++k) p[big ? 3 - k : k] = uint8_t(bits >> (8 * k));
      }
  }
  if (encoding == "mono16")  // a 12-bit sensor's range, away from 0: the stretch is not the identity
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x * 2 < row_bytes; ++x) {
        const uint16_t v = uint16_t(300 + rng() % 3000);
        data[uint64_t(y) * step + x * 2 + (big ? 1 : 0)] = uint8_t(v);
        data[uint64_t(y) * step + x * 2 + (big ? 0 : 1)] = uint8_t(v >> 8);
      }
  if (encoding == "16UC1")
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x * 2 < row_bytes; x += 3) data[uint64_t(y) * step + x * 2] = data[uint64_t(y) * step + x * 2 + 1] = 0;
  return data;
}

}  // namespace

TEST_CASE("image: every raw encoding equals OpenCV's conversion, pixel for pixel") {
  if (!have_opencv()) return;
  const std::string dir = test_support::scratch_dir("image_convert");
  std::mt19937 rng(35);
  const Shape odd_shapes[] = {{7, 5}, {13, 9}, {3, 3}, {1, 1}, {2, 5}, {5, 2}, {33, 17}};
  const Shape even_shapes[] = {{6, 5}, {12, 7}, {2, 1}};  // yuv422 holds pixels in pairs

  Json cases = Json::array();
  std::vector<ImageFields> fields;
  std::vector<std::string> names, data;
  for (const std::string& encoding : raw_image_encodings()) {
    const bool yuv = encoding == "yuv422" || encoding == "uyvy" || encoding == "yuv422_yuy2" || encoding == "yuyv";
    const std::vector<Shape> shapes = yuv ? std::vector<Shape>(std::begin(even_shapes), std::end(even_shapes))
                                          : std::vector<Shape>(std::begin(odd_shapes), std::end(odd_shapes));
    for (const Shape& shape : shapes)
      for (uint32_t padding : {0u, 3u})
        for (bool big : {false, true})
          for (bool cut_last_padding : {false, true}) {
            if (cut_last_padding && !padding) continue;
            const uint32_t row_bytes = shape.width * bytes_per_pixel(encoding);
            const uint32_t step = row_bytes + padding;
            std::vector<uint8_t> bytes = message_bytes(encoding, step, shape.height, big, rng, row_bytes);
            if (cut_last_padding) bytes.resize(bytes.size() - padding);  // the last row needs none
            std::string name = encoding + "_" + std::to_string(shape.width) + "x" + std::to_string(shape.height) + "_s" +
                               std::to_string(step) + (big ? "_be" : "_le") + (cut_last_padding ? "_cut" : "");
            test_support::write_file(dir + "/" + name + ".bin", bytes);
            Json c = Json::object();
            c["name"] = name;
            c["encoding"] = encoding;
            c["width"] = shape.width;
            c["height"] = shape.height;
            c["is_bigendian"] = big;
            c["step"] = step;
            c["data"] = name + ".bin";
            cases.push_back(c);
            names.push_back(name);
            data.push_back(as_text(bytes));
            fields.push_back({shape.width, shape.height, encoding, big, step, {}});
          }
  }
  {
    std::ofstream out(dir + "/cases.json");
    out << cases.dump(0);
  }
  run_reference("convert", dir);
  auto expected = Json::parse(test_support::read_text(dir + "/expected.json"));
  REQUIRE(expected);

  size_t compared = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    CAPTURE(names[i]);
    fields[i].data = data[i];
    ImageResult result = convert_image(fields[i]);
    REQUIRE_MESSAGE(result.ok, result.code << ": " << result.message);
    CHECK(first_difference(result.image.rgba, test_support::read_file(dir + "/" + names[i] + ".rgba"), fields[i].width) == "");
    if (const Json* legend = expected->find(names[i])) {
      REQUIRE(result.image.depth);
      CHECK(result.image.depth->low == legend->find("low")->as_double());
      CHECK(result.image.depth->high == legend->find("high")->as_double());
      const std::string& enc = fields[i].encoding;
      CHECK(result.image.depth->unit == (enc == "16UC1" ? "mm" : enc == "mono16" ? "raw" : "m"));
      CHECK(result.image.depth->map == (enc == "mono16" ? "grey" : "turbo"));
      check_values(result.image.depth->values, test_support::read_file(dir + "/" + names[i] + ".values"));
    } else {
      CHECK(!result.image.depth);
    }
    ++compared;
  }
  CHECK(compared > 400);
}

TEST_CASE("image: the real bags' camera frames equal OpenCV's conversion of the bytes python3-rosbag reads") {
  if (!test_support::have_samples() || !have_opencv()) return;
  if (std::system("/usr/bin/python3 -c 'import rosbag' 2>/dev/null") != 0) {
    test_support::skip("python3-rosbag is missing: the real frames were not read");
    return;
  }
  size_t frames = 0;
  for (const char* bag : {"IntelRealSense__librealsense__single_depth_color_640x480", "jsk-ros-pkg__jsk_demos__test-button-light",
                          "eric-wieser__ros_numpy__test"}) {
    CAPTURE(bag);
    const std::string dir = test_support::scratch_dir(std::string("image_real_") + bag);
    run_reference("bag-frames '" + test_support::sample(std::string("rosbag/real/") + bag + ".bag") + "'", dir);
    run_reference("convert", dir);
    auto cases = Json::parse(test_support::read_text(dir + "/cases.json"));
    REQUIRE(cases);
    REQUIRE(cases->size() > 0);
    for (const Json& c : cases->elements()) {
      const std::string name = c.find("name")->as_string(), bytes = as_text(test_support::read_file(dir + "/" + name + ".bin"));
      CAPTURE(c.find("topic")->as_string());
      ImageFields f{uint32_t(c.find("width")->as_uint()), uint32_t(c.find("height")->as_uint()), c.find("encoding")->as_string(),
                    c.find("is_bigendian")->as_bool(), uint32_t(c.find("step")->as_uint()), bytes};
      ImageResult result = convert_image(f);
      REQUIRE_MESSAGE(result.ok, result.code << ": " << result.message);
      CHECK(first_difference(result.image.rgba, test_support::read_file(dir + "/" + name + ".rgba"), f.width) == "");
      // To look at: build/native/test-scratch/image_real_*/frame*.png
      const std::string png = encode_png_rgba(result.image.rgba.data(), f.width, f.height);
      test_support::write_file(dir + "/" + name + ".png", std::vector<uint8_t>(png.begin(), png.end()));
      ++frames;
    }
  }
  CHECK(frames == 6);  // 2 depth and 1 colour (RealSense), 2 Bayer (jsk), 1 rgb8 (ros_numpy)
}

TEST_CASE("image: compressedDepth PNG and RVL give the depth Python encoded") {
  if (!have_opencv()) return;
  const std::string dir = test_support::scratch_dir("image_compressed_depth");
  run_reference("compressed-depth", dir);
  auto list = Json::parse(test_support::read_text(dir + "/compressed.json"));
  REQUIRE(list);
  size_t compared = 0;
  for (const Json& c : list->elements()) {
    const std::string name = c.find("name")->as_string();
    CAPTURE(name);
    const std::string bytes = as_text(test_support::read_file(dir + "/" + c.find("data")->as_string()));
    ImageResult result = convert_compressed_depth(c.find("format")->as_string(), bytes);
    REQUIRE_MESSAGE(result.ok, result.code << ": " << result.message);
    CHECK(result.image.width == c.find("width")->as_uint());
    CHECK(result.image.height == c.find("height")->as_uint());
    CHECK(first_difference(result.image.rgba, test_support::read_file(dir + "/" + name + ".rgba"), result.image.width) == "");
    REQUIRE(result.image.depth);
    CHECK(result.image.depth->low == c.find("low")->as_double());
    CHECK(result.image.depth->high == c.find("high")->as_double());
    check_values(result.image.depth->values, test_support::read_file(dir + "/" + name + ".values"));

    // Every cut of the message is an error that says why, never a crash or a picture.
    for (size_t keep : {size_t(0), size_t(11), size_t(12), size_t(19), bytes.size() / 2, bytes.size() - 1}) {
      ImageResult cut = convert_compressed_depth(c.find("format")->as_string(), std::string_view(bytes).substr(0, keep));
      if (name == "rvl_zeros" && keep == bytes.size() - 1) continue;  // its last word's padding nibbles only
      CAPTURE(keep);
      CHECK(!cut.ok);
      CHECK(!cut.message.empty());
    }
    ++compared;
  }
  CHECK(compared == 6);
}

TEST_CASE("image: values worked by hand") {
  // rgb8 and bgr8, 2 x 2 with a padded step of 7
  const std::string rgb = "\x01\x02\x03\x04\x05\x06PAD"
                          "\x07\x08\x09\x0a\x0b\x0c";
  ImageResult r = convert_image({2, 2, "rgb8", false, 9, rgb});
  REQUIRE(r.ok);
  CHECK(r.image.rgba == std::vector<uint8_t>{1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255});
  r = convert_image({2, 2, "bgr8", false, 9, rgb});
  REQUIRE(r.ok);
  CHECK(r.image.rgba[0] == 3);
  CHECK(r.image.rgba[2] == 1);

  // mono16: a grey stretch over its own range, the raw values kept (0 is a value, not a hole)
  const std::string be("\x00\x00\x01\x00\x02\x00\x04\x00\x00\x64", 10);  // 0, 256, 512, 1024, 100
  r = convert_image({5, 1, "mono16", true, 10, be});
  REQUIRE(r.ok);
  REQUIRE(r.image.depth);
  CHECK(r.image.depth->unit == "raw");
  CHECK(r.image.depth->map == "grey");
  CHECK(r.image.depth->low == 0);
  CHECK(r.image.depth->high == 1024);
  CHECK(r.image.depth->values == std::vector<float>{0, 256, 512, 1024, 100});
  CHECK(r.image.rgba[0] == 0);
  CHECK(r.image.rgba[4] == 64);    // 256 * 255 / 1024 = 63.75
  CHECK(r.image.rgba[8] == 128);   // 127.5, half up
  CHECK(r.image.rgba[12] == 255);
  CHECK(r.image.rgba[16] == 25);   // 24.9
  CHECK(r.image.rgba[17] == 25);
  r = convert_image({5, 1, "mono16", false, 10, be});  // little-endian: 0 1 2 4 0x6400
  REQUIRE(r.ok);
  CHECK(r.image.depth->high == 0x6400);
  CHECK(r.image.rgba[12] == 0);  // 4 of 25600

  // UYVY: black and white at video range
  r = convert_image({2, 1, "yuv422", false, 4, std::string("\x80\x10\x80\xeb", 4)});
  REQUIRE(r.ok);
  CHECK(r.image.rgba == std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 255, 255});

  // Bayer RGGB 3 x 3: the centre is B, the border copies the inner pixel
  std::vector<uint16_t> mosaic = {10, 20, 30, 40, 50, 60, 70, 80, 91};
  std::vector<uint16_t> rgb16 = demosaic_bilinear(mosaic, 3, 3, "rggb");
  // centre (1,1) is blue: R = mean of the diagonals (10+30+70+91+2)/4 = 50, G = (20+40+60+80+2)/4 = 50
  CHECK(rgb16[12] == 50);
  CHECK(rgb16[13] == 50);
  CHECK(rgb16[14] == 50);
  CHECK(std::vector<uint16_t>(rgb16.begin(), rgb16.begin() + 3) == std::vector<uint16_t>{50, 50, 50});
  mosaic[8] = 93;  // (10+30+70+93+2) >> 2 = 51
  CHECK(demosaic_bilinear(mosaic, 3, 3, "rggb")[12] == 51);
  CHECK(demosaic_bilinear(mosaic, 2, 3, "rggb") == std::vector<uint16_t>(18, 0));  // too narrow: black

  // Depth: the legend spans the measured values; 0 is nothing measured
  const std::string depth("\x00\x00\xe8\x03\xd0\x07", 6);  // 0, 1000, 2000 mm
  r = convert_image({3, 1, "16UC1", false, 6, depth});
  REQUIRE(r.ok);
  REQUIRE(r.image.depth);
  CHECK(r.image.depth->unit == "mm");
  CHECK(r.image.depth->low == 1000);
  CHECK(r.image.depth->high == 2000);
  CHECK(std::isnan(r.image.depth->values[0]));
  CHECK(r.image.rgba[0] + r.image.rgba[1] + r.image.rgba[2] == 0);
  CHECK(std::memcmp(&r.image.rgba[4], turbo_colormap(), 3) == 0);
  CHECK(std::memcmp(&r.image.rgba[8], turbo_colormap() + 255 * 3, 3) == 0);
}

TEST_CASE("image: damaged messages are named errors") {
  const std::string bytes(64, '\x7f');
  auto code_of = [&](ImageFields f) { return convert_image(f).code; };
  ImageResult r = convert_image({2, 2, "rgb16", false, 12, bytes});
  CHECK(r.code == "image.encoding.unknown");
  CHECK(r.message.find("rgb16") != std::string::npos);
  CHECK(code_of({4, 4, "rgb8", false, 11, bytes}) == "image.step.too_small");
  CHECK(code_of({4, 6, "rgb8", false, 12, bytes}) == "image.data.short");  // 5 * 12 + 12 = 72 > 64
  CHECK(code_of({4, 5, "rgb8", false, 12, bytes}) == "");                  // 4 * 12 + 12 = 60 fits
  CHECK(code_of({3, 2, "yuv422", false, 8, bytes}) == "image.size.odd_width");
  CHECK(code_of({0, 2, "mono8", false, 0, bytes}) == "image.size.empty");
  CHECK(code_of({100000, 100000, "mono8", false, 100000, bytes}) == "image.size.too_large");
  CHECK(code_of({0xffffffffu, 1, "32FC1", false, 0xffffffffu, bytes}) == "image.size.too_large");
  CHECK(code_of({2, 0x7fffffffu, "mono8", false, 0xffffffffu, bytes}) == "image.size.too_large");
  CHECK(code_of({8, 8, "mono8", false, 0xffffffffu, bytes}) == "image.data.short");

  CHECK(convert_compressed_depth("16UC1; compressedDepth", "short").code == "image.compressed_depth.short");
  CHECK(convert_compressed_depth("8UC1; compressedDepth", bytes).code == "image.compressed_depth.encoding");
  CHECK(convert_compressed_depth("16UC1; compressedDepth zip", bytes).code == "image.compressed_depth.method");
  CHECK(convert_compressed_depth("16UC1; compressedDepth png", bytes).code == "image.png.damaged");
  CHECK(is_compressed_depth("32FC1; compressedDepth rvl"));
  CHECK(!is_compressed_depth("jpeg"));

  // RVL: a size beyond the cap, a run past the pixels, data that ends early
  std::string rvl(12, '\0');
  rvl += std::string("\xff\xff\x00\x00\xff\xff\x00\x00", 8);
  CHECK(convert_compressed_depth("16UC1; compressedDepth rvl", rvl).code == "image.size.too_large");
  std::vector<uint16_t> out;
  std::string error;
  // one word: nibbles 5 (zeros), 0 (nonzeros), ... = 5 zeros for a 4-pixel image
  CHECK(!decode_rvl(std::string("\x00\x00\x00\x50", 4), 4, out, error));
  CHECK(error.find("runs past") != std::string::npos);
  CHECK(!decode_rvl(std::string("\x00\x00\x00\x20", 4), 8, out, error));
  CHECK(error.find("ends after") != std::string::npos);
  // 2 zeros, 2 nonzeros: zigzag 6 (+3), 3 (-2) -> 0 0 3 1
  REQUIRE(decode_rvl(std::string("\x00\x00\x63\x22", 4), 4, out, error));
  CHECK(out == std::vector<uint16_t>{0, 0, 3, 1});

  // A PNG that is not 16-bit grey, from our own encoder
  const std::vector<uint8_t> pixels = {1, 2, 3, 4};
  std::string png = encode_png_rgba(pixels.data(), 1, 1);
  REQUIRE(!png.empty());
  CHECK(convert_compressed_depth("16UC1; compressedDepth png", std::string(12, '\0') + png).code == "image.png.not_grey16");
}
