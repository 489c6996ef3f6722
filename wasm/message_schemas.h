// The page's protobuf schemas (the full and node modules only): descriptor sets and folders of
// .proto files the user supplied, loaded by the protobuf engine (codec/protobuf/schemas.h) and
// handed to an inspector (Inspector.setMessageSchemas) as one set of schemas.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

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
  double size() const { return static_cast<double>(sets_.size()); }
  // The sets added so far, as one: a type is decoded by the first set that has it. Null when none.
  std::shared_ptr<const protobuf::Schemas> schemas() const;

 private:
  std::string added(const std::string& name, std::shared_ptr<const protobuf::Schemas> set, const std::string& error);
  std::vector<std::shared_ptr<const protobuf::Schemas>> sets_;
};

}  // namespace logscope
