#include "cdr/flatten.h"

#include <charconv>

#include "cdr/walk.h"

namespace logscope::cdr {
namespace {

bool spreadable(const Field& field) { return field.array == ArrayKind::Fixed && field.array_size <= kExportArrayColumns; }

// Cells of one row from the walk: top-level values are cells, an array that is not spread is one
// JSON cell holding everything inside it.
class RowSink : public WalkSink {
 public:
  RowSink(TableWriter& out, const std::unordered_set<const Field*>& spread) : out_(out), spread_(spread) {}

  void begin_message(const MessageType&) override {
    if (json_) cell_ += '{';
  }
  void end_message() override {
    if (json_) cell_ += '}';
  }
  void member(const Field& field, size_t index) override {
    if (!json_) return;
    if (index) cell_ += ',';
    append_json_string(cell_, field.name);
    cell_ += ':';
  }
  void begin_array(const Field& field, uint64_t) override {
    if (!json_ && spread_.count(&field)) return;
    if (!json_) cell_.clear();
    ++json_;
    cell_ += '[';
  }
  void element(uint64_t index) override {
    if (json_ && index) cell_ += ',';
  }
  void end_array(const Field& field, uint64_t) override {
    if (!json_) return;  // a spread array
    (void)field;
    cell_ += ']';
    if (--json_ == 0) out_.json(cell_);
  }
  void octets(const Field&, std::string_view bytes) override {
    for (size_t i = 0; i < bytes.size(); ++i) {
      element(i);
      unsigned_value(static_cast<uint8_t>(bytes[i]));
    }
  }
  void boolean(bool v) override {
    if (json_) cell_ += v ? "true" : "false";
    else out_.boolean(v);
  }
  void signed_value(int64_t v) override {
    if (json_) number(v);
    else out_.integer(v);
  }
  void unsigned_value(uint64_t v) override {
    if (json_) number(v);
    else out_.unsigned_integer(v);
  }
  void f32(float v) override {
    if (json_) append_json_f32(cell_, v);
    else out_.f32(v);
  }
  void f64(double v) override {
    if (json_) append_json_f64(cell_, v);
    else out_.f64(v);
  }
  void text(std::string_view v) override {
    if (json_) append_json_string(cell_, v);
    else out_.text(v);
  }

 private:
  template <typename T>
  void number(T v) {
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    cell_.append(buffer, result.ptr);
  }

  TableWriter& out_;
  const std::unordered_set<const Field*>& spread_;
  int json_ = 0;  // depth inside a JSON cell
  std::string cell_;
};

}  // namespace

FlatLayout::FlatLayout(const Schema& schema) : schema_(schema) { add_fields(schema.root(), "", 0); }

size_t FlatLayout::width(const Field& field, int depth) const {
  if (field.primitive != Primitive::Message) return 1;
  if (depth > Schema::kMaxDepth) return 1;
  auto known = widths_.find({field.message, depth});
  if (known != widths_.end()) return known->second;
  size_t total = 0;
  for (const Field& member : field.message->fields) {
    if (member.array != ArrayKind::None && !spreadable(member)) total += 1;
    else total += member.array == ArrayKind::None ? width(member, depth + 1) : width(member, depth + 1) * member.array_size;
    if (total > kMaxFieldColumns) {
      total = kMaxFieldColumns + 1;
      break;
    }
  }
  widths_[{field.message, depth}] = total;
  return total;
}

void FlatLayout::add_fields(const MessageType& type, const std::string& prefix, int depth) {
  if (depth > Schema::kMaxDepth) return;  // write_row() reports it for every message
  for (const Field& field : type.fields) {
    if (columns_.size() > kMaxColumns || ++steps_ > 4 * kMaxColumns) {
      too_wide_ = true;
      return;
    }
    std::string name = prefix + field.name;
    if (field.array == ArrayKind::None) {
      add_value(field, name, depth);
    } else if (spreadable(field) && width(field, depth) * field.array_size <= kMaxFieldColumns) {
      spread_.insert(&field);
      for (uint64_t i = 0; i < field.array_size; ++i) add_value(field, name + "[" + std::to_string(i) + "]", depth);
    } else {
      columns_.push_back(name);
      kinds_.push_back(TableWriter::Kind::Json);
      json_columns_.push_back(name);
    }
  }
}

void FlatLayout::add_value(const Field& field, const std::string& name, int depth) {
  if (field.primitive == Primitive::Message) {
    add_fields(*field.message, name + ".", depth + 1);
    return;
  }
  columns_.push_back(name);
  kinds_.push_back(field.primitive == Primitive::Bool ? TableWriter::Kind::Bool
                   : field.primitive == Primitive::String || field.primitive == Primitive::WString ? TableWriter::Kind::Text
                                                                                                    : TableWriter::Kind::Number);
}

bool FlatLayout::write_row(const uint8_t* data, size_t size, TableWriter& out, std::string* error) const {
  Encapsulation e;
  if (!parse_encapsulation(data, size, &e, error)) return false;
  RowSink sink(out, spread_);
  Walker walker(data, size, e, sink);
  return walker.run(schema_.root(), error);
}

}  // namespace logscope::cdr
