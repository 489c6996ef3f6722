// Microbenchmark for issue 11 item 6 (docs/benchmarks.md, "JSON: core/json.cpp or nlohmann-json"):
// builds one document with logscope::Json and with nlohmann::ordered_json through the same
// sequence of calls (object, key insert, array push, numbers, strings), then prints it as the
// CLI does (dump(2)). The document is read from a file, e.g. the output of
// `logscope info --json tiny-5m.bag`. Not part of the build (it needs nlohmann-json3-dev):
//   g++ -std=c++17 -O2 -Icodec bench/json/json_build_dump.cpp build/native/liblogscope_codec.a -o /tmp/json_bench
//   /tmp/json_bench DOC.json [iterations]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json.h"

namespace {

// The document as a neutral tree, so both libraries replay exactly the same calls.
struct Node {
  enum Kind { Null, Bool, Int, UInt, Double, String, Array, Object } kind = Null;
  bool b = false;
  long long i = 0;
  unsigned long long u = 0;
  double d = 0;
  std::string s;
  std::vector<std::pair<std::string, Node>> members;  // Object (key) and Array (key empty)
};

Node from(const nlohmann::ordered_json& j) {
  Node n;
  switch (j.type()) {
    case nlohmann::json::value_t::boolean: n.kind = Node::Bool, n.b = j.get<bool>(); break;
    case nlohmann::json::value_t::number_integer: n.kind = Node::Int, n.i = j.get<long long>(); break;
    case nlohmann::json::value_t::number_unsigned: n.kind = Node::UInt, n.u = j.get<unsigned long long>(); break;
    case nlohmann::json::value_t::number_float: n.kind = Node::Double, n.d = j.get<double>(); break;
    case nlohmann::json::value_t::string: n.kind = Node::String, n.s = j.get<std::string>(); break;
    case nlohmann::json::value_t::array:
      n.kind = Node::Array;
      for (const auto& e : j) n.members.emplace_back("", from(e));
      break;
    case nlohmann::json::value_t::object:
      n.kind = Node::Object;
      for (const auto& [k, v] : j.items()) n.members.emplace_back(k, from(v));
      break;
    default: break;
  }
  return n;
}

logscope::Json build_ours(const Node& n) {
  switch (n.kind) {
    case Node::Bool: return logscope::Json(n.b);
    case Node::Int: return logscope::Json(n.i);
    case Node::UInt: return logscope::Json(n.u);
    case Node::Double: return logscope::Json(n.d);
    case Node::String: return logscope::Json(n.s);
    case Node::Array: {
      logscope::Json a = logscope::Json::array();
      for (const auto& m : n.members) a.push_back(build_ours(m.second));
      return a;
    }
    case Node::Object: {
      logscope::Json o = logscope::Json::object();
      for (const auto& m : n.members) o[m.first] = build_ours(m.second);
      return o;
    }
    default: return logscope::Json();
  }
}

nlohmann::ordered_json build_nlohmann(const Node& n) {
  switch (n.kind) {
    case Node::Bool: return n.b;
    case Node::Int: return n.i;
    case Node::UInt: return n.u;
    case Node::Double: return n.d;
    case Node::String: return n.s;
    case Node::Array: {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (const auto& m : n.members) a.push_back(build_nlohmann(m.second));
      return a;
    }
    case Node::Object: {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      for (const auto& m : n.members) o[m.first] = build_nlohmann(m.second);
      return o;
    }
    default: return nullptr;
  }
}

template <typename Run>
double median_us(Run run, int iterations, int rounds) {
  std::vector<double> per;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) run();
    per.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / iterations);
  }
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DOC.json [iterations]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  Node doc = from(nlohmann::ordered_json::parse(text));
  int iterations = argc > 2 ? std::atoi(argv[2]) : 2000;
  size_t sink = 0;
  std::string ours_text = build_ours(doc).dump(2), theirs_text = build_nlohmann(doc).dump(2);
  double ours = median_us([&] { sink += build_ours(doc).dump(2).size(); }, iterations, 7);
  double theirs = median_us([&] { sink += build_nlohmann(doc).dump(2).size(); }, iterations, 7);
  double ours_build = median_us([&] { sink += build_ours(doc).size(); }, iterations, 7);
  double theirs_build = median_us([&] { sink += build_nlohmann(doc).size(); }, iterations, 7);
  std::printf("{\"document_bytes\": %zu, \"iterations\": %d, \"rounds\": 7, \"core_json_us\": %.2f, \"nlohmann_us\": %.2f, "
              "\"core_json_build_us\": %.2f, \"nlohmann_build_us\": %.2f, \"same_text\": %s, \"sink\": %zu}\n",
              ours_text.size(), iterations, ours, theirs, ours_build, theirs_build, ours_text == theirs_text ? "true" : "false", sink);
  if (ours_text != theirs_text && argc > 3) {
    std::ofstream(std::string(argv[3]) + ".core") << ours_text;
    std::ofstream(std::string(argv[3]) + ".nlohmann") << theirs_text;
  }
  return 0;
}
