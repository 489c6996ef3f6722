// libFuzzer harness: ROS1 message definitions and the message decoder (rosbag/msgdef.h).
// Input layout: "<root type>\n<definition text>\0<serialized message bytes>"; without a NUL the
// whole rest is the definition and the message is empty.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "harness_inputs.h"
#include "rosbag/msgdef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::Definition> in = fuzz_input::definition_input(data, size);
  if (!in) return 0;
  const std::string& root = in->root;
  const std::string& definition = in->definition;
  const uint8_t* message = in->has_message ? in->message : nullptr;
  size_t message_size = in->message_size;

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
