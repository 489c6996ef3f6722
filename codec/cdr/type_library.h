// ROS 2 message definitions a user supplies for logs that store none (rosbag2 before Iron):
// a folder of `.msg` files (`--msg-path`, `pkg/msg/Type.msg`, `pkg/Type.msg` or flat) or the
// definitions another log holds (`--definitions-from`: an MCAP's schemas, a rosbag2 bag's
// message_definitions, a ROS 1 bag's connections). Looked up by type name; a `.msg` file's text is
// completed with the types it uses, as rosbag2 and MCAP store them (root first, then each type
// after a '=' line and `MSG: pkg/msg/Type`), so cdr::Schema parses it like a stored one.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace logscope::cdr {

struct TypeDefinition {
  std::string encoding;  // "ros2msg", "ros2idl" (or "ros1msg", used only when it matches ROS 2's layout)
  std::string text;
  bool complete = true;  // false: a .msg file's own fields; the types it uses are in the library
  std::string origin;    // where it came from, for messages
};

class TypeLibrary {
 public:
  // "pkg/msg/Type" for "pkg/Type" or "pkg/msg/Type"; a bare "Type" stays as it is.
  static std::string canonical(std::string_view type);

  // The first definition of a type wins (later ones are noted in warnings()).
  void add(const std::string& type, TypeDefinition definition);
  // The whole definition of `type` (completed from the library for a .msg file's), or false with
  // `error` naming what is missing.
  bool definition(const std::string& type, std::string* encoding, std::string* text, std::string* error) const;
  bool empty() const { return types_.empty(); }
  size_t size() const { return types_.size(); }
  std::vector<std::string> names() const;
  const std::vector<std::string>& warnings() const { return warnings_; }
  void warn(std::string text) { warnings_.push_back(std::move(text)); }

 private:
  const TypeDefinition* find(const std::string& type, std::string* key) const;
  std::map<std::string, TypeDefinition> types_;  // by canonical name (a flat file's: its bare name)
  std::vector<std::string> warnings_;
};

// One `.msg` file by its path below the folder the user gave (`pkg/msg/Type.msg` and
// `pkg/Type.msg` define pkg/msg/Type, a file directly in the folder the bare `Type`), as
// load_msg_folder and the page's dropped folders (wasm/message_schemas.cpp) add them.
void add_msg_file(TypeLibrary& library, const std::string& relative_path, std::string text, const std::string& origin);

// Every `.msg` below `folder`: `pkg/msg/Type.msg` and `pkg/Type.msg` define pkg/msg/Type, a file
// directly in `folder` the bare `Type` (found by its last name part). Null with `error` when the
// folder cannot be read or holds no .msg file; files over 1 MB are skipped with a warning.
std::shared_ptr<TypeLibrary> load_msg_folder(const std::string& folder, std::string* error);

}  // namespace logscope::cdr
