// The protobuf tests' independent side: protoc (Debian's protobuf-compiler) run on payload bytes,
// its text output walked to numeric leaf paths, and an export's rows compared with them.
#pragma once

#include <doctest/doctest.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "test_support.h"

namespace protobuf_support {

namespace gpb = google::protobuf;

// Runs a shell command with `input` as its stdin file; stdout and the exit status.
inline std::string run(const std::string& command, const std::string& input, int* status) {
  std::string full = command + (input.empty() ? "" : " < '" + input + "'") + " 2>/dev/null";
  FILE* pipe = ::popen(full.c_str(), "r");
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  *status = WEXITSTATUS(::pclose(pipe));
  return out;
}

inline std::string proto_root() { return std::string(LOGSCOPE_SOURCE_DIR) + "/tests/fixtures/proto"; }

// The test schemas as a FileDescriptorSet built by protoc; its path.
inline std::string build_descriptor_set(const std::string& dir) {
  std::string out = dir + "/bosdyn.desc";
  int status = 0;
  run("protoc -I '" + proto_root() + "' --descriptor_set_out='" + out +
          "' --include_imports bosdyn/api/robot_state.proto bosdyn/api/data_buffer.proto bosdyn/api/image.proto",
      "", &status);
  REQUIRE(status == 0);
  return out;
}

// protoc's text output as a tree: `name: value` leaves and `name { ... }` nodes, in order.
struct TextNode {
  std::string name;
  std::string value;  // leaves
  bool message = false;
  std::vector<TextNode> children;
};

inline bool parse_text(const std::string& text, TextNode* root) {
  std::vector<TextNode*> stack{root};
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    line = line.substr(first);
    if (line == "}") {
      if (stack.size() < 2) return false;
      stack.pop_back();
      continue;
    }
    TextNode node;
    if (line.size() > 2 && line.compare(line.size() - 2, 2, " {") == 0) {
      node.name = line.substr(0, line.size() - 2);
      node.message = true;
      stack.back()->children.push_back(std::move(node));
      stack.push_back(&stack.back()->children.back());
      continue;
    }
    size_t colon = line.find(": ");
    if (colon == std::string::npos) return false;
    node.name = line.substr(0, colon);
    node.value = line.substr(colon + 2);
    stack.back()->children.push_back(std::move(node));
  }
  return stack.size() == 1;
}

// A numeric leaf as protoc printed it, with what its text means.
struct TextLeaf {
  std::string token;
  const gpb::FieldDescriptor* field = nullptr;  // null: a wire field (printed by number)
};

inline bool is_number_name(const std::string& name) { return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos; }

// Paths as logscope names them: with a type, repeated fields always indexed; wire fields (and
// every field without a type) indexed when their number occurs more than once in the message.
inline void text_leaves(const TextNode& node, const gpb::Descriptor* type, const std::string& prefix,
                        std::map<std::string, TextLeaf>* out) {
  std::map<std::string, int> count, seen;
  for (const TextNode& c : node.children) ++count[c.name];
  for (const TextNode& c : node.children) {
    const gpb::FieldDescriptor* field = nullptr;
    if (type && !is_number_name(c.name)) {
      field = type->FindFieldByName(c.name);
      REQUIRE_MESSAGE(field != nullptr, "protoc printed a field the type does not have: " << c.name);
    }
    int index = seen[c.name]++;
    bool indexed = field ? field->is_repeated() : count[c.name] > 1;
    std::string path = (prefix.empty() ? "" : prefix + ".") + c.name + (indexed ? "[" + std::to_string(index) + "]" : "");
    if (c.message) {
      text_leaves(c, field ? field->message_type() : nullptr, path, out);
      continue;
    }
    if (!c.value.empty() && c.value[0] == '"') continue;  // strings and bytes are not numeric
    if (field && field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_STRING) continue;
    (*out)[path] = TextLeaf{c.value, field};
  }
}

// True when the exported JSON value is the value protoc printed.
inline bool same_value(const TextLeaf& leaf, const logscope::Json& cell, std::string* why) {
  using FD = gpb::FieldDescriptor;
  const std::string& t = leaf.token;
  auto number_text = [&](double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    return std::string(b);
  };
  double exported = cell.is_string() ? std::strtod(cell.as_string().c_str(), nullptr) : cell.as_double();
  if (!leaf.field) {  // a wire field: an unsigned integer, fixed32/fixed64 by their bit pattern (0x...)
    unsigned long long expected = std::strtoull(t.c_str(), nullptr, 0);
    *why = "protoc " + t + ", export " + cell.dump();
    return cell.is_number_unsigned() || cell.is_number_integer() ? cell.as_uint() == expected : false;
  }
  *why = "protoc " + t + ", export " + cell.dump();
  switch (leaf.field->cpp_type()) {
    case FD::CPPTYPE_DOUBLE: {
      double expected = std::strtod(t.c_str(), nullptr);
      if (std::isnan(expected)) return std::isnan(exported);
      *why += " (" + number_text(expected) + " vs " + number_text(exported) + ")";
      return std::memcmp(&expected, &exported, sizeof expected) == 0;
    }
    case FD::CPPTYPE_FLOAT: {
      float expected = std::strtof(t.c_str(), nullptr), got = static_cast<float>(exported);
      if (std::isnan(expected)) return std::isnan(got);
      return std::memcmp(&expected, &got, sizeof expected) == 0;
    }
    case FD::CPPTYPE_BOOL: return cell.is_boolean() && cell.as_bool() == (t == "true");
    case FD::CPPTYPE_ENUM: {
      const gpb::EnumValueDescriptor* value = leaf.field->enum_type()->FindValueByName(t);
      long long expected = value ? value->number() : std::strtoll(t.c_str(), nullptr, 10);
      return cell.is_number_integer() && cell.as_int() == expected;
    }
    case FD::CPPTYPE_INT32:
    case FD::CPPTYPE_INT64: return cell.is_number_integer() && cell.as_int() == std::strtoll(t.c_str(), nullptr, 10);
    case FD::CPPTYPE_UINT32:
    case FD::CPPTYPE_UINT64: return cell.is_number_integer() && cell.as_uint() == std::strtoull(t.c_str(), nullptr, 10);
    default: return false;
  }
}

// A descriptor pool built by libprotobuf from the descriptor set (the types protoc used).
inline std::unique_ptr<gpb::DescriptorPool> pool_of(const std::string& descriptor_set_path) {
  gpb::FileDescriptorSet set;
  std::string bytes = test_support::read_text(descriptor_set_path);
  REQUIRE(set.ParseFromString(bytes));
  auto pool = std::make_unique<gpb::DescriptorPool>();
  for (const gpb::FileDescriptorProto& file : set.file()) REQUIRE(pool->BuildFile(file) != nullptr);
  return pool;
}

inline size_t depth_of(const TextNode& node) {
  size_t deepest = 0;
  for (const TextNode& c : node.children)
    if (c.message) deepest = std::max(deepest, 1 + depth_of(c));
  return deepest;
}

inline void append_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) out->push_back(static_cast<char>((v & 0x7f) | 0x80)), v >>= 7;
  out->push_back(static_cast<char>(v));
}

// A copy of the descriptor set with a message `logscope_test.Batch { repeated TYPE items = 1; }`,
// so protoc decodes many payloads in one run: each prints as one `items { ... }`, exactly as it
// prints alone (unknown fields start their guessing budget afresh in every message).
inline std::string batch_descriptor_set(const std::string& descriptor_set, const std::string& type_name, const std::string& dir) {
  gpb::FileDescriptorSet set;
  REQUIRE(set.ParseFromString(test_support::read_text(descriptor_set)));
  gpb::FileDescriptorProto* file = set.add_file();
  file->set_name("logscope_test_batch.proto");
  file->set_package("logscope_test");
  file->set_syntax("proto3");
  for (int k = 0; k + 1 < set.file_size(); ++k) file->add_dependency(set.file(k).name());
  gpb::DescriptorProto* batch = file->add_message_type();
  batch->set_name("Batch");
  gpb::FieldDescriptorProto* items = batch->add_field();
  items->set_name("items");
  items->set_number(1);
  items->set_label(gpb::FieldDescriptorProto::LABEL_REPEATED);
  items->set_type(gpb::FieldDescriptorProto::TYPE_MESSAGE);
  items->set_type_name("." + type_name);
  std::string out = dir + "/batch.desc";
  std::string bytes;
  REQUIRE(set.SerializeToString(&bytes));
  test_support::write_file(out, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  return out;
}

// protoc's decoding of each payload (`type_name` empty: --decode_raw), as text trees; `ok[i]`
// false where protoc cannot parse payload i. Payloads go in batches (one protoc run), alone
// when the batch fails or, for --decode_raw, when a payload nests deep enough that the batch's
// extra level could change protoc's guess (its printer guesses 10 levels deep).
inline std::vector<TextNode> protoc_decode(const std::vector<std::vector<uint8_t>>& payloads, const std::string& type_name,
                                           const std::string& descriptor_set, const std::string& dir, std::vector<bool>* ok) {
  std::vector<TextNode> out(payloads.size());
  ok->assign(payloads.size(), false);
  auto one = [&](const std::vector<uint8_t>& payload, TextNode* node) {
    std::string input = dir + "/payload.bin";
    test_support::write_file(input, payload);
    int status = 0;
    std::string text = type_name.empty() ? run("protoc --decode_raw", input, &status)
                                         : run("protoc --descriptor_set_in='" + descriptor_set + "' --decode=" + type_name, input, &status);
    if (status != 0) return false;
    REQUIRE(parse_text(text, node));
    return true;
  };
  std::string batch;
  for (const auto& p : payloads) {
    batch.push_back('\x0a');
    append_varint(&batch, p.size());
    batch.append(reinterpret_cast<const char*>(p.data()), p.size());
  }
  std::string input = dir + "/batch.bin";
  test_support::write_file(input, std::vector<uint8_t>(batch.begin(), batch.end()));
  int status = 0;
  std::string text = type_name.empty()
                         ? run("protoc --decode_raw", input, &status)
                         : run("protoc --descriptor_set_in='" + batch_descriptor_set(descriptor_set, type_name, dir) +
                                   "' --decode=logscope_test.Batch", input, &status);
  TextNode root;
  bool batched = status == 0 && parse_text(text, &root) && root.children.size() == payloads.size();
  for (size_t i = 0; i < payloads.size(); ++i) {
    // An empty payload prints as `1: ""` in a raw batch: decode it alone.
    bool usable = batched && root.children[i].message && (!type_name.empty() || depth_of(root.children[i]) < 9);
    if (usable) {
      out[i] = std::move(root.children[i]);
      (*ok)[i] = true;
    } else {
      (*ok)[i] = one(payloads[i], &out[i]);
    }
  }
  return out;
}

// Compares one exported row (JSON Lines object, null cells absent) with protoc's decoding of its
// payload (`type` null: --decode_raw's). Counts the leaves compared.
inline void compare_with_protoc(const TextNode& decoded, const logscope::Json& row, const gpb::Descriptor* type, size_t* leaves_compared) {
  std::map<std::string, TextLeaf> expected;
  text_leaves(decoded, type, "", &expected);
  std::map<std::string, const logscope::Json*> exported;
  for (const auto& [name, cell] : row.items())
    if (name != "time_ns" && !cell.is_null()) exported[name] = &cell;
  std::string missing, extra;
  for (const auto& [path, leaf] : expected)
    if (!exported.count(path)) missing += " " + path;
  for (const auto& [path, cell] : exported)
    if (!expected.count(path)) extra += " " + path;
  CHECK_MESSAGE(missing.empty(), "protoc prints, export lacks:" << missing);
  CHECK_MESSAGE(extra.empty(), "export writes, protoc does not print:" << extra);
  for (const auto& [path_binding, leaf] : expected) {
    const std::string& path = path_binding;  // clang 14: doctest's messages cannot capture a binding
    auto it = exported.find(path);
    if (it == exported.end()) continue;
    std::string why;
    CHECK_MESSAGE(same_value(leaf, *it->second, &why), path << ": " << why);
    ++*leaves_compared;
  }
}

}  // namespace protobuf_support
