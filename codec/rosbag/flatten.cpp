#include "rosbag/flatten.h"

#include <algorithm>
#include <charconv>

#include "core/cursor.h"

namespace logscope::rosbag {

namespace {

constexpr int kMaxDepth = 32;  // as the decoder: deeper is a self-referencing definition
constexpr uint64_t kMaxEmptyElements = 1 << 20;  // elements that hold no bytes cannot be checked against the data

// Writes one message's values as cells, or as JSON text for a JSON cell.
struct RowWriter {
  Cursor cursor;
  TableWriter& out;
  const std::unordered_set<const FieldSpec*>& spread;
  std::string* error;
  std::string cell;  // the JSON cell being built

  bool fail(const std::string& what) {
    if (error->empty()) *error = what + " (at message byte " + std::to_string(cursor.position()) + ")";
    return false;
  }

  bool fields(const MessageSpec& spec, int depth) {
    if (depth > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    for (const FieldSpec& field : spec.fields) {
      if (field.array == 0) {
        if (!value(field, depth)) return false;
      } else if (spread.count(&field)) {
        for (int64_t i = 0; i < field.array; ++i)
          if (!value(field, depth)) return false;
      } else {
        cell.clear();
        if (!json_array(field, depth)) return false;
        out.json(cell);
      }
    }
    return cursor.ok() || fail("the message ends early");
  }

  bool value(const FieldSpec& field, int depth) {
    switch (field.primitive) {
      case Primitive::Bool: out.boolean(cursor.u8() != 0); break;
      case Primitive::Int8: out.integer(static_cast<int8_t>(cursor.u8())); break;
      case Primitive::UInt8: out.unsigned_integer(cursor.u8()); break;
      case Primitive::Int16: out.integer(cursor.read<int16_t>()); break;
      case Primitive::UInt16: out.unsigned_integer(cursor.u16()); break;
      case Primitive::Int32: out.integer(cursor.i32()); break;
      case Primitive::UInt32: out.unsigned_integer(cursor.u32()); break;
      case Primitive::Int64: out.integer(cursor.i64()); break;
      case Primitive::UInt64: out.unsigned_integer(cursor.u64()); break;
      case Primitive::Float32: out.f32(cursor.f32()); break;
      case Primitive::Float64: out.f64(cursor.f64()); break;
      case Primitive::String: {
        uint32_t length = cursor.u32();
        out.text(cursor.bytes(length));
        break;
      }
      case Primitive::Time: {
        uint32_t secs = cursor.u32(), nsecs = cursor.u32();
        out.unsigned_integer(secs);
        out.unsigned_integer(nsecs);
        break;
      }
      case Primitive::Duration: {
        int32_t secs = cursor.i32(), nsecs = cursor.i32();
        out.integer(secs);
        out.integer(nsecs);
        break;
      }
      case Primitive::Message: return fields(*field.message, depth + 1);
    }
    return cursor.ok() || fail("the message ends inside field '" + field.name + "'");
  }

  // JSON text of one value into `cell`: arrays and nested messages in full.
  bool json_value(const FieldSpec& field, int depth, bool as_array_element) {
    if (field.array != 0 && !as_array_element) return json_array(field, depth);
    char number[32];
    auto put = [&](auto v) {
      auto result = std::to_chars(number, number + sizeof number, v);
      cell.append(number, result.ptr);
    };
    switch (field.primitive) {
      case Primitive::Bool: cell += cursor.u8() != 0 ? "true" : "false"; break;
      case Primitive::Int8: put(static_cast<int>(static_cast<int8_t>(cursor.u8()))); break;
      case Primitive::UInt8: put(static_cast<unsigned>(cursor.u8())); break;
      case Primitive::Int16: put(cursor.read<int16_t>()); break;
      case Primitive::UInt16: put(cursor.u16()); break;
      case Primitive::Int32: put(cursor.i32()); break;
      case Primitive::UInt32: put(cursor.u32()); break;
      case Primitive::Int64: put(cursor.i64()); break;
      case Primitive::UInt64: put(cursor.u64()); break;
      case Primitive::Float32: append_json_f32(cell, cursor.f32()); break;
      case Primitive::Float64: append_json_f64(cell, cursor.f64()); break;
      case Primitive::String: {
        uint32_t length = cursor.u32();
        append_json_string(cell, cursor.bytes(length));
        break;
      }
      case Primitive::Time: case Primitive::Duration: {
        cell += "{\"secs\":";
        if (field.primitive == Primitive::Time) put(cursor.u32()); else put(cursor.i32());
        cell += ",\"nsecs\":";
        if (field.primitive == Primitive::Time) put(cursor.u32()); else put(cursor.i32());
        cell += '}';
        break;
      }
      case Primitive::Message: {
        if (depth + 1 > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
        cell += '{';
        bool first = true;
        for (const FieldSpec& member : field.message->fields) {
          if (!first) cell += ',';
          first = false;
          append_json_string(cell, member.name);
          cell += ':';
          if (!json_value(member, depth + 1, false)) return false;
        }
        cell += '}';
        break;
      }
    }
    return cursor.ok() || fail("the message ends inside field '" + field.name + "'");
  }

  bool json_array(const FieldSpec& field, int depth) {
    uint64_t count = field.array > 0 ? static_cast<uint64_t>(field.array) : cursor.u32();
    if (!cursor.ok()) return fail("the message ends before the length of '" + field.name + "'");
    bool empty_elements = field.primitive == Primitive::Message && field.message->fixed_size == 0;
    if (empty_elements ? count > kMaxEmptyElements : count > cursor.remaining())
      return fail("array '" + field.name + "' of " + std::to_string(count) + " elements does not fit the message");
    cell += '[';
    for (uint64_t i = 0; i < count; ++i) {
      if (i) cell += ',';
      if (!json_value(field, depth, true)) return false;
    }
    cell += ']';
    return true;
  }
};

}  // namespace

FlatLayout::FlatLayout(const MessageSchema& schema) : schema_(schema) { add_fields(schema.root(), "", 0); }

namespace {
// Whether an array field may be spread over columns: fixed and short (its width decides the rest).
bool spreadable(const FieldSpec& field) { return field.array > 0 && static_cast<size_t>(field.array) <= kExportArrayColumns; }
}  // namespace

size_t FlatLayout::columns_of(const FieldSpec& field, int depth) const {
  if (field.primitive == Primitive::Time || field.primitive == Primitive::Duration) return 2;
  if (field.primitive != Primitive::Message) return 1;
  if (depth > kMaxDepth) return 1;
  auto known = widths_.find({field.message, depth});
  if (known != widths_.end()) return known->second;
  size_t total = 0;
  // Only what can be spread is looked into, and the count stops once it is too wide.
  for (const FieldSpec& member : field.message->fields) {
    if (member.array != 0 && !spreadable(member)) {
      total += 1;  // one JSON cell, whatever is inside
    } else {
      size_t one = columns_of(member, depth + 1);
      bool spread = member.array > 0 && one * static_cast<size_t>(member.array) <= kMaxFieldColumns;
      total += member.array == 0 ? one : spread ? one * static_cast<size_t>(member.array) : 1;
    }
    if (total > kMaxFieldColumns) {
      total = kMaxFieldColumns + 1;
      break;
    }
  }
  widths_[{field.message, depth}] = total;
  return total;
}

void FlatLayout::add_fields(const MessageSpec& spec, const std::string& prefix, int depth) {
  if (depth > kMaxDepth) return;  // write_row() reports it for every message
  for (const FieldSpec& field : spec.fields) {
    if (columns_.size() > kMaxColumns || ++steps_ > 4 * kMaxColumns) {
      too_wide_ = true;
      return;
    }
    std::string name = prefix + field.name;
    if (field.array == 0) {
      add_value(field, name, depth);
      continue;
    }
    if (spreadable(field) && columns_of(field, depth) * static_cast<size_t>(field.array) <= kMaxFieldColumns) {
      spread_.insert(&field);
      for (int64_t i = 0; i < field.array; ++i) add_value(field, name + "[" + std::to_string(i) + "]", depth);
    } else {
      columns_.push_back(name);
      kinds_.push_back(TableWriter::Kind::Json);
      json_columns_.push_back(name);
    }
  }
}

void FlatLayout::add_value(const FieldSpec& field, const std::string& name, int depth) {
  if (field.primitive == Primitive::Time || field.primitive == Primitive::Duration) {
    columns_.push_back(name + ".secs");
    columns_.push_back(name + ".nsecs");
    kinds_.insert(kinds_.end(), 2, TableWriter::Kind::Number);
  } else if (field.primitive == Primitive::Message) {
    add_fields(*field.message, name + ".", depth + 1);
  } else {
    columns_.push_back(name);
    kinds_.push_back(field.primitive == Primitive::Bool ? TableWriter::Kind::Bool
                     : field.primitive == Primitive::String ? TableWriter::Kind::Text
                                                            : TableWriter::Kind::Number);
  }
}

bool FlatLayout::write_row(const uint8_t* data, size_t size, TableWriter& out, std::string* error) const {
  error->clear();
  RowWriter writer{Cursor(data, size), out, spread_, error, {}};
  if (!writer.fields(schema_.root(), 0)) return false;
  if (writer.cursor.remaining() > 0)
    return writer.fail(std::to_string(writer.cursor.remaining()) + " bytes are left after the last field");
  return true;
}

}  // namespace logscope::rosbag
