// JPEG to RGBA through Debian's libjpeg-turbo (libjpeg62-turbo-dev), for `logscope frames --png`
// only: the page decodes JPEG with the browser's own decoder, so the codec links no JPEG library.
#pragma once

#include <string>
#include <string_view>

#include "views/image_convert.h"

namespace logscope::cli {

// False with a stable code and a sentence (libjpeg's own) when the JPEG is damaged or cut: a
// warning (libjpeg's "Premature end of JPEG file", which it would fill with grey) fails it too.
bool decode_jpeg_rgba(std::string_view jpeg, views::RgbaImage& image, std::string* code, std::string* error);

}  // namespace logscope::cli
