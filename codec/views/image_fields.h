// The fields of a decoded image message, read alike for every image type (image_frames.cpp,
// image_spot.cpp): numbers, or decimal text (protobuf's 64-bit); byte arrays as {"length", "hex"}
// (ROS 1 and CDR) or as hex text (protobuf bytes). Each sets the frame's error when it fails.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.h"
#include "views/image_frames.h"

namespace logscope::views {

void fail(Frame& frame, std::string code, std::string message);

// A field as an unsigned number (0 when it is missing and `defaults` allows it: protobuf leaves
// proto3 defaults out).
bool number_field(const Json& message, const char* name, bool defaults, uint64_t* out, Frame& frame);
bool text_field(const Json& message, const char* name, bool defaults, std::string* out, Frame& frame);
// The `data` field's bytes, which must be whole (WalkOptions::whole_bytes), not a preview.
bool data_field(const Json& message, bool defaults, std::string* out, Frame& frame);

// The container the bytes are, by their first bytes ("jpeg", "png", "webp"); "" when none
// logscope knows.
std::string container_of_bytes(std::string_view bytes);
// The container a format text names ("jpeg", "bgr8; jpeg compressed bgr8", "png", "webp"); "".
std::string container_of_format(std::string_view format);
const char* container_label(const std::string& container);

// Compressed bytes (frame.bytes, with frame.encoding the format the message states) kept as
// stored: the frame's container by its bytes, a warning where the stated format disagrees (the
// data wins), an error when the bytes are no image logscope knows.
void take_stored(Frame& frame);

}  // namespace logscope::views
