#include "cdr/decode.h"

#include <vector>

#include "cdr/walk.h"
#include "core/report.h"

namespace logscope::cdr {

bool parse_encapsulation(const uint8_t* data, size_t size, Encapsulation* out, std::string* error) {
  if (size < 4) {
    *error = "the message is " + std::to_string(size) + " bytes, shorter than the 4-byte CDR encapsulation header";
    return false;
  }
  Encapsulation e;
  e.id = static_cast<uint16_t>(data[0] << 8 | data[1]);
  e.options = static_cast<uint16_t>(data[2] << 8 | data[3]);
  // DDS-XTypes 1.3 Table 60 (0x0000-0x0003, 0x0010-0x0015) and DDSI-RTPS 2.5's identifiers for
  // XCDR2 (0x0006-0x000b); the low bit is the byte order (1: little-endian) in every one.
  struct Kind {
    uint16_t id;
    const char* name;
    int version;
    bool delimited, parameter_list;
  };
  static const Kind kinds[] = {
      {0x0000, "CDR_BE", 1, false, false},     {0x0001, "CDR_LE", 1, false, false},
      {0x0002, "PL_CDR_BE", 1, false, true},   {0x0003, "PL_CDR_LE", 1, false, true},
      {0x0006, "CDR2_BE", 2, false, false},    {0x0007, "CDR2_LE", 2, false, false},
      {0x0008, "D_CDR2_BE", 2, true, false},   {0x0009, "D_CDR2_LE", 2, true, false},
      {0x000a, "PL_CDR2_BE", 2, true, true},   {0x000b, "PL_CDR2_LE", 2, true, true},
      {0x0010, "CDR2_BE", 2, false, false},    {0x0011, "CDR2_LE", 2, false, false},
      {0x0012, "PL_CDR2_BE", 2, true, true},   {0x0013, "PL_CDR2_LE", 2, true, true},
      {0x0014, "D_CDR2_BE", 2, true, false},   {0x0015, "D_CDR2_LE", 2, true, false},
  };
  for (const Kind& k : kinds)
    if (k.id == e.id) {
      e.name = k.name;
      e.version = k.version;
      e.delimited = k.delimited;
      e.parameter_list = k.parameter_list;
      e.big_endian = (e.id & 1) == 0;
      *out = e;
      return true;
    }
  *error = "the encapsulation header " + hex_string(data, 4) + " names no CDR representation";
  return false;
}

namespace {

// Every representation of Table 60: plain, delimited and parameter-list (walk.h lays out each).
bool start(const uint8_t* data, size_t size, Encapsulation* e, std::string* error) { return parse_encapsulation(data, size, e, error); }

// Builds the JSON of the walk: a stack of the containers being filled.
class JsonSink : public WalkSink {
 public:
  explicit JsonSink(const DecodeOptions& options) : options_(options) {}
  Json result = Json::object();

  void begin_message(const MessageType&) override { open(Json::object()); }
  void end_message() override { close(); }
  void member(const Field& field, size_t) override { key_ = field.name; }
  void begin_array(const Field&, uint64_t) override { open(Json::array()); }
  void end_array(const Field&, uint64_t count) override {
    if (count > options_.array_preview && stack_.back()->is_array()) {  // {"length", "first"} around the kept elements
      Json wrapped = Json::object();
      wrapped["length"] = count;
      wrapped["first"] = std::move(*stack_.back());
      *stack_.back() = std::move(wrapped);
    }
    close();
  }
  void octets(const Field&, std::string_view bytes) override {
    *stack_.back() = bytes_json(bytes, options_.bytes_preview, options_.raw_bytes);  // replaces the array begin_array() opened (end_array() keeps it)
  }
  bool keep(uint64_t index) override { return index < options_.array_preview; }
  void boolean(bool v) override { put(v); }
  void signed_value(int64_t v) override { put(v); }
  void unsigned_value(uint64_t v) override { put(v); }
  void f32(float v) override { put(static_cast<double>(v)); }
  void f64(double v) override { put(v); }
  void text(std::string_view v) override { put(Json(v)); }

 private:
  void put(Json v) {
    if (stack_.empty()) return;
    Json& top = *stack_.back();
    if (top.is_array()) top.push_back(std::move(v));
    else top[key_] = std::move(v);
  }
  void open(Json container) {
    if (stack_.empty()) {
      result = std::move(container);
      stack_.push_back(&result);
      return;
    }
    Json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(container));
      stack_.push_back(&top.elements().back());
    } else {
      top[key_] = std::move(container);
      stack_.push_back(&top[key_]);
    }
  }
  void close() {
    if (!stack_.empty()) stack_.pop_back();
  }

  const DecodeOptions& options_;
  std::vector<Json*> stack_;
  std::string key_;
};

}  // namespace

Json decode_json(const Schema& schema, const uint8_t* data, size_t size, const DecodeOptions& options, std::string* error) {
  Encapsulation e;
  if (!start(data, size, &e, error)) return Json::object();
  JsonSink sink(options);
  Walker walker(data, size, e, sink);
  walker.run(schema.root(), error);
  return sink.result;
}

bool validate(const Schema& schema, const uint8_t* data, size_t size, std::string* error) {
  Encapsulation e;
  if (!start(data, size, &e, error)) return false;
  WalkSink nothing;
  Walker walker(data, size, e, nothing);
  return walker.run(schema.root(), error);
}

}  // namespace logscope::cdr
