#include "bddf/wire.h"

#include <cstring>

namespace logscope::bddf {
namespace {

bool read_varint(const uint8_t* data, size_t size, size_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *pos < size; shift += 7) {
    uint8_t byte = data[(*pos)++];
    result |= uint64_t{byte & 0x7Fu} << shift;
    if (!(byte & 0x80)) {
      *value = result;
      return true;
    }
  }
  return false;
}

struct RawField {
  uint32_t number = 0;
  int wire_type = 0;
  size_t start = 0;        // tag position
  size_t value_start = 0;  // value (after the length for LEN)
  size_t value_size = 0;
  uint64_t scalar = 0;
};

// Reads one field at *pos; false on malformed input (position unchanged then).
bool next_field(const uint8_t* data, size_t size, size_t* pos, RawField* field) {
  size_t p = *pos;
  uint64_t tag;
  if (!read_varint(data, size, &p, &tag)) return false;
  field->start = *pos;
  field->number = static_cast<uint32_t>(tag >> 3);
  field->wire_type = static_cast<int>(tag & 7);
  if (field->number == 0 || (tag >> 3) > 0x1FFFFFFF) return false;
  switch (field->wire_type) {
    case 0:
      field->value_start = p;
      if (!read_varint(data, size, &p, &field->scalar)) return false;
      field->value_size = p - field->value_start;
      break;
    case 1:
      if (size - p < 8) return false;
      field->value_start = p;
      field->value_size = 8;
      std::memcpy(&field->scalar, data + p, 8);
      p += 8;
      break;
    case 5: {
      if (size - p < 4) return false;
      uint32_t v;
      std::memcpy(&v, data + p, 4);
      field->scalar = v;
      field->value_start = p;
      field->value_size = 4;
      p += 4;
      break;
    }
    case 2: {
      uint64_t length;
      if (!read_varint(data, size, &p, &length) || length > size - p) return false;
      field->value_start = p;
      field->value_size = static_cast<size_t>(length);
      p += static_cast<size_t>(length);
      break;
    }
    default: return false;  // groups (3, 4) are long dead; treat as not-a-message
  }
  *pos = p;
  return true;
}

bool is_utf8_text(const uint8_t* data, size_t size) {
  size_t i = 0;
  while (i < size) {
    uint8_t c = data[i];
    if (c < 0x80) {
      if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
      ++i;
      continue;
    }
    int extra = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0 || size - i <= static_cast<size_t>(extra)) return false;
    for (int k = 1; k <= extra; ++k)
      if ((data[i + k] & 0xC0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

const char* wire_type_name(int type) {
  switch (type) {
    case 0: return "varint";
    case 1: return "fixed64";
    case 2: return "len";
    case 5: return "fixed32";
  }
  return "invalid";
}

struct Decoder {
  const WireLimits& limits;
  size_t budget;
  bool truncated = false;

  Json message(const uint8_t* data, size_t size, uint64_t base, int depth) {
    Json fields = Json::array();
    size_t pos = 0;
    while (pos < size) {
      if (budget == 0) {
        truncated = true;
        break;
      }
      RawField f;
      if (!next_field(data, size, &pos, &f)) break;  // callers only pass well-formed messages
      --budget;
      Json j = Json::object();
      j["field"] = f.number;
      j["wire_type"] = wire_type_name(f.wire_type);
      j["offset"] = base + f.start;
      if (f.wire_type == 0) {
        j["value"] = f.scalar;
      } else if (f.wire_type == 1) {
        double d;
        std::memcpy(&d, &f.scalar, 8);
        j["value"] = f.scalar;
        j["as_double"] = d;
      } else if (f.wire_type == 5) {
        float v;
        uint32_t bits = static_cast<uint32_t>(f.scalar);
        std::memcpy(&v, &bits, 4);
        j["value"] = f.scalar;
        j["as_float"] = static_cast<double>(v);
      } else {
        const uint8_t* value = data + f.value_start;
        j["length"] = f.value_size;
        if (f.value_size > 0 && depth < limits.max_depth && is_wire_message(value, f.value_size, limits.max_depth - depth)) {
          j["message"] = message(value, f.value_size, base + f.value_start, depth + 1);
        } else if (is_utf8_text(value, f.value_size)) {
          size_t shown = f.value_size;
          if (shown > limits.max_string) {
            shown = limits.max_string;
            while (shown > 0 && (value[shown] & 0xC0) == 0x80) --shown;  // do not cut a character
            j["cut"] = true;
          }
          j["string"] = std::string(reinterpret_cast<const char*>(value), shown);
        } else {
          size_t shown = f.value_size < limits.max_string ? f.value_size : limits.max_string;
          j["bytes_hex"] = hex_string(value, shown);
          if (shown < f.value_size) j["cut"] = true;
        }
      }
      fields.push_back(std::move(j));
    }
    return fields;
  }
};

void spans_of(const uint8_t* data, size_t size, uint64_t base, int depth, size_t max_spans, const WireSchema* schema,
              std::vector<Span>& out, size_t& used) {
  size_t pos = 0;
  RawField f;
  while (pos < size && used < max_spans && next_field(data, size, &pos, &f)) {
    ++used;
    Span span;
    span.offset = base + f.start;
    span.length = pos - f.start;
    const WireSchemaField* known = schema ? schema->find(static_cast<int>(f.number)) : nullptr;
    span.name = (known ? std::string(known->name) + " " : std::string()) + "(field " + std::to_string(f.number) + ", " +
                wire_type_name(f.wire_type) + ")";
    span.kind = "field";
    // Known scalars and strings are leaves; unknown length-delimited fields are guessed.
    bool nested = known ? known->message != nullptr : is_wire_message(data + f.value_start, f.value_size, 4);
    if (f.wire_type == 2 && depth > 1 && f.value_size > 0 && nested)
      spans_of(data + f.value_start, f.value_size, base + f.value_start, depth - 1, max_spans,
               known ? known->message : nullptr, span.children, used);
    out.push_back(std::move(span));
  }
}

}  // namespace

bool is_wire_message(const uint8_t* data, size_t size, int depth_left) {
  (void)depth_left;
  size_t pos = 0;
  RawField f;
  while (pos < size)
    if (!next_field(data, size, &pos, &f)) return false;
  return true;
}

Json decode_wire(const uint8_t* data, size_t size, uint64_t base_offset, const WireLimits& limits) {
  Json out = Json::object();
  Decoder decoder{limits, limits.max_fields};
  bool well_formed = is_wire_message(data, size);
  out["fields"] = decoder.message(data, size, base_offset, 0);
  out["truncated"] = decoder.truncated;
  if (decoder.truncated) out["note"] = "only the first " + std::to_string(limits.max_fields) + " fields are shown";
  if (!well_formed) out["error"] = "the bytes are not a well-formed protobuf message past the fields shown";
  return out;
}

std::vector<Span> wire_spans(const uint8_t* data, size_t size, uint64_t base_offset, int depth, size_t max_spans,
                             const WireSchema* schema) {
  std::vector<Span> out;
  size_t used = 0;
  spans_of(data, size, base_offset, depth, max_spans, schema, out, used);
  return out;
}

}  // namespace logscope::bddf
