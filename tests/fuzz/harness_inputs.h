// How the harnesses that take text split their input (one place, so a seed made by make_seeds.cpp
// means the same to each).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace fuzz_input {

// "<root type>\n<definition text>\0<message bytes>": the message harnesses (fuzz_cdr,
// fuzz_rosbag_msgdef). Without a NUL the whole rest is the definition and there is no message.
struct Definition {
  std::string root, definition;
  const uint8_t* message = reinterpret_cast<const uint8_t*>("");  // never null
  size_t message_size = 0;
  bool has_message = false;
};

inline std::optional<Definition> definition_input(const uint8_t* data, size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const char* end = text + size;
  const char* newline = static_cast<const char*>(std::memchr(text, '\n', size));
  if (!newline) return std::nullopt;
  Definition in;
  in.root.assign(text, newline);
  const char* begin = newline + 1;
  const char* nul = static_cast<const char*>(std::memchr(begin, '\0', static_cast<size_t>(end - begin)));
  in.definition.assign(begin, nul ? nul : end);
  if (nul) {
    in.has_message = true;
    in.message = reinterpret_cast<const uint8_t*>(nul + 1);
    in.message_size = static_cast<size_t>(end - (nul + 1));
  }
  return in;
}

// "<type>\n<query arguments as JSON>\n<one decoded message as JSON per line>...": the view
// harnesses (fuzz_robot_log, fuzz_transforms). Arguments that are not a JSON object are {}.
struct ViewMessages {
  std::string type;
  logscope::Json args;
  std::vector<std::string> messages;
};

inline std::optional<ViewMessages> view_input(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 2) return std::nullopt;
  ViewMessages in;
  in.type = lines[0];
  std::optional<logscope::Json> args = logscope::Json::parse(lines[1]);
  in.args = args && args->is_object() ? std::move(*args) : logscope::Json::object();
  in.messages.assign(lines.begin() + 2, lines.end());
  return in;
}

}  // namespace fuzz_input
