// libpng's errors longjmp back to the setjmp in each function: nothing with a destructor is
// created between the setjmp and the calls that may jump (the vectors belong to the callers).
#include "views/image_png.h"

#include <png.h>

#include <csetjmp>
#include <cstring>

#include "views/image_convert.h"

namespace logscope::views {
namespace {

struct MemoryIn {
  const uint8_t* data;
  size_t size;
  size_t at;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t n) {
  auto* in = static_cast<MemoryIn*>(png_get_io_ptr(png));
  if (n > in->size - in->at) png_error(png, "the PNG data ends early");
  std::memcpy(out, in->data + in->at, n);
  in->at += n;
}

void write_to_string(png_structp png, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), n);
}

void flush_nothing(png_structp) {}

// Keeps libpng's message (a C string) for the caller, then jumps back.
void on_error(png_structp png, png_const_charp message) {
  auto* text = static_cast<char*>(png_get_error_ptr(png));
  std::strncpy(text, message ? message : "libpng error", 199);
  text[199] = 0;
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

// The error text first (on_error writes there), then the first warning.
struct Messages {
  char error[200];
  char warning[200];
};

void keep_warning(png_structp png, png_const_charp message) {
  auto* m = static_cast<Messages*>(png_get_error_ptr(png));
  if (!m->warning[0]) {
    std::strncpy(m->warning, message ? message : "libpng warning", 199);
    m->warning[199] = 0;
  }
}

}  // namespace

bool decode_png_grey16(std::string_view bytes, std::vector<uint16_t>& values, uint32_t& width, uint32_t& height,
                       std::string& code, std::string& error) {
  char message[200] = "";
  MemoryIn in{reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    code = "image.png.memory";
    error = "libpng could not start";
    return false;
  }
  // 0: no problem; 1: libpng failed (message); 2: not 16-bit grey; 3: too large.
  volatile int outcome = 0;
  volatile png_uint_32 w = 0, h = 0;
  volatile int depth = 0, colour = 0;
  if (setjmp(png_jmpbuf(png)) == 0) {
    png_set_read_fn(png, &in, read_from_memory);
    png_read_info(png, info);
    w = png_get_image_width(png, info);
    h = png_get_image_height(png, info);
    depth = png_get_bit_depth(png, info);
    colour = png_get_color_type(png, info);
    if (depth != 16 || colour != PNG_COLOR_TYPE_GRAY) {
      outcome = 2;
    } else if (uint64_t(w) * h > kMaxImagePixels) {
      outcome = 3;
    } else {
      // PNG stores 16-bit samples big-endian; the rows are read into bytes and assembled below.
      values.assign(uint64_t(w) * h, 0);
      const int passes = png_set_interlace_handling(png);
      png_read_update_info(png, info);
      for (int pass = 0; pass < passes; ++pass)
        for (png_uint_32 y = 0; y < h; ++y)
          png_read_row(png, reinterpret_cast<png_bytep>(values.data() + uint64_t(y) * w), nullptr);
      png_read_end(png, nullptr);  // as OpenCV's decoder: a PNG cut before its end is damaged
    }
  } else {
    outcome = 1;
  }
  png_destroy_read_struct(&png, &info, nullptr);
  width = w;
  height = h;
  if (outcome == 1) {
    code = "image.png.damaged";
    error = std::string("the PNG cannot be read: ") + message;
  } else if (outcome == 2) {
    code = "image.png.not_grey16";
    error = "the PNG holds " + std::to_string(depth) + "-bit samples of colour type " + std::to_string(colour) +
            ", not the 16-bit grey a depth image needs";
  } else if (outcome == 3) {
    code = "image.size.too_large";
    error = "the PNG is " + std::to_string(w) + " x " + std::to_string(h) + " pixels, more than the " +
            std::to_string(kMaxImagePixels) + " logscope converts";
  }
  if (outcome) return false;
  for (uint16_t& v : values) {  // big-endian bytes to values
    const uint8_t* b = reinterpret_cast<const uint8_t*>(&v);
    v = uint16_t(b[0] << 8 | b[1]);
  }
  return true;
}

bool decode_png_rgba(std::string_view bytes, RgbaImage& image, std::string& code, std::string& error, std::string* warning) {
  Messages messages{};
  char* message = messages.error;
  MemoryIn in{reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &messages, on_error, keep_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    code = "image.png.memory";
    error = "libpng could not start";
    return false;
  }
  // 0: read; 1: libpng failed (message); 3: too large.
  volatile int outcome = 0;
  volatile png_uint_32 w = 0, h = 0;
  if (setjmp(png_jmpbuf(png)) == 0) {
    png_set_read_fn(png, &in, read_from_memory);
    png_set_crc_action(png, PNG_CRC_WARN_USE, PNG_CRC_WARN_USE);
    png_read_info(png, info);
    w = png_get_image_width(png, info);
    h = png_get_image_height(png, info);
    if (uint64_t(w) * h > kMaxImagePixels) {
      outcome = 3;
    } else {
      png_set_expand(png);  // palette to RGB, grey below 8 bits to 8, tRNS to alpha
      png_set_scale_16(png);
      png_set_gray_to_rgb(png);
      png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
      const int passes = png_set_interlace_handling(png);
      png_read_update_info(png, info);
      image.width = w;
      image.height = h;
      image.rgba.assign(uint64_t(w) * h * 4, 0);
      for (int pass = 0; pass < passes; ++pass)
        for (png_uint_32 y = 0; y < h; ++y) png_read_row(png, image.rgba.data() + uint64_t(y) * w * 4, nullptr);
      png_read_end(png, nullptr);
    }
  } else {
    outcome = 1;
  }
  png_destroy_read_struct(&png, &info, nullptr);
  if (outcome == 1) {
    code = "image.png.damaged";
    error = std::string("the PNG cannot be read: ") + message;
  } else if (outcome == 3) {
    code = "image.size.too_large";
    error = "the PNG is " + std::to_string(w) + " x " + std::to_string(h) + " pixels, more than the " +
            std::to_string(kMaxImagePixels) + " logscope converts";
  }
  if (outcome) image = RgbaImage();
  if (!outcome && warning && messages.warning[0]) *warning = std::string("the PNG is damaged but reads: ") + messages.warning;
  return outcome == 0;
}

std::string encode_png_rgba(const uint8_t* rgba, uint32_t width, uint32_t height) {
  std::string out;
  char message[200] = "";
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return {};
  }
  volatile bool failed = false;
  if (setjmp(png_jmpbuf(png)) == 0) {
    png_set_write_fn(png, &out, write_to_string, flush_nothing);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y)
      png_write_row(png, const_cast<png_bytep>(rgba + uint64_t(y) * width * 4));
    png_write_end(png, nullptr);
  } else {
    failed = true;
  }
  png_destroy_write_struct(&png, &info);
  if (failed) out.clear();
  return out;
}

}  // namespace logscope::views
