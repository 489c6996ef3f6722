#include "schema_options.h"

#include <cstdio>
#include <fstream>
#include <iterator>

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

}  // namespace

std::vector<std::string> schema_flags() { return {"--descriptors", "--proto-path"}; }

bool apply_schema_flags(const Arguments& args, OpenFile& file, std::string* error) {
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

std::string schema_flags_help() {
  return "  --descriptors FILE  protobuf schemas as a FileDescriptorSet (protoc --descriptor_set_out F\n"
         "                      --include_imports; .desc, .binpb): fields by name\n"
         "  --proto-path DIR    the same from the .proto files below DIR (imports relative to DIR)\n"
         "  Without either, protobuf fields are named by field number (1.3[2].5).\n";
}

}  // namespace logscope::cli
