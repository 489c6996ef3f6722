// libjpeg's errors longjmp back to the setjmp below: nothing with a destructor is made between
// them (the image belongs to the caller).
#include "frames_jpeg.h"

#include <jpeglib.h>

#include <csetjmp>
#include <cstdio>

namespace logscope::cli {
namespace {

struct ErrorManager {
  jpeg_error_mgr base;  // first: libjpeg hands a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  bool warned;
};

void on_error(j_common_ptr info) {
  auto* e = reinterpret_cast<ErrorManager*>(info->err);
  (*info->err->format_message)(info, e->message);
  std::longjmp(e->jump, 1);
}

// Level -1 is a warning (corrupt or cut data that libjpeg reads on); the first is kept.
void on_message(j_common_ptr info, int level) {
  auto* e = reinterpret_cast<ErrorManager*>(info->err);
  if (level >= 0 || e->warned) return;
  e->warned = true;
  (*info->err->format_message)(info, e->message);
}

}  // namespace

bool decode_jpeg_rgba(std::string_view jpeg, views::RgbaImage& image, std::string* code, std::string* error) {
  jpeg_decompress_struct info;
  ErrorManager e{};
  info.err = jpeg_std_error(&e.base);
  e.base.error_exit = on_error;
  e.base.emit_message = on_message;
  volatile bool too_large = false;
  if (setjmp(e.jump) == 0) {
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(jpeg.data()), static_cast<unsigned long>(jpeg.size()));
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_EXT_RGBA;
    if (uint64_t(info.image_width) * info.image_height > views::kMaxImagePixels) {
      too_large = true;
    } else {
      jpeg_start_decompress(&info);
      image.width = info.output_width;
      image.height = info.output_height;
      image.rgba.assign(uint64_t(image.width) * image.height * 4, 0);
      while (info.output_scanline < info.output_height) {
        JSAMPROW row = image.rgba.data() + uint64_t(info.output_scanline) * image.width * 4;
        jpeg_read_scanlines(&info, &row, 1);
      }
      jpeg_finish_decompress(&info);
    }
  } else {
    jpeg_destroy_decompress(&info);
    image = views::RgbaImage();
    *code = "image.jpeg.damaged";
    *error = std::string("the JPEG cannot be read: ") + e.message;
    return false;
  }
  jpeg_destroy_decompress(&info);
  if (too_large || e.warned) {
    image = views::RgbaImage();
    *code = too_large ? "image.size.too_large" : "image.jpeg.damaged";
    *error = too_large ? "the JPEG holds more than " + std::to_string(views::kMaxImagePixels) + " pixels"
                       : std::string("the JPEG is damaged: ") + e.message;
    return false;
  }
  return true;
}

}  // namespace logscope::cli
