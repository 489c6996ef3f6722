#include "schema_options.h"

#include <cstdio>
#include <fstream>
#include <iterator>

#include "cdr/type_library.h"
#include "protobuf/schemas.h"

namespace logscope::cli {

namespace {

constexpr std::streamoff kMaxDescriptorSet = 256 << 20;

bool read_whole(const std::string& path, std::string* bytes, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return *error = path + ": cannot be read", false;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0 || size > kMaxDescriptorSet) return *error = path + ": not a descriptor set (over 256 MB)", false;
  in.seekg(0);
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// The ROS 2 definitions another log holds: its "definitions" query (MCAP schemas, a bag's
// message_definitions, a ROS 1 bag's connections).
std::shared_ptr<cdr::TypeLibrary> definitions_of_log(const std::string& path, std::string* error) {
  auto other = try_open_file(path, error);
  if (!other) return nullptr;
  if (!other->inspector) return *error = path + ": not a log logscope reads (" + other->detection.diagnosis + ")", nullptr;
  Json answer = other->inspector->query("definitions", Json::object(), nullptr);
  const Json* list = answer.find("definitions");
  if (!list) return *error = path + ": " + other->detection.label + " holds no message definitions logscope can take", nullptr;
  auto library = std::make_shared<cdr::TypeLibrary>();
  for (const Json& d : list->elements()) {
    const Json* type = d.find("type");
    const Json* encoding = d.find("encoding");
    const Json* text = d.find("text");
    if (!type || !encoding || !text) continue;
    std::string e = encoding->as_string();
    if (e != "ros2msg" && e != "ros2idl" && e != "ros1msg") continue;
    library->add(type->as_string(), cdr::TypeDefinition{e, text->as_string(), true, path});
  }
  if (library->empty()) return *error = path + ": holds no ros2msg, ros2idl or ros1msg definition", nullptr;
  return library;
}

// --msg-path and --definitions-from.
bool apply_definition_flags(const Arguments& args, OpenFile& file, std::string* error) {
  bool by_folder = args.has("--msg-path"), by_log = args.has("--definitions-from");
  if (!by_folder && !by_log) return true;
  if (by_folder && by_log) return *error = "give --msg-path or --definitions-from, not both", false;
  std::string why;
  std::shared_ptr<cdr::TypeLibrary> library =
      by_folder ? cdr::load_msg_folder(args.value("--msg-path"), &why) : definitions_of_log(args.value("--definitions-from"), &why);
  if (!library) return *error = (by_folder ? "--msg-path: " : "--definitions-from: ") + why, false;
  for (const std::string& warning : library->warnings()) std::fprintf(stderr, "logscope: definitions: %s\n", warning.c_str());
  if (file.inspector) file.inspector->set_message_definitions(std::move(library));
  return true;
}

}  // namespace

std::vector<std::string> schema_flags() { return {"--descriptors", "--proto-path", "--msg-path", "--definitions-from"}; }

bool apply_schema_flags(const Arguments& args, OpenFile& file, std::string* error) {
  if (!apply_definition_flags(args, file, error)) return false;
  bool by_set = args.has("--descriptors"), by_folder = args.has("--proto-path");
  if (!by_set && !by_folder) return true;
  if (by_set && by_folder) return *error = "give --descriptors or --proto-path, not both", false;
  std::shared_ptr<const protobuf::Schemas> schemas;
  std::string why;
  if (by_set) {
    std::string path = args.value("--descriptors"), bytes;
    if (!read_whole(path, &bytes, error)) return false;
    schemas = protobuf::load_descriptor_set(bytes, &why);
    if (!schemas) return *error = path + ": " + why, false;
  } else {
    schemas = protobuf::load_proto_folder(args.value("--proto-path"), &why);
    if (!schemas) return *error = "--proto-path: " + why, false;
  }
  for (const std::string& warning : schemas->warnings()) std::fprintf(stderr, "logscope: schemas: %s\n", warning.c_str());
  if (file.inspector) file.inspector->set_message_schemas(std::move(schemas));
  return true;
}

std::string definition_flags_help() {
  return "  --msg-path DIR      ROS 2 .msg files (DIR/pkg/msg/Type.msg, DIR/pkg/Type.msg or flat) for CDR\n"
         "                      topics whose log stores no definition (rosbag2 before Iron)\n"
         "  --definitions-from FILE  the definitions another log holds: an MCAP, a rosbag2 bag (folder or\n"
         "                      .db3), a ROS 1 bag (used only where its layout is ROS 2's: no ROS 1 Header)\n"
         "  The log's own definitions come first; a type defined nowhere stays bytes (hex).\n";
}

std::string schema_flags_help() {
  return "  --descriptors FILE  protobuf schemas as a FileDescriptorSet (protoc --descriptor_set_out F\n"
         "                      --include_imports; .desc, .binpb): fields by name\n"
         "  --proto-path DIR    the same from the .proto files below DIR (imports relative to DIR)\n"
         "  Without either, protobuf fields are named by field number (1.3[2].5).\n";
}

}  // namespace logscope::cli
