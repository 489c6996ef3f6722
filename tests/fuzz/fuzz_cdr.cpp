// libFuzzer harness: ROS 2 message definitions and the CDR decoder (codec/cdr). Input layout:
// "<root type>\n<ros2msg definition>\0<CDR message, encapsulation header included>"; without a
// NUL the whole rest is the definition and the message is empty. A root type starting "idl:" has
// a ros2idl definition instead.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "cdr/decode.h"
#include "cdr/flatten.h"
#include "core/export.h"
#include "harness_inputs.h"

namespace {
class NullSink : public logscope::ExportSink {
 public:
  bool write(std::string_view) override { return true; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<fuzz_input::Definition> in = fuzz_input::definition_input(data, size);
  if (!in) return 0;
  const std::string& root = in->root;
  const std::string& definition = in->definition;
  const uint8_t* message = in->message;
  size_t message_size = in->message_size;

  std::string error;
  bool idl = root.compare(0, 4, "idl:") == 0;
  auto schema = idl ? logscope::cdr::Schema::parse_ros2idl(root.substr(4), definition, &error)
                    : logscope::cdr::Schema::parse_ros2msg(root, definition, &error);
  if (!schema) return 0;
  std::string decode_error, validate_error, row_error;
  logscope::Json decoded = logscope::cdr::decode_json(*schema, message, message_size, logscope::cdr::DecodeOptions(), &decode_error);
  decoded.dump();
  bool valid = logscope::cdr::validate(*schema, message, message_size, &validate_error);
  // validate() promises to agree with decode_json(), and the export row with both.
  if (valid != decode_error.empty() || validate_error != decode_error) __builtin_trap();
  logscope::cdr::FlatLayout layout(*schema);
  if (!layout.too_wide()) {
    NullSink sink;
    logscope::TableWriter table(sink, logscope::ExportRequest());
    std::string start_error;
    if (table.start(layout.columns(), &start_error)) {
      table.begin_row();
      bool row = layout.write_row(message, message_size, table, &row_error);
      if (row != valid) __builtin_trap();
    }
  }
  return 0;
}
