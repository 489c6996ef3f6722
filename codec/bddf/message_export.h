// Export of a protobuf series of a BDDF file: one row per block (one message), a column per
// numeric leaf of the messages in the range (codec/protobuf): named paths with a schema for the
// series' type (`kinematic_state.joint_states[3].position.value`), field-number paths without one
// (`1.3[2].5`). Two passes over the blocks: the columns (every path any message has, in protoc's
// field order), then the rows.
#pragma once

#include <string>
#include <vector>

#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/export.h"
#include "protobuf/leaves.h"

namespace logscope::protobuf {
class Schemas;
}

namespace logscope::bddf {

// A series whose blocks are protobuf messages.
bool is_protobuf_series(const Series& series);

// How a protobuf series' messages are read: by the schemas when they know its type, else by
// field numbers (`note` then says why, for messages).
struct MessageReading {
  const protobuf::Schemas* schemas = nullptr;  // null: field numbers
  std::string type_name;
  std::string note;
  bool leaves(const uint8_t* data, size_t size, std::vector<protobuf::Leaf>* out, std::string* error) const;
};
MessageReading message_reading(const Series& series, const protobuf::Schemas* schemas);

// The columns the export of `series` writes after time_ns for `request`'s range, reading every
// message in it. Empty with `result->error` when nothing could be read; problems and
// cancellation go to `result`.
std::vector<std::string> message_columns(ByteSource& source, const FileModel& model, const Series& series,
                                         const protobuf::Schemas* schemas, const ExportRequest& request, ExportResult* result,
                                         const ProgressFn& progress = nullptr);

ExportResult export_messages(ByteSource& source, const FileModel& model, const Series& series, const protobuf::Schemas* schemas,
                             const ExportRequest& request, ExportSink& sink, const ProgressFn& progress = nullptr);

}  // namespace logscope::bddf
