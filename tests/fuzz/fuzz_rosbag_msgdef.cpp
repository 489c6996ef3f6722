// libFuzzer harness: ROS1 message definitions and the message decoder (rosbag/msgdef.h).
// Input layout: "<root type>\n<definition text>\0<serialized message bytes>"; without a NUL the
// whole rest is the definition and the message is empty.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "rosbag/msgdef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const char* end = text + size;
  const char* newline = static_cast<const char*>(std::memchr(text, '\n', size));
  if (!newline) return 0;
  std::string root(text, newline);
  const char* definition_begin = newline + 1;
  const char* nul = static_cast<const char*>(std::memchr(definition_begin, '\0', static_cast<size_t>(end - definition_begin)));
  const char* definition_end = nul ? nul : end;
  std::string definition(definition_begin, definition_end);
  const uint8_t* message = nul ? reinterpret_cast<const uint8_t*>(nul + 1) : nullptr;
  size_t message_size = nul ? static_cast<size_t>(end - (nul + 1)) : 0;

  std::string error;
  auto schema = logscope::rosbag::MessageSchema::parse(root, definition, &error);
  if (!schema) return 0;
  logscope::rosbag::DecodeOptions options;
  std::string decode_error;
  logscope::Json decoded = schema->decode(message ? message : reinterpret_cast<const uint8_t*>(""), message_size, options, &decode_error);
  decoded.dump();
  bool valid = schema->validate(message ? message : reinterpret_cast<const uint8_t*>(""), message_size);
  // validate() promises to agree with decode().
  if (valid != decode_error.empty()) __builtin_trap();
  return 0;
}
