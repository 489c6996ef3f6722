// ULog values as JSON: an info or parameter value by its "type name" key, and a data message
// decoded by its format (nested types as objects, arrays as arrays, char[N] as text, padding left out).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.h"
#include "ulog/format.h"

namespace logscope::ulog {

// "char[9] sys_name" -> type "char[9]", name "sys_name". False when there is no space.
bool split_key(std::string_view key, std::string* type, std::string* name);
// The value of a key's type: char[N] as text (up to a NUL), a scalar as a number, an array as an
// array; a type this reader cannot size (a nested one) as lowercase hex. Data shorter than the
// type gives what is there as hex.
Json typed_value(std::string_view type, const uint8_t* data, size_t size);
// How a value prints in texts (ulog_info, ulog_params): numbers as JSON prints them, text as is.
std::string value_text(const Json& value);
// One message decoded by `format`; fields that the data does not reach are left out.
Json decode_fields(const FormatSet& set, const Format& format, const uint8_t* data, size_t size);

}  // namespace logscope::ulog
