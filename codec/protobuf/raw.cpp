#include "protobuf/raw.h"

#include <climits>
#include <cstring>
#include <map>

namespace logscope::protobuf {

namespace {

struct Reader {
  const uint8_t* begin;
  const uint8_t* p;
  const uint8_t* end;
  bool varint(uint64_t* value) {  // at most 10 bytes, as CodedInputStream
    uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      if (p == end) return false;
      uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
      if (!(b & 0x80)) {
        *value = v;
        return true;
      }
    }
    return false;
  }
  bool fixed(size_t n, uint64_t* value) {
    if (static_cast<size_t>(end - p) < n) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    p += n;
    *value = v;
    return true;
  }
};

enum class Stop { End, EndGroup, Bad };

// WireFormat::SkipMessage: fields until the data ends (End), an end-group tag (EndGroup, its
// number in `end_number`) or a field that does not parse (Bad, with `error`).
Stop parse_fields(Reader& r, int depth_left, std::vector<RawField>* out, uint32_t* end_number, std::string* error) {
  while (r.p != r.end) {
    const uint8_t* at = r.p;
    uint64_t tag64 = 0;
    if (!r.varint(&tag64)) return *error = "a field tag is cut or longer than 10 bytes", Stop::Bad;
    uint32_t tag = static_cast<uint32_t>(tag64);  // ReadTag keeps the low 32 bits
    if (tag == 0) return *error = "a zero tag", Stop::Bad;
    uint8_t wire = tag & 7;
    uint32_t number = tag >> 3;
    if (wire == 4) {
      *end_number = number;
      return Stop::EndGroup;
    }
    if (number == 0) return *error = "field number 0", Stop::Bad;
    RawField f;
    f.number = number;
    f.wire_type = wire;
    switch (wire) {
      case 0:
        if (!r.varint(&f.value)) return *error = "a varint is cut or longer than 10 bytes", Stop::Bad;
        break;
      case 1:
        if (!r.fixed(8, &f.value)) return *error = "a fixed64 is cut", Stop::Bad;
        break;
      case 5:
        if (!r.fixed(4, &f.value)) return *error = "a fixed32 is cut", Stop::Bad;
        break;
      case 2: {
        uint64_t length64 = 0;
        if (!r.varint(&length64)) return *error = "a length is cut", Stop::Bad;
        uint32_t length = static_cast<uint32_t>(length64);  // ReadVarint32 keeps the low 32 bits
        if (length > static_cast<uint32_t>(INT_MAX) || length > static_cast<size_t>(r.end - r.p))
          return *error = "field " + std::to_string(number) + " at byte " + std::to_string(at - r.begin) +
                          " claims " + std::to_string(length) + " bytes; " + std::to_string(r.end - r.p) + " remain",
                 Stop::Bad;
        f.data = r.p;
        f.size = length;
        r.p += length;
        break;
      }
      case 3: {
        if (depth_left <= 0) return *error = "groups nested too deep", Stop::Bad;
        uint32_t closing = 0;
        Stop stop = parse_fields(r, depth_left - 1, &f.group, &closing, error);
        if (stop == Stop::Bad) return Stop::Bad;
        if (stop != Stop::EndGroup || closing != number)
          return *error = "group " + std::to_string(number) + " is not closed by its end-group tag", Stop::Bad;
        break;
      }
      default:
        return *error = "wire type " + std::to_string(wire) + " (field " + std::to_string(number) + ")", Stop::Bad;
    }
    out->push_back(std::move(f));
  }
  return Stop::End;
}

}  // namespace

bool parse_raw_fields(const uint8_t* data, size_t size, int recursion_limit, std::vector<RawField>* out, std::string* error) {
  std::string why;
  Reader r{data, data, data + size};
  uint32_t closing = 0;
  out->clear();
  Stop stop = size ? parse_fields(r, recursion_limit, out, &closing, &why) : Stop::End;
  if (stop == Stop::EndGroup) why = "an end-group tag (field " + std::to_string(closing) + ") outside any group";
  if (stop != Stop::End) {
    out->clear();
    if (error) *error = why;
    return false;
  }
  return true;
}

void raw_leaves(const std::vector<RawField>& fields, int guess_depth, const std::string& prefix,
                const std::vector<uint32_t>& key_prefix, std::vector<Leaf>* out) {
  std::map<uint32_t, uint32_t> count, seen;
  for (const RawField& f : fields) ++count[f.number];
  std::vector<RawField> nested;
  for (const RawField& f : fields) {
    uint32_t index = seen[f.number]++;
    bool indexed = count[f.number] > 1;
    std::string path = prefix.empty() ? std::to_string(f.number) : prefix + "." + std::to_string(f.number);
    if (indexed) path += "[" + std::to_string(index) + "]";
    std::vector<uint32_t> key = key_prefix;
    key.push_back(f.number);
    key.push_back(indexed ? index + 1 : 0);
    switch (f.wire_type) {
      case 0:
      case 1:
      case 5: {
        Leaf leaf;
        leaf.path = std::move(path);
        leaf.key = std::move(key);
        leaf.type = LeafType::Unsigned;
        leaf.u = f.value;
        out->push_back(std::move(leaf));
        break;
      }
      case 2:
        // protoc prints it as a message when it parses as one (and depth is left), else as a string.
        if (f.size > 0 && guess_depth > 0 && parse_raw_fields(f.data, f.size, guess_depth, &nested))
          raw_leaves(std::vector<RawField>(std::move(nested)), guess_depth - 1, path, key, out);
        break;
      case 3:
        raw_leaves(f.group, guess_depth - 1, path, key, out);
        break;
    }
  }
}

bool raw_message_leaves(const uint8_t* data, size_t size, std::vector<Leaf>* out, std::string* error) {
  std::vector<RawField> fields;
  if (!parse_raw_fields(data, size, kParseRecursionLimit, &fields, error)) return false;
  raw_leaves(fields, kGuessDepth, "", {}, out);
  return true;
}

}  // namespace logscope::protobuf
