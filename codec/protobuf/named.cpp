// A message of a named type through the schemas: parsed by a dynamic message, then walked by
// reflection into numeric leaves (named paths) or a JSON tree. Fields come in field-number order
// and map entries sorted by key, as protoc's text printer lists them; unknown fields go through
// the schema-free walker (raw.h) below their message, as protoc prints them.
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <cmath>

#include "core/export.h"
#include "protobuf/raw.h"
#include "protobuf/schema_set.h"

namespace logscope::protobuf {

namespace {

using gpb::FieldDescriptor;
using gpb::Message;
using gpb::Reflection;

// UnknownFieldSet as the raw walker's fields (pointing into the message's strings).
std::vector<RawField> raw_fields(const gpb::UnknownFieldSet& set) {
  std::vector<RawField> out;
  for (int k = 0; k < set.field_count(); ++k) {
    const gpb::UnknownField& u = set.field(k);
    RawField f;
    f.number = static_cast<uint32_t>(u.number());
    switch (u.type()) {
      case gpb::UnknownField::TYPE_VARINT: f.wire_type = 0, f.value = u.varint(); break;
      case gpb::UnknownField::TYPE_FIXED64: f.wire_type = 1, f.value = u.fixed64(); break;
      case gpb::UnknownField::TYPE_FIXED32: f.wire_type = 5, f.value = u.fixed32(); break;
      case gpb::UnknownField::TYPE_LENGTH_DELIMITED:
        f.wire_type = 2;
        f.data = reinterpret_cast<const uint8_t*>(u.length_delimited().data());
        f.size = u.length_delimited().size();
        break;
      case gpb::UnknownField::TYPE_GROUP: f.wire_type = 3, f.group = raw_fields(u.group()); break;
    }
    out.push_back(std::move(f));
  }
  return out;
}

// The order protoc prints a repeated field's elements in: as stored, map entries by key.
std::vector<int> element_order(const Message& m, const Reflection* r, const FieldDescriptor* f) {
  int n = r->FieldSize(m, f);
  std::vector<int> order(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
  if (!f->is_map()) return order;
  const FieldDescriptor* key = f->message_type()->map_key();
  auto less = [&](int a, int b) {
    const Message& ea = r->GetRepeatedMessage(m, f, a);
    const Message& eb = r->GetRepeatedMessage(m, f, b);
    const Reflection* er = ea.GetReflection();
    switch (key->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: return er->GetInt32(ea, key) < er->GetInt32(eb, key);
      case FieldDescriptor::CPPTYPE_INT64: return er->GetInt64(ea, key) < er->GetInt64(eb, key);
      case FieldDescriptor::CPPTYPE_UINT32: return er->GetUInt32(ea, key) < er->GetUInt32(eb, key);
      case FieldDescriptor::CPPTYPE_UINT64: return er->GetUInt64(ea, key) < er->GetUInt64(eb, key);
      case FieldDescriptor::CPPTYPE_BOOL: return er->GetBool(ea, key) < er->GetBool(eb, key);
      case FieldDescriptor::CPPTYPE_STRING: return er->GetString(ea, key) < er->GetString(eb, key);
      default: return false;
    }
  };
  std::stable_sort(order.begin(), order.end(), less);
  return order;
}

std::string field_name(const FieldDescriptor* f) { return f->is_extension() ? "[" + f->full_name() + "]" : f->name(); }

// One scalar (element `index` of a repeated field, or the field) as a leaf; false for strings.
bool scalar_leaf(const Message& m, const Reflection* r, const FieldDescriptor* f, int index, Leaf* leaf) {
  bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      leaf->type = LeafType::Signed, leaf->i = rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_INT64:
      leaf->type = LeafType::Signed, leaf->i = rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_UINT32:
      leaf->type = LeafType::Unsigned, leaf->u = rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_UINT64:
      leaf->type = LeafType::Unsigned, leaf->u = rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      leaf->type = LeafType::Double, leaf->d = rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_FLOAT:
      leaf->type = LeafType::Float, leaf->f = rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f);
      return true;
    case FieldDescriptor::CPPTYPE_BOOL:
      leaf->type = LeafType::Bool, leaf->u = (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? 1 : 0;
      return true;
    case FieldDescriptor::CPPTYPE_ENUM:
      leaf->type = LeafType::Enum, leaf->i = rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
      return true;
    default:
      return false;
  }
}

// A message's numeric leaves at most: each costs about a hundred bytes while a packed bool costs
// one on the wire, so a hostile message is refused here rather than grown into gigabytes.
constexpr size_t kMaxMessageLeaves = 1u << 20;

// Stops adding once `out` holds `limit` leaves.
void message_leaves(const Message& m, const std::string& prefix, const std::vector<uint32_t>& key_prefix, size_t limit,
                    std::vector<Leaf>* out) {
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (out->size() >= limit) return;
    std::string path = prefix.empty() ? field_name(f) : prefix + "." + field_name(f);
    std::vector<uint32_t> key = key_prefix;
    key.push_back(static_cast<uint32_t>(f->number()));
    key.push_back(0);
    auto one = [&](int index, const std::string& at, uint32_t slot) {
      key.back() = slot;
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        message_leaves(index >= 0 ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), at, key, limit, out);
        return;
      }
      if (out->size() >= limit) return;
      Leaf leaf;
      if (!scalar_leaf(m, r, f, index, &leaf)) return;
      leaf.path = at;
      leaf.key = key;
      out->push_back(std::move(leaf));
    };
    if (!f->is_repeated()) {
      one(-1, path, 0);
      continue;
    }
    std::vector<int> order = element_order(m, r, f);
    for (size_t k = 0; k < order.size() && out->size() < limit; ++k)
      one(order[k], path + "[" + std::to_string(k) + "]", static_cast<uint32_t>(k + 1));
  }
  const gpb::UnknownFieldSet& unknown = r->GetUnknownFields(m);
  if (!unknown.empty() && out->size() < limit) raw_leaves(raw_fields(unknown), kGuessDepth, prefix, key_prefix, out);
}

std::string hex_of(const std::string& bytes, size_t max) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  size_t n = std::min(bytes.size(), max);
  out.reserve(2 * n + 3);
  for (size_t k = 0; k < n; ++k) {
    out += digits[static_cast<uint8_t>(bytes[k]) >> 4];
    out += digits[static_cast<uint8_t>(bytes[k]) & 15];
  }
  if (n < bytes.size()) out += "…";
  return out;
}

Json finite_or_text(double v) {
  if (std::isfinite(v)) return Json(v);
  return Json(format_f64(v));
}

struct JsonWalk {
  const JsonLimits& limits;
  size_t values = 0;
  bool truncated = false;

  bool spend() {
    if (values >= limits.max_values) {
      truncated = true;
      return false;
    }
    ++values;
    return true;
  }

  Json scalar(const Message& m, const Reflection* r, const FieldDescriptor* f, int index) {
    bool rep = index >= 0;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: return Json(static_cast<int64_t>(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f)));
      case FieldDescriptor::CPPTYPE_INT64: return Json(std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f)));
      case FieldDescriptor::CPPTYPE_UINT32: return Json(static_cast<uint64_t>(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f)));
      case FieldDescriptor::CPPTYPE_UINT64: return Json(std::to_string(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f)));
      case FieldDescriptor::CPPTYPE_DOUBLE: return finite_or_text(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
      case FieldDescriptor::CPPTYPE_FLOAT: return finite_or_text(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f));
      case FieldDescriptor::CPPTYPE_BOOL: return Json(rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f));
      case FieldDescriptor::CPPTYPE_ENUM: {
        int number = rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
        const gpb::EnumValueDescriptor* value = f->enum_type()->FindValueByNumber(number);
        return value ? Json(value->name()) : Json(static_cast<int64_t>(number));
      }
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string scratch;
        const std::string& text = rep ? r->GetRepeatedStringReference(m, f, index, &scratch) : r->GetStringReference(m, f, &scratch);
        if (f->type() == FieldDescriptor::TYPE_BYTES) return Json(hex_of(text, limits.max_bytes_shown));
        return Json(text);
      }
      case FieldDescriptor::CPPTYPE_MESSAGE:
        return message(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f));
    }
    return Json();
  }

  Json message(const Message& m) {
    Json object = Json::object();
    const Reflection* r = m.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    r->ListFields(m, &fields);
    for (const FieldDescriptor* f : fields) {
      if (truncated) break;
      if (!f->is_repeated()) {
        if (spend()) object[field_name(f)] = scalar(m, r, f, -1);
        continue;
      }
      Json array = Json::array();
      for (int index : element_order(m, r, f)) {
        if (!spend()) break;
        array.push_back(scalar(m, r, f, index));
      }
      object[field_name(f)] = std::move(array);
    }
    const gpb::UnknownFieldSet& unknown = r->GetUnknownFields(m);
    if (!unknown.empty() && !truncated) {
      // Unknown fields as numeric leaves by field number (strings and bytes by length).
      Json list = Json::array();
      std::vector<Leaf> leaves;
      raw_leaves(raw_fields(unknown), kGuessDepth, "", {}, &leaves);
      for (const Leaf& leaf : leaves) {
        if (!spend()) break;
        Json item = Json::object();
        item["path"] = leaf.path;
        item["value"] = std::to_string(leaf.u);
        list.push_back(std::move(item));
      }
      object["[unknown]"] = std::move(list);
    }
    return object;
  }
};

}  // namespace

bool SchemaSet::has_type(const std::string& type_name) const { return pool_->FindMessageTypeByName(type_name) != nullptr; }

std::unique_ptr<Message> SchemaSet::parse(const std::string& type_name, const uint8_t* data, size_t size, std::string* error) const {
  const gpb::Descriptor* type = pool_->FindMessageTypeByName(type_name);
  if (!type) {
    *error = "the schemas (" + description_ + ") have no message type " + type_name;
    return nullptr;
  }
  const Message* prototype = factory_.GetPrototype(type);
  if (!prototype) {
    *error = "no message can be made for " + type_name;
    return nullptr;
  }
  std::unique_ptr<Message> message(prototype->New());
  if (size > static_cast<size_t>(INT32_MAX) || !message->ParsePartialFromArray(data, static_cast<int>(size))) {
    std::string why;
    std::vector<RawField> fields;
    parse_raw_fields(data, size, kParseRecursionLimit, &fields, &why);
    *error = "the " + std::to_string(size) + " bytes do not parse as " + type_name + (why.empty() ? "" : " (" + why + ")");
    return nullptr;
  }
  return message;
}

bool SchemaSet::numeric_leaves(const std::string& type_name, const uint8_t* data, size_t size, std::vector<Leaf>* out,
                               std::string* error) const {
  std::unique_ptr<Message> message = parse(type_name, data, size, error);
  if (!message) return false;
  size_t start = out->size();
  message_leaves(*message, "", {}, start + kMaxMessageLeaves, out);
  if (out->size() - start >= kMaxMessageLeaves) {
    out->resize(start);
    *error = "the " + type_name + " message has more than " + std::to_string(kMaxMessageLeaves - 1) + " numeric values; it is left out";
    return false;
  }
  return true;
}

Json SchemaSet::message_json(const std::string& type_name, const uint8_t* data, size_t size, const JsonLimits& limits) const {
  Json j = Json::object();
  j["type_name"] = type_name;
  std::string error;
  std::unique_ptr<Message> message = parse(type_name, data, size, &error);
  if (!message) {
    j["error"] = error;
    return j;
  }
  JsonWalk walk{limits};
  j["message"] = walk.message(*message);
  j["truncated"] = walk.truncated;
  return j;
}

}  // namespace logscope::protobuf
