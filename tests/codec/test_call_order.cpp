// An opened file answers the same whatever was asked before: the tree, locate, spans, decode and
// the summary, called in one order on one inspector and in the reverse order on another, give
// the same answers. What an inspector loads lazily (the V1.x record table, the BDDF block table)
// lives in explicit caches, so the first question must not change the answer to the next.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "../fuzz/tiny_files.h"
#include "core/byte_source.h"
#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"
#include "test_support.h"

namespace {

using Bytes = std::vector<uint8_t>;
using logscope::FormatInspector;

logscope::Json span_json(const logscope::Span& span) {
  logscope::Json j = logscope::Json::object();
  j["offset"] = span.offset;
  j["length"] = span.length;
  j["name"] = span.name;
  j["kind"] = span.kind;
  logscope::Json children = logscope::Json::array();
  for (const logscope::Span& child : span.children) children.push_back(span_json(child));
  j["children"] = children;
  return j;
}

std::string nodes_text(const std::vector<logscope::TreeNode>& nodes) {
  std::string out;
  for (const logscope::TreeNode& node : nodes) out += logscope::tree_node_to_json(node).dump() + "\n";
  return out;
}

struct Question {
  std::string name;
  std::function<std::string(FormatInspector&)> ask;
};

// The questions a page or the CLI asks, in the order the page happens to ask them.
std::vector<Question> questions_for(const Bytes& bytes) {
  const uint64_t size = bytes.size();
  std::vector<std::string> ids;  // the root's first children and one grandchild, found on a fresh inspector
  {
    logscope::MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = logscope::open_inspector(source, logscope::detect(source));
    REQUIRE(inspector);
    for (const logscope::TreeNode& node : inspector->children("", 0, 3)) ids.push_back(node.id);
    for (const std::string& id : std::vector<std::string>(ids))
      for (const logscope::TreeNode& node : inspector->children(id, 0, 1)) ids.push_back(node.id);
  }
  std::vector<Question> out;
  out.push_back({"child_count root", [](FormatInspector& i) { return std::to_string(i.child_count("")); }});
  for (uint64_t at : {uint64_t{0}, size / 3, size / 2, size - 1}) {
    out.push_back({"locate " + std::to_string(at), [at](FormatInspector& i) {
                     std::string text;
                     for (const std::string& id : i.locate(at)) text += id + "/";
                     return text;
                   }});
    out.push_back({"spans " + std::to_string(at), [at](FormatInspector& i) {
                     std::string text;
                     for (const logscope::Span& span : i.spans(at, 4096)) text += span_json(span).dump() + "\n";
                     return text;
                   }});
  }
  for (const std::string& id : ids) {
    out.push_back({"child_count " + id, [id](FormatInspector& i) { return std::to_string(i.child_count(id)); }});
    out.push_back({"children " + id, [id](FormatInspector& i) { return nodes_text(i.children(id, 0, 1000)); }});
    out.push_back({"decode " + id, [id](FormatInspector& i) { return i.decode(id).dump(); }});
  }
  out.push_back({"children root", [](FormatInspector& i) { return nodes_text(i.children("", 0, 1000)); }});
  out.push_back({"summary", [](FormatInspector& i) { return i.summary().to_json().dump(); }});
  out.push_back({"info_text", [](FormatInspector& i) { return i.info_text(logscope::InfoOptions()); }});
  return out;
}

std::map<std::string, std::string> answers(const Bytes& bytes, const std::vector<Question>& questions, bool reversed) {
  logscope::MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = logscope::open_inspector(source, logscope::detect(source));
  std::map<std::string, std::string> out;
  for (size_t k = 0; k < questions.size(); ++k) {
    const Question& q = questions[reversed ? questions.size() - 1 - k : k];
    out[q.name] = q.ask(*inspector);
  }
  return out;
}

void same_in_both_orders(const std::string& what, const Bytes& bytes) {
  std::vector<Question> questions = questions_for(bytes);
  std::map<std::string, std::string> forward = answers(bytes, questions, false);
  std::map<std::string, std::string> backward = answers(bytes, questions, true);
  for (const Question& q : questions) {
    INFO(what << ": " << q.name);
    CHECK(forward[q.name] == backward[q.name]);
  }
  CHECK(questions.size() > 12);  // the fixture has a tree worth asking about
}

Bytes cut(Bytes bytes, double fraction) {
  bytes.resize(static_cast<size_t>(static_cast<double>(bytes.size()) * fraction));
  return bytes;
}

}  // namespace

TEST_CASE("bags answer the same in any call order: V1.2, V2.0 none/lz4/bz2, and cut") {
  same_in_both_orders("bag v1.2", logscope_fuzz::tiny_bag(102));
  same_in_both_orders("bag v1.2 cut", cut(logscope_fuzz::tiny_bag(102), 0.7));
  same_in_both_orders("bag none", logscope_fuzz::tiny_bag(200, "none"));
  same_in_both_orders("bag lz4", logscope_fuzz::tiny_bag(200, "lz4"));
  same_in_both_orders("bag bz2", logscope_fuzz::tiny_bag(200, "bz2"));
  same_in_both_orders("bag none cut", cut(logscope_fuzz::tiny_bag(200, "none"), 0.6));
}

TEST_CASE("BDDF answers the same in any call order: indexed, and recovered after a cut") {
  same_in_both_orders("bddf", logscope_fuzz::tiny_bddf());
  same_in_both_orders("bddf cut", cut(logscope_fuzz::tiny_bddf(), 0.6));
}

TEST_CASE("CARLA answers the same in any call order: whole, and cut mid-frame") {
  same_in_both_orders("carla", logscope_fuzz::tiny_carla());
  same_in_both_orders("carla cut", cut(logscope_fuzz::tiny_carla(), 0.55));
}
