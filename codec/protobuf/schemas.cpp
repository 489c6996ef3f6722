// Loading schemas: a FileDescriptorSet into a descriptor database, .proto text through the
// compiler's parser (an in-memory source tree, or DiskSourceTree for a folder), and the pool
// over either with the well-known types behind it.
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "protobuf/schema_set.h"

namespace logscope::protobuf {

namespace {

constexpr size_t kMaxProtoFiles = 20000;

// .proto text held in memory, by import path.
class MemorySourceTree : public gpb::compiler::SourceTree {
 public:
  explicit MemorySourceTree(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  gpb::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    auto it = files_.find(filename);
    if (it == files_.end()) {
      last_error_ = "File not found.";
      return nullptr;
    }
    return new gpb::io::ArrayInputStream(it->second.data(), static_cast<int>(it->second.size()));
  }
  std::string GetLastErrorMessage() override { return last_error_; }

 private:
  std::map<std::string, std::string> files_;
  std::string last_error_;
};

// libprotobuf logs to stderr (e.g. invalid UTF-8 in a proto3 string while parsing); a parse
// failure is reported to the caller as data instead.
void silence_library_log() {
  static const bool done = [] {
    gpb::SetLogHandler([](gpb::LogLevel, const char*, int, const std::string&) {});
    return true;
  }();
  (void)done;
}

std::string plural(size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

std::shared_ptr<const Schemas> from_sources(std::unique_ptr<gpb::compiler::SourceTree> tree, const std::vector<std::string>& names,
                                            const std::string& source, std::string* error) {
  if (names.empty()) {
    *error = source + " holds no .proto file";
    return nullptr;
  }
  auto errors = std::make_unique<ErrorLines>();
  auto database = std::make_unique<gpb::compiler::SourceTreeDescriptorDatabase>(tree.get());
  database->RecordErrorsTo(errors.get());
  auto set = std::make_shared<SchemaSet>(std::move(database), std::move(tree), std::move(errors), source);
  if (set->build_files(names) == 0) {
    *error = "no .proto file of " + source + " compiled";
    for (const std::string& w : set->warnings()) *error += "\n  " + w;
    return nullptr;
  }
  return set;
}

}  // namespace

SchemaSet::SchemaSet(std::unique_ptr<gpb::DescriptorDatabase> primary, std::unique_ptr<gpb::compiler::SourceTree> tree,
                     std::unique_ptr<ErrorLines> errors, std::string source)
    : tree_(std::move(tree)), errors_(std::move(errors)), primary_(std::move(primary)), source_(std::move(source)) {
  silence_library_log();
  // The well-known types first: a user's copy of google/protobuf/*.proto is the same file, and
  // the parser is then never asked for a file it does not have.
  well_known_ = std::make_unique<gpb::DescriptorPoolDatabase>(*gpb::DescriptorPool::generated_pool());
  merged_ = std::make_unique<gpb::MergedDescriptorDatabase>(well_known_.get(), primary_.get());
  pool_ = std::make_unique<gpb::DescriptorPool>(merged_.get(), errors_.get());
}

size_t SchemaSet::build_files(const std::vector<std::string>& names) {
  size_t built = 0, types = 0;
  for (const std::string& name : names) {
    const gpb::FileDescriptor* file = pool_->FindFileByName(name);
    std::vector<std::string> lines = errors_->take();
    if (file) {
      ++built;
      files_.push_back(file);
      types += static_cast<size_t>(file->message_type_count());
    } else {
      if (lines.empty()) lines.push_back(name + ": could not be built");
      for (std::string& line : lines) warnings_.push_back(std::move(line));
    }
  }
  description_ = source_ + ": " + plural(built, "file", "files") + ", " + plural(types, "top-level message type", "top-level message types");
  return built;
}

namespace {
void add_type_names(const gpb::Descriptor* type, std::vector<std::string>* out) {
  out->push_back(type->full_name());
  for (int i = 0; i < type->nested_type_count(); ++i) add_type_names(type->nested_type(i), out);
}
}  // namespace

std::vector<std::string> SchemaSet::message_types() const {
  std::vector<std::string> out;
  for (const gpb::FileDescriptor* file : files_)
    for (int i = 0; i < file->message_type_count(); ++i) add_type_names(file->message_type(i), &out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::shared_ptr<const Schemas> load_descriptor_set(std::string_view bytes, std::string* error) {
  gpb::FileDescriptorSet set;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) || !set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    *error = "not a FileDescriptorSet (the bytes do not parse as google.protobuf.FileDescriptorSet)";
    return nullptr;
  }
  if (set.file_size() == 0) {
    *error = "the FileDescriptorSet holds no file";
    return nullptr;
  }
  auto database = std::make_unique<gpb::SimpleDescriptorDatabase>();
  std::vector<std::string> names;
  std::vector<std::string> duplicates;
  for (const gpb::FileDescriptorProto& file : set.file()) {
    if (!database->Add(file)) duplicates.push_back(file.name());
    else names.push_back(file.name());
  }
  auto errors = std::make_unique<ErrorLines>();
  auto schemas = std::make_shared<SchemaSet>(std::move(database), nullptr, std::move(errors),
                                             "a descriptor set of " + plural(static_cast<size_t>(set.file_size()), "file", "files"));
  if (schemas->build_files(names) == 0) {
    *error = "no file of the descriptor set could be built";
    for (const std::string& w : schemas->warnings()) *error += "\n  " + w;
    return nullptr;
  }
  return schemas;
}

std::shared_ptr<const Schemas> load_proto_sources(std::vector<std::pair<std::string, std::string>> files, std::string* error,
                                                  std::vector<std::pair<std::string, std::string>> imports) {
  std::map<std::string, std::string> by_path;
  std::vector<std::string> names;
  for (auto& [path, text] : files) {
    if (path.size() < 6 || path.compare(path.size() - 6, 6, ".proto") != 0) continue;
    if (text.size() > static_cast<size_t>(INT32_MAX)) continue;
    if (by_path.emplace(path, std::move(text)).second) names.push_back(path);
    if (names.size() >= kMaxProtoFiles) break;
  }
  for (auto& [path, text] : imports) by_path.emplace(path, std::move(text));
  return from_sources(std::make_unique<MemorySourceTree>(std::move(by_path)), names,
                      plural(names.size(), ".proto file", ".proto files"), error);
}

std::shared_ptr<const Schemas> load_proto_folder(const std::string& folder, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    *error = folder + ": not a folder";
    return nullptr;
  }
  std::vector<std::string> names;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".proto") continue;
    names.push_back(fs::relative(it->path(), folder, ec).generic_string());
    if (names.size() >= kMaxProtoFiles) break;
  }
  if (ec) {
    *error = folder + ": " + ec.message();
    return nullptr;
  }
  std::sort(names.begin(), names.end());
  auto tree = std::make_unique<gpb::compiler::DiskSourceTree>();
  tree->MapPath("", folder);
  return from_sources(std::move(tree), names, folder, error);
}

}  // namespace logscope::protobuf
