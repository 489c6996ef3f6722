// Microbenchmark for issue 11 item 6 (docs/benchmarks.md, "JSON: core/json.cpp or nlohmann-json"):
// builds one document with logscope::Json through the calls the codec makes (object, key insert,
// array push, numbers, strings) and prints it as the CLI does (dump(2)). It uses only the Json
// interface that the hand-written core/json.cpp and the nlohmann-based one share, so the same
// file measures either: compile it against the codec library of each. The document is read from
// a file, e.g. the output of `logscope info --json tiny-5m.bag`. Not part of the build:
//   g++ -std=c++17 -O3 -DNDEBUG -I<tree>/codec bench/json/json_build_dump.cpp <tree>/build/native/liblogscope_codec.a
//   ./a.out DOC.json [iterations]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/json.h"

using logscope::Json;

namespace {

// The document as a neutral tree, so that timing covers building the Json values, not copying them.
struct Node {
  Json::Type type = Json::Type::Null;
  bool b = false;
  long long i = 0;
  unsigned long long u = 0;
  double d = 0;
  std::string s;
  std::vector<std::pair<std::string, Node>> members;  // Object (key) and Array (key empty)
};

Node from(const Json& j) {
  Node n;
  n.type = j.type();
  switch (n.type) {
    case Json::Type::Bool: n.b = j.as_bool(); break;
    case Json::Type::Int: n.i = j.as_int(); break;
    case Json::Type::UInt: n.u = j.as_uint(); break;
    case Json::Type::Double: n.d = j.as_double(); break;
    case Json::Type::String: n.s = j.as_string(); break;
    case Json::Type::Array:
      for (const Json& e : j.elements()) n.members.emplace_back("", from(e));
      break;
    case Json::Type::Object:
      for (const auto& member : j.items()) n.members.emplace_back(member.first, from(member.second));
      break;
    default: break;
  }
  return n;
}

Json build(const Node& n) {
  switch (n.type) {
    case Json::Type::Bool: return Json(n.b);
    case Json::Type::Int: return Json(n.i);
    case Json::Type::UInt: return Json(n.u);
    case Json::Type::Double: return Json(n.d);
    case Json::Type::String: return Json(n.s);
    case Json::Type::Array: {
      Json a = Json::array();
      for (const auto& m : n.members) a.push_back(build(m.second));
      return a;
    }
    case Json::Type::Object: {
      Json o = Json::object();
      for (const auto& m : n.members) o[m.first] = build(m.second);
      return o;
    }
    default: return Json();
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
  std::string error;
  auto parsed = Json::parse(text, &error);
  if (!parsed) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error.c_str());
    return 1;
  }
  Node doc = from(*parsed);
  int iterations = argc > 2 ? std::atoi(argv[2]) : 2000;
  size_t sink = 0;
  double build_dump = median_us([&] { sink += build(doc).dump(2).size(); }, iterations, 7);
  double build_only = median_us([&] { sink += build(doc).size(); }, iterations, 7);
  std::printf("{\"document_bytes\": %zu, \"iterations\": %d, \"rounds\": 7, \"build_dump_us\": %.2f, \"build_us\": %.2f, \"sink\": %zu}\n",
              build(doc).dump(2).size(), iterations, build_dump, build_only, sink);
  return 0;
}
