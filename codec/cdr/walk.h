// The one walk over a CDR message by its schema (codec/cdr internal): decode.cpp builds JSON from
// its events, flatten.cpp writes export rows, validate() only checks. Every length is checked
// against the bytes that remain before anything is read; nothing is allocated from a count.
// Structs are laid out as the encapsulation says every struct of the message is (a ros2msg
// definition carries no extensibility of its own; docs/cdr.md, "Delimited and parameter lists"):
// plain (final), delimited (D_CDR2: a DHEADER before each struct) or mutable (PL_CDR2: a DHEADER
// then an EMHEADER per member; PL_CDR: a parameter list closed by a sentinel). Members of a
// mutable struct are found by their ids (declaration order from 0) and reported in declaration
// order, so every sink sees the same events whatever order the writer chose.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
      : reader_(data, size, encapsulation), sink_(sink), padding_(encapsulation.padding()), version_(encapsulation.version),
        framing_(encapsulation.parameter_list ? Framing::Mutable : encapsulation.delimited ? Framing::Delimited : Framing::Final) {}

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

  enum class Framing { Final, Delimited, Mutable };
  // PL_CDR's parameter ids (DDS-XTypes 1.3, 7.4.1.2): the low 14 bits; two of them are not members.
  static constexpr uint16_t kPidExtended = 0x3f01, kPidSentinel = 0x3f02;

  // Where a mutable struct's header places one of its members (length 0 and not found: absent).
  struct MemberSpan {
    bool found = false;
    size_t start = 0, length = 0;
  };
  // Records member `id` at [start, start + length): one slot per field of the definition, never
  // one per header the bytes hold. False when an id the definition lacks must be understood.
  bool place(std::vector<MemberSpan>& members, const MessageType& type, uint32_t id, bool must_understand, size_t start, uint64_t length) {
    if (id < members.size()) {
      members[id] = {true, start, static_cast<size_t>(length)};  // a repeated id: the last one wins
      return true;
    }
    if (must_understand && !type.empty())
      return fail("member id " + std::to_string(id) + " of " + type.name + " must be understood, and the definition has no such member");
    return true;  // a member of a newer version of the type: skipped
  }

  // A DHEADER: the bytes of what follows; `end` is where that ends.
  bool dheader(const std::string& what, size_t* end) {
    uint32_t size = reader_.read<uint32_t>();
    if (!reader_.ok()) return fail("the message ends before the DHEADER of " + what);
    if (size > reader_.remaining())
      return fail("the DHEADER of " + what + " says " + std::to_string(size) + " bytes, " + std::to_string(reader_.remaining()) + " remain");
    *end = reader_.position() + size;
    return true;
  }
  // After what a DHEADER delimits: bytes left are members of a newer version of the type (skipped).
  bool close(size_t end, const std::string& what) {
    if (reader_.position() > end)
      return fail(what + " runs past the end its DHEADER gives (byte " + std::to_string(end) + ")");
    return reader_.seek(end) || fail("the message ends inside " + what);
  }

  bool message(const MessageType& type, int depth, bool emit) {
    if (depth > Schema::kMaxDepth) return fail("nesting deeper than " + std::to_string(Schema::kMaxDepth) + " levels in " + type.name);
    if (framing_ == Framing::Mutable) return mutable_message(type, depth, emit);
    size_t end = 0;
    if (framing_ == Framing::Delimited && !dheader(type.name, &end)) return false;
    if (!final_message(type, depth, emit)) return false;
    return framing_ != Framing::Delimited || close(end, type.name);
  }

  // The members one after the other, as declared.
  bool final_message(const MessageType& type, int depth, bool emit) {
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

  // The member headers first (each checked against the bytes of its struct), then each member of
  // the definition read where its header put it.
  bool mutable_message(const MessageType& type, int depth, bool emit) {
    std::vector<MemberSpan> members(type.fields.size());
    size_t end = 0;
    if (version_ == 2) {
      if (!dheader(type.name, &end)) return false;
      for (;;) {
        // The next EMHEADER, 4-aligned; fewer than 4 bytes before the end are padding.
        size_t at = reader_.position(), next = at + (4 - (at - 4) % 4) % 4;
        if (next + 4 > end) break;
        uint32_t header = reader_.read<uint32_t>();  // EMHEADER1: M_FLAG, LC (3 bits), member id (28 bits)
        if (!reader_.ok() || reader_.position() > end) return fail("the member headers of " + type.name + " run past its DHEADER");
        unsigned lc = (header >> 28) & 7u;
        uint64_t length = 0;
        if (lc < 4) {
          length = uint64_t{1} << lc;
        } else {
          // NEXTINT: its own word for LC 4; for LC 5-7 the member's first word (a DHEADER or a
          // length), which stays part of the member.
          size_t at = reader_.position();
          uint64_t next = reader_.read<uint32_t>();
          if (!reader_.ok()) return fail("the message ends inside a member header of " + type.name);
          if (lc > 4) reader_.seek(at);
          length = lc == 4 ? next : lc == 5 ? 4 + next : lc == 6 ? 4 + 4 * next : 4 + 8 * next;
        }
        if (length > end - reader_.position())
          return fail("member id " + std::to_string(header & 0x0fffffffu) + " of " + type.name + " says " + std::to_string(length) + " bytes, " +
                      std::to_string(end - reader_.position()) + " remain in the struct");
        if (!place(members, type, header & 0x0fffffffu, (header >> 31) != 0, reader_.position(), length)) return false;
        reader_.skip(length);
      }
    } else {
      for (;;) {
        reader_.align(4);
        uint16_t pid = reader_.read<uint16_t>();
        uint64_t length = reader_.read<uint16_t>();
        if (!reader_.ok()) return fail("the message ends inside the parameter list of " + type.name + " (no sentinel)");
        uint32_t id = pid & 0x3fffu;
        if (id == kPidSentinel) break;
        if (id == kPidExtended) {  // then a 32-bit id and a 32-bit length
          id = reader_.read<uint32_t>() & 0x0fffffffu;
          length = reader_.read<uint32_t>();
          if (!reader_.ok()) return fail("the message ends inside an extended parameter header of " + type.name);
        }
        if (length > reader_.remaining())
          return fail("member id " + std::to_string(id) + " of " + type.name + " says " + std::to_string(length) + " bytes, " +
                      std::to_string(reader_.remaining()) + " remain");
        if (!place(members, type, id, (pid & 0x4000u) != 0, reader_.position(), length)) return false;
        reader_.skip(length);
      }
      end = reader_.position();
    }
    if (emit) sink_.begin_message(type);
    for (size_t i = 0; i < type.fields.size(); ++i) {
      const Field& field = type.fields[i];
      const MemberSpan* span = &members[i];
      if (!span->found) return fail("member '" + field.name + "' (id " + std::to_string(i) + ") of " + type.name + " is absent: optional members are not decoded");
      if (emit) sink_.member(field, i);
      reader_.seek(span->start);
      // PL_CDR aligns a member's value from its own start (XTypes' PUSH(ORIGIN=0)), then POPs.
      size_t origin = reader_.origin();
      if (version_ == 1) reader_.set_origin(span->start);
      bool read = field.array == ArrayKind::None ? value(field, depth, emit) : array(field, depth, emit);
      reader_.set_origin(origin);
      if (!read) return false;
      if (reader_.position() > span->start + span->length)
        return fail("member '" + field.name + "' of " + type.name + " runs past the " + std::to_string(span->length) + " bytes its header gives");
    }
    if (emit) sink_.end_message();
    return reader_.seek(end) || fail("the message ends inside " + type.name);
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
    // XCDR2 puts a DHEADER before an array or sequence of non-primitive elements (strings,
    // structs). Read in the delimited and parameter-list encodings, whose writers are XTypes
    // ones; plain CDR2 is read as ROS 2's readers read it, without (docs/cdr.md).
    bool delimited = version_ == 2 && framing_ != Framing::Final &&
                     (field.primitive == Primitive::Message || field.primitive == Primitive::String || field.primitive == Primitive::WString);
    size_t end = 0;
    if (delimited && !dheader("'" + field.name + "'", &end)) return false;
    if (!elements(field, depth, emit)) return false;
    return !delimited || close(end, "'" + field.name + "'");
  }

  bool elements(const Field& field, int depth, bool emit) {
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
  int version_;
  Framing framing_;
  std::string* error_ = nullptr;
};

}  // namespace logscope::cdr
