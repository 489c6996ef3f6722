// Helpers shared by the BDDF tests: opening files, comparing JSON to truth, writing fixtures.
#pragma once

#include <memory>
#include <string>

#include "bddf/inspector.h"
#include "bddf/model.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "test_support.h"

namespace bddf_test {

// An opened file: the source must outlive the inspector.
struct Opened {
  std::unique_ptr<logscope::ByteSource> source;
  std::unique_ptr<logscope::FormatInspector> inspector;
};

inline Opened open_path(const std::string& path) {
  Opened o;
  std::string error;
  o.source = logscope::FileByteSource::open(path, &error);
  REQUIRE_MESSAGE(o.source, path << ": " << error);
  o.inspector = logscope::bddf::open_inspector(*o.source);
  return o;
}

inline Opened open_bytes(std::vector<uint8_t> bytes) {
  Opened o;
  o.source = std::make_unique<logscope::MemoryByteSource>(std::move(bytes));
  o.inspector = logscope::bddf::open_inspector(*o.source);
  return o;
}

// The index behind a BDDF inspector (white-box checks).
inline const logscope::bddf::FileModel& model_of(const logscope::FormatInspector& inspector) {
  const logscope::bddf::FileModel* model = logscope::bddf::file_model(inspector);
  REQUIRE(model);
  return *model;
}

inline logscope::Json load_json(const std::string& path) {
  std::string error;
  auto parsed = logscope::Json::parse(test_support::read_text(path), &error);
  REQUIRE_MESSAGE(parsed, path << ": " << error);
  return *parsed;
}

// Order-insensitive for objects, exact for numbers (64-bit) and strings. Returns "" when equal,
// otherwise the path of the first difference.
inline std::string json_diff(const logscope::Json& expected, const logscope::Json& actual, const std::string& path) {
  using logscope::Json;
  if (expected.is_number() && actual.is_number()) return expected.dump() == actual.dump() ? "" : path + ": expected " + expected.dump() + ", got " + actual.dump();
  // Our ns values are exact decimal strings (docs/report.md) where the truth files hold integers.
  if (expected.is_number() && actual.is_string()) return expected.dump() == actual.as_string() ? "" : path + ": expected " + expected.dump() + ", got " + actual.dump();
  if (expected.type() != actual.type()) return path + ": expected " + expected.dump() + ", got " + actual.dump();
  if (expected.is_object()) {
    if (expected.size() != actual.size()) return path + ": expected " + expected.dump() + ", got " + actual.dump();
    for (const auto& [key, value] : expected.items()) {
      const Json* other = actual.find(key);
      if (!other) return path + "." + key + ": missing";
      std::string d = json_diff(value, *other, path + "." + key);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (expected.is_array()) {
    if (expected.size() != actual.size()) return path + ": expected " + std::to_string(expected.size()) + " elements, got " + std::to_string(actual.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      std::string d = json_diff(expected[i], actual[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return expected == actual ? "" : path + ": expected " + expected.dump() + ", got " + actual.dump();
}

// A key that must be there.
inline const logscope::Json& field(const logscope::Json& object, const std::string& key) {
  const logscope::Json* value = object.find(key);
  REQUIRE_MESSAGE(value, "missing key " << key);
  return *value;
}

inline bool has_problem(const logscope::Report& report, const std::string& code) {
  for (const auto& p : report.problems)
    if (p.code == code) return true;
  return false;
}

}  // namespace bddf_test
