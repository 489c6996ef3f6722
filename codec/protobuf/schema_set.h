// The Schemas implementation over the full libprotobuf (private to codec/protobuf): a descriptor
// pool fed by a database (a descriptor set's files, or .proto text parsed on demand) with the
// well-known types compiled into libprotobuf behind it, and a dynamic message factory.
#pragma once

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protobuf/schemas.h"

namespace logscope::protobuf {

namespace gpb = google::protobuf;

// Collects the pool's and the .proto parser's errors as lines of text.
class ErrorLines : public gpb::DescriptorPool::ErrorCollector, public gpb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& filename, const std::string& element_name, const gpb::Message*, ErrorLocation,
                const std::string& message) override {
    add(filename + (element_name.empty() ? "" : " (" + element_name + ")") + ": " + message);
  }
  void AddError(const std::string& filename, int line, int column, const std::string& message) override {
    add(filename + (line >= 0 ? ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) : "") + ": " + message);
  }
  // Takes the lines collected so far.
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(lines_);
  }

 private:
  void add(std::string line) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (lines_.size() < 100) lines_.push_back(std::move(line));
  }
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

class SchemaSet : public Schemas {
 public:
  // `primary`: the user's files (a descriptor set's database, or .proto text through a source
  // tree); the well-known types are found behind it. `source` describes it for messages.
  SchemaSet(std::unique_ptr<gpb::DescriptorDatabase> primary, std::unique_ptr<gpb::compiler::SourceTree> tree,
            std::unique_ptr<ErrorLines> errors, std::string source);
  // Builds every file of `names` now, so a broken one is a warning at load rather than later.
  // Returns how many built.
  size_t build_files(const std::vector<std::string>& names);

  bool has_type(const std::string& type_name) const override;
  bool numeric_leaves(const std::string& type_name, const uint8_t* data, size_t size, std::vector<Leaf>* out,
                      std::string* error) const override;
  Json message_json(const std::string& type_name, const uint8_t* data, size_t size, const JsonLimits& limits) const override;
  std::string description() const override { return description_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  std::vector<std::string> message_types() const override;

 private:
  // A parsed message of `type_name`, or null with `error`.
  std::unique_ptr<gpb::Message> parse(const std::string& type_name, const uint8_t* data, size_t size, std::string* error) const;

  std::unique_ptr<gpb::compiler::SourceTree> tree_;  // before the databases that read it
  std::unique_ptr<ErrorLines> errors_;
  std::unique_ptr<gpb::DescriptorDatabase> primary_;
  std::unique_ptr<gpb::DescriptorPoolDatabase> well_known_;
  std::unique_ptr<gpb::MergedDescriptorDatabase> merged_;
  std::unique_ptr<gpb::DescriptorPool> pool_;
  mutable gpb::DynamicMessageFactory factory_;
  std::string source_;
  std::string description_;
  std::vector<std::string> warnings_;
  std::vector<const gpb::FileDescriptor*> files_;  // built by build_files
};

}  // namespace logscope::protobuf
