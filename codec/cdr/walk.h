// The one walk over a CDR message by its schema (codec/cdr internal): decode.cpp builds JSON from
// its events, flatten.cpp writes export rows, validate() only checks. Every length is checked
// against the bytes that remain before anything is read; nothing is allocated from a count.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cdr/reader.h"
#include "cdr/schema.h"

namespace logscope::cdr {

// What the walk reports, in wire order. Numbers come as the widest type of their kind.
class WalkSink {
 public:
  virtual ~WalkSink() = default;
  virtual void begin_message(const MessageType&) {}
  virtual void end_message() {}
  virtual void member(const Field&, size_t /*index among the type's fields*/) {}
  virtual void begin_array(const Field&, uint64_t /*count*/) {}
  virtual void element(uint64_t /*index*/) {}
  virtual void end_array(const Field&, uint64_t /*count*/) {}
  // A whole uint8/char/byte array at once (its elements are not reported one by one).
  virtual void octets(const Field&, std::string_view) {}
  virtual void boolean(bool) {}
  virtual void signed_value(int64_t) {}
  virtual void unsigned_value(uint64_t) {}
  virtual void f32(float) {}
  virtual void f64(double) {}
  virtual void text(std::string_view) {}
  // Arrays: whether element `index` is reported; the rest are read but not reported.
  virtual bool keep(uint64_t /*index*/) { return true; }
};

class Walker {
 public:
  Walker(const uint8_t* data, size_t size, const Encapsulation& encapsulation, WalkSink& sink)
      : reader_(data, size, encapsulation), sink_(sink), padding_(encapsulation.padding()) {}

  // Walks the root type; false with `error` (naming the field and the byte) when the bytes do not
  // fit the definition, including bytes left over beyond the trailing padding.
  bool run(const MessageType& root, std::string* error) {
    error_ = error;
    error_->clear();
    if (!message(root, 0, true)) return false;
    size_t left = reader_.remaining();
    // The writer may pad the message to a multiple of 4 (the header's options say how much).
    bool padded = left <= 3 && (left == padding_ || (padding_ == 0 && (reader_.consumed() + left) % 4 == 0));
    if (left && !padded)
      return fail(std::to_string(left) + " bytes are left after the last field: the definition does not match the data");
    return true;
  }

 private:
  bool fail(const std::string& what) {
    if (error_->empty()) *error_ = what + " (at message byte " + std::to_string(reader_.position()) + ")";
    return false;
  }
  bool ended(const Field& field) { return fail("the message ends inside field '" + field.name + "'"); }

  bool message(const MessageType& type, int depth, bool emit) {
    if (depth > Schema::kMaxDepth) return fail("nesting deeper than " + std::to_string(Schema::kMaxDepth) + " levels in " + type.name);
    if (emit) sink_.begin_message(type);
    if (type.empty()) {  // one placeholder octet on the wire
      reader_.read<uint8_t>();
      if (!reader_.ok()) return fail("the message ends inside the empty type " + type.name);
    }
    for (size_t i = 0; i < type.fields.size(); ++i) {
      const Field& field = type.fields[i];
      if (emit) sink_.member(field, i);
      if (!(field.array == ArrayKind::None ? value(field, depth, emit) : array(field, depth, emit))) return false;
    }
    if (emit) sink_.end_message();
    return true;
  }

  bool value(const Field& field, int depth, bool emit) {
    switch (field.primitive) {
      case Primitive::Bool: { uint8_t v = reader_.read<uint8_t>(); if (emit) sink_.boolean(v != 0); break; }
      case Primitive::Int8: { int8_t v = reader_.read<int8_t>(); if (emit) sink_.signed_value(v); break; }
      case Primitive::UInt8: { uint8_t v = reader_.read<uint8_t>(); if (emit) sink_.unsigned_value(v); break; }
      case Primitive::Int16: { int16_t v = reader_.read<int16_t>(); if (emit) sink_.signed_value(v); break; }
      case Primitive::UInt16: { uint16_t v = reader_.read<uint16_t>(); if (emit) sink_.unsigned_value(v); break; }
      case Primitive::Int32: { int32_t v = reader_.read<int32_t>(); if (emit) sink_.signed_value(v); break; }
      case Primitive::UInt32: { uint32_t v = reader_.read<uint32_t>(); if (emit) sink_.unsigned_value(v); break; }
      case Primitive::Int64: { int64_t v = reader_.read<int64_t>(); if (emit) sink_.signed_value(v); break; }
      case Primitive::UInt64: { uint64_t v = reader_.read<uint64_t>(); if (emit) sink_.unsigned_value(v); break; }
      case Primitive::Float32: { float v = reader_.read<float>(); if (emit) sink_.f32(v); break; }
      case Primitive::Float64: { double v = reader_.read<double>(); if (emit) sink_.f64(v); break; }
      case Primitive::String: {
        // uint32 length counting the terminating NUL, then the bytes and the NUL.
        uint32_t length = reader_.read<uint32_t>();
        if (!reader_.ok()) return ended(field);
        if (length > reader_.remaining())
          return fail("string '" + field.name + "' of " + std::to_string(length) + " bytes, " + std::to_string(reader_.remaining()) + " remain");
        if (field.string_bound && length > field.string_bound + 1)
          return fail("string '" + field.name + "' of " + std::to_string(length - 1) + " characters is longer than its bound " + std::to_string(field.string_bound));
        std::string_view bytes = reader_.bytes(length);
        if (emit) sink_.text(bytes.empty() ? bytes : bytes.substr(0, bytes.size() - 1));
        break;
      }
      case Primitive::WString:
        return fail("field '" + field.name + "' is a wstring, whose character width is implementation-defined: not decoded");
      case Primitive::Message:
        return message(*field.message, depth + 1, emit);
    }
    return reader_.ok() || ended(field);
  }

  bool array(const Field& field, int depth, bool emit) {
    uint64_t count = field.array_size;
    if (field.is_sequence()) {
      count = reader_.read<uint32_t>();
      if (!reader_.ok()) return fail("the message ends before the length of '" + field.name + "'");
      if (field.array == ArrayKind::Bounded && count > field.array_size)
        return fail("sequence '" + field.name + "' of " + std::to_string(count) + " elements is longer than its bound " + std::to_string(field.array_size));
    }
    // Every element takes at least one byte (an empty type one placeholder octet), a primitive its size.
    uint64_t least = field.primitive == Primitive::Message ? 1 : primitive_size(field.primitive);
    if (count > reader_.remaining() / least)
      return fail("array '" + field.name + "' of " + std::to_string(count) + " " + field.type_name + " needs at least " +
                  std::to_string(count * least) + " bytes, " + std::to_string(reader_.remaining()) + " remain");
    if (emit) sink_.begin_array(field, count);
    if (field.primitive == Primitive::UInt8 && count > 0) {
      std::string_view bytes = reader_.bytes(count);
      if (emit) sink_.octets(field, bytes);
    } else if (field.primitive != Primitive::Message && field.primitive != Primitive::String && field.primitive != Primitive::WString) {
      // Aligned once, the elements are contiguous: all of them must be there before any is read, so
      // the walk fails at the same byte whichever elements its sink keeps.
      size_t size = primitive_size(field.primitive);
      if (count > 0 && !reader_.align(size)) return ended(field);
      if (count > reader_.remaining() / size)
        return fail("array '" + field.name + "' of " + std::to_string(count) + " " + field.type_name + " needs " +
                    std::to_string(count * size) + " bytes, " + std::to_string(reader_.remaining()) + " remain");
      for (uint64_t i = 0; i < count; ++i) {
        bool keep = emit && sink_.keep(i);
        if (!keep) {  // the rest at once
          reader_.skip((count - i) * size);
          break;
        }
        sink_.element(i);
        if (!value(field, depth, true)) return false;
      }
    } else {
      for (uint64_t i = 0; i < count; ++i) {
        bool keep = emit && sink_.keep(i);
        if (keep) sink_.element(i);
        if (!value(field, depth, keep)) return false;
      }
    }
    if (!reader_.ok()) return ended(field);
    if (emit) sink_.end_array(field, count);
    return true;
  }

  CdrReader reader_;
  WalkSink& sink_;
  unsigned padding_;
  std::string* error_ = nullptr;
};

}  // namespace logscope::cdr
