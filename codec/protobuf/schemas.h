// Protobuf by name: message schemas the user supplies (a FileDescriptorSet, or a folder of .proto
// files), and a message of a named type decoded through them. The interface is plain C++ so a
// format can hold and call it anywhere; the implementation (schemas.cpp, named.cpp) is the full
// libprotobuf: DescriptorPool, the .proto parser, DynamicMessageFactory and reflection. Formats
// that carry their schemas (MCAP's protobuf channels) load them with load_descriptor_set too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"
#include "protobuf/leaves.h"

namespace logscope::protobuf {

struct JsonLimits {
  size_t max_values = 20000;   // values in the tree; beyond, "truncated": true
  size_t max_bytes_shown = 256;  // of a bytes field, as hex
};

class Schemas {
 public:
  virtual ~Schemas() = default;
  // True when `type_name` (full name, "bosdyn.api.RobotState") is a message type of the schemas.
  virtual bool has_type(const std::string& type_name) const = 0;
  // The numeric leaves of one message, named by field paths (`kinematic_state.joint_states[3].position.value`;
  // enums as their number, unknown fields by field number below their message). False with `error`
  // when the type is unknown or the bytes do not parse as it.
  virtual bool numeric_leaves(const std::string& type_name, const uint8_t* data, size_t size, std::vector<Leaf>* out,
                              std::string* error) const = 0;
  // The message as a tree: field names, enums by name, nested messages, repeated fields as arrays,
  // 64-bit integers as decimal strings (proto3's JSON mapping), bytes as hex, unknown fields under
  // "[unknown]" by number. {"error": ...} when it does not parse.
  virtual Json message_json(const std::string& type_name, const uint8_t* data, size_t size,
                            const JsonLimits& limits = {}) const = 0;
  // Where the schemas came from, and what they hold, for messages ("3 files, 41 message types").
  virtual std::string description() const = 0;
  // Problems met while loading that did not stop it (a .proto file that did not compile).
  virtual const std::vector<std::string>& warnings() const = 0;
  // The full names of every message type of the files loaded (nested types too, well-known
  // types of google/protobuf/ only where the files define them), sorted: what the page remembers
  // a schema set for, so it loads the set for a file with one of those types.
  virtual std::vector<std::string> message_types() const = 0;
};

// A serialized FileDescriptorSet (`protoc --descriptor_set_out --include_imports`, `.desc`,
// `.binpb`, or an MCAP schema record's data). Null with `error` when it does not parse or holds
// no file. Types are built when first asked for; files missing from the set are looked up among
// the well-known types compiled into libprotobuf (google/protobuf/*.proto).
std::shared_ptr<const Schemas> load_descriptor_set(std::string_view bytes, std::string* error);

// .proto files as text, by their import path ("bosdyn/api/robot_state.proto"): the page's dropped
// folder. Imports resolve among them, then among the well-known types. Every file is compiled;
// one that fails is a warning (its types are missing), none compiling is an error. `imports`:
// files the sources may import that are not loaded for themselves (the wasm modules' copies of
// the well-known types, which a statically linked libprotobuf's generated pool lacks); the
// user's own copy of a path comes first.
std::shared_ptr<const Schemas> load_proto_sources(std::vector<std::pair<std::string, std::string>> files, std::string* error,
                                                  std::vector<std::pair<std::string, std::string>> imports = {});

// Every .proto file below `folder` (import paths relative to it), read from disk.
std::shared_ptr<const Schemas> load_proto_folder(const std::string& folder, std::string* error);

}  // namespace logscope::protobuf
