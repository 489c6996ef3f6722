// Invariants every FormatInspector keeps on any input, damaged or not. Shared by the libFuzzer
// harnesses (a violation aborts the run) and the mutation sweeps (tests/codec/test_sweeps.cpp):
// - every problem offset lies within the file (offset <= size: "ends at byte N" may name the end);
// - child nodes and nested spans lie inside their parents, and everything inside the file;
// - locate(offset) agrees with children(): each step is a child of the one before, contains the
//   offset, and none of the last node's children contains it.
// Returns the violations as text (empty: all hold). Bounded work: the tree is walked breadth-first
// over at most kMaxNodes nodes, and children lists are searched in their first kMaxChildren.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"
#include "exercise.h"

namespace logscope_fuzz {

struct Invariants {
  std::vector<std::string> violations;
  logscope::Report summary;        // the intact-vs-damaged comparisons read counts from here
  std::string family;              // "" when nothing was recognised

  void fail(const std::string& what) {
    if (violations.size() < 20) violations.push_back(what);
  }
};

namespace invariants_detail {

constexpr size_t kMaxNodes = 400;
constexpr uint64_t kMaxChildren = 2048;

// [offset, offset + length) inside [first, last), without overflow.
inline bool inside(uint64_t offset, uint64_t length, uint64_t first, uint64_t last) {
  return offset >= first && offset <= last && length <= last - offset;
}

inline bool contains(const logscope::TreeNode& node, uint64_t offset) {
  return offset >= node.offset && offset - node.offset < node.length;
}

inline std::string where(const logscope::TreeNode& node) {
  return "'" + node.id + "' [" + std::to_string(node.offset) + ", +" + std::to_string(node.length) + ")";
}

inline void check_problems(Invariants& out, const char* entry, const logscope::Report& report, uint64_t size) {
  for (const logscope::Problem& p : report.problems)
    if (p.offset > size)
      out.fail(std::string(entry) + ": problem " + p.code + " at offset " + std::to_string(p.offset) +
               " lies past the end of a " + std::to_string(size) + "-byte file");
}

inline void check_span(Invariants& out, const logscope::Span& span, uint64_t first, uint64_t last, const std::string& parent) {
  if (!inside(span.offset, span.length, first, last))
    out.fail("span '" + span.name + "' [" + std::to_string(span.offset) + ", +" + std::to_string(span.length) +
             ") lies outside " + parent + " [" + std::to_string(first) + ", " + std::to_string(last) + ")");
  for (const logscope::Span& child : span.children)
    check_span(out, child, span.offset, span.offset + std::min(span.length, UINT64_MAX - span.offset), "span '" + span.name + "'");
}

inline std::vector<logscope::TreeNode> first_children(logscope::FormatInspector& inspector, const std::string& id) {
  uint64_t count = inspector.child_count(id);
  return inspector.children(id, 0, std::min(count, kMaxChildren));
}

inline void check_tree(Invariants& out, logscope::FormatInspector& inspector, uint64_t size) {
  struct Pending {
    std::string id;
    uint64_t first, last;
  };
  std::deque<Pending> queue{{"", 0, size}};
  size_t visited = 0;
  while (!queue.empty() && visited < kMaxNodes) {
    Pending parent = queue.front();
    queue.pop_front();
    uint64_t count = inspector.child_count(parent.id);
    std::vector<logscope::TreeNode> page = inspector.children(parent.id, 0, std::min<uint64_t>(count, 64));
    if (count > 64) {  // and the last page, where off-by-one errors live
      std::vector<logscope::TreeNode> tail = inspector.children(parent.id, count - 8, 8);
      page.insert(page.end(), tail.begin(), tail.end());
    }
    for (const logscope::TreeNode& node : page) {
      ++visited;
      if (!inside(node.offset, node.length, parent.first, parent.last))
        out.fail("node " + where(node) + " lies outside its parent '" + parent.id + "' [" + std::to_string(parent.first) +
                 ", " + std::to_string(parent.last) + ")");
      if (node.child_count) queue.push_back({node.id, node.offset, node.offset + std::min(node.length, size)});
    }
  }
}

inline void check_locate(Invariants& out, logscope::FormatInspector& inspector, uint64_t offset) {
  std::vector<std::string> path = inspector.locate(offset);
  std::string parent;
  std::vector<logscope::TreeNode> siblings = first_children(inspector, "");
  for (const std::string& id : path) {
    const logscope::TreeNode* found = nullptr;
    for (const logscope::TreeNode& node : siblings)
      if (node.id == id) found = &node;
    if (!found) {
      if (siblings.size() < kMaxChildren)
        out.fail("locate(" + std::to_string(offset) + ") names '" + id + "', which children('" + parent + "') does not list");
      return;
    }
    if (!contains(*found, offset)) {
      out.fail("locate(" + std::to_string(offset) + ") names " + where(*found) + ", which does not contain the offset");
      return;
    }
    parent = id;
    siblings = first_children(inspector, id);
  }
  for (const logscope::TreeNode& node : siblings)
    if (contains(node, offset)) {
      out.fail("locate(" + std::to_string(offset) + ") stops at '" + parent + "', but its child " + where(node) +
               " contains the offset");
      return;
    }
}

}  // namespace invariants_detail

// Checks every invariant above on an inspector opened over `size` bytes.
inline Invariants check_inspector_invariants(logscope::FormatInspector* inspector, const std::string& family, uint64_t size) {
  using namespace invariants_detail;
  Invariants out;
  if (!inspector) return out;
  out.family = family;
  out.summary = inspector->summary();
  check_problems(out, "summary", out.summary, size);
  check_problems(out, "info_report", inspector->info_report(nullptr), size);
  check_problems(out, "check", inspector->check(nullptr), size);
  check_tree(out, *inspector, size);
  const uint64_t window = 16384;  // the hex view asks for what is on screen
  for (uint64_t at : {uint64_t{0}, size / 2, size > window ? size - window : 0})
    for (const logscope::Span& span : inspector->spans(at, window)) check_span(out, span, 0, size, "the file");
  const uint64_t offsets[] = {0, 1, 4, 13, size / 5, size / 3, size / 2, size * 2 / 3, size * 9 / 10, size ? size - 1 : 0};
  for (uint64_t offset : offsets)
    if (offset < size) check_locate(out, *inspector, offset);
  return out;
}

// Opens the input as whatever detect() finds and checks every invariant above.
inline Invariants check_invariants(const uint8_t* data, size_t size) {
  logscope::MemoryByteSource source(data, size);
  logscope::Detection detection = logscope::detect(source);
  std::unique_ptr<logscope::FormatInspector> inspector = logscope::open_inspector(source, detection);
  return check_inspector_invariants(inspector.get(), detection.family, size);
}

inline void abort_on_violations(const Invariants& result) {
  if (result.violations.empty()) return;
  for (const std::string& v : result.violations) std::fprintf(stderr, "invariant violated: %s\n", v.c_str());
  std::abort();
}

// For the format harnesses: an input that `family`'s inspector opens must keep every invariant (a
// violation is a finding); inputs of another family stop after detection. Inputs of even length
// are first driven through every other entry point too (exercise.h), on the same inspector, so
// the invariants are also checked after that work. Doing both for every input halves the
// inputs a second; the fuzzer's mutations change lengths all the time, so both halves get
// their share of every corpus entry.
inline void fuzz_one_input(const uint8_t* data, size_t size, const std::string& family) {
  logscope::MemoryByteSource source(data, size);
  logscope::Detection detection = logscope::detect(source);
  if (detection.family != family) return;
  std::unique_ptr<logscope::FormatInspector> inspector = logscope::open_inspector(source, detection);
  if (size % 2 == 0) exercise_inspector(inspector.get(), detection, size);
  abort_on_violations(check_inspector_invariants(inspector.get(), family, size));
}


}  // namespace logscope_fuzz
