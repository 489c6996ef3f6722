// Field names of the descriptor messages (proto/bddf.proto), so the hex view can name the
// fields inside descriptor blocks instead of showing bare field numbers.
#pragma once

namespace logscope::bddf {

struct WireSchema;

struct WireSchemaField {
  int number;
  const char* name;
  const WireSchema* message;  // null for scalars, strings and packed arrays
};

struct WireSchema {
  const char* name;
  const WireSchemaField* fields;
  int field_count;
  const WireSchemaField* find(int number) const;
};

extern const WireSchema kDescriptorBlockSchema;  // body of a descriptor block
extern const WireSchema kDataDescriptorSchema;   // descriptor of a data block

}  // namespace logscope::bddf
