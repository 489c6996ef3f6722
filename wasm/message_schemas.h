// The page's message schemas (the full and node modules only): descriptor sets and folders of
// .proto files the user supplied, loaded by the protobuf engine (codec/protobuf/schemas.h), and
// folders of ROS 2 .msg files (cdr/type_library.h), handed to an inspector
// (Inspector.setMessageSchemas) as one set of schemas and one library of definitions.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "cdr/type_library.h"
#include "protobuf/schemas.h"

namespace logscope {

class MessageSchemas {
 public:
  // Each adds one set and answers {"ok": true, "description", "warnings": [..], "types": [..]}
  // or {"ok": false, "error"} (the parser's errors as "file:line:column: message" lines).
  // `bytes`: a Uint8Array holding a FileDescriptorSet.
  std::string add_descriptor_set(const std::string& name, emscripten::val bytes);
  // `files`: [[import path, text], ...] (a dropped folder's .proto files, paths below the folder).
  std::string add_proto_files(const std::string& name, emscripten::val files);
  // `files`: [[path below the chosen folder, text], ...] of .msg files (pkg/msg/Type.msg).
  std::string add_msg_files(const std::string& name, emscripten::val files);
  double size() const { return static_cast<double>(sets_.size() + msg_sets_); }
  // The .msg sets' definitions, the first set's where two define a type. Null when none.
  std::shared_ptr<const cdr::TypeLibrary> definitions() const { return msg_sets_ ? definitions_ : nullptr; }
  // The sets added so far, as one: a type is decoded by the first set that has it. Null when none.
  std::shared_ptr<const protobuf::Schemas> schemas() const;

 private:
  std::string added(const std::string& name, std::shared_ptr<const protobuf::Schemas> set, const std::string& error);
  std::vector<std::shared_ptr<const protobuf::Schemas>> sets_;
  std::shared_ptr<cdr::TypeLibrary> definitions_ = std::make_shared<cdr::TypeLibrary>();
  size_t msg_sets_ = 0;
};

}  // namespace logscope
