// libFuzzer harness: an arbitrary file opened as MCAP (mcap::looks_like_mcap, then
// mcap::open_inspector directly), every FormatInspector entry point exercised
// (tests/fuzz/exercise.h) with the MCAP queries, the check pushed in pieces as the page feeds it
// (it must equal the pulled check or ask for it), and the invariants of tests/fuzz/invariants.h
// checked; inputs of odd size are repaired (mcap/extract.h) and the repaired copy must check
// without an error. A file whose magic a line-ending conversion shortened also has its restoration
// checked (mcap/line_endings.h): every "\r" put back before a "\n" of the input, in order, and the
// restored source the input with those bytes in. Other inputs stop at the magic. Build with -DLOGSCOPE_FUZZ=ON and clang
// (tests/fuzz/CMakeLists.txt).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "exercise.h"
#include "invariants.h"
#include "core/output_sink.h"
#include "core/report.h"
#include "mcap/extract.h"
#include "mcap/format.h"
#include "mcap/inspector.h"
#include "mcap/line_endings.h"
#include "mcap/reader.h"
#include "mcap/summary.h"

namespace {

[[noreturn]] void fail(const char* what, uint64_t at) {
  std::fprintf(stderr, "line-ending restoration: %s (%llu)\n", what, static_cast<unsigned long long>(at));
  std::abort();
}

// The restoration only ever puts a "\r" back before a "\n" of the input, and the restored source
// is the input with exactly those bytes in.
void check_line_endings(logscope::ByteSource& source, const uint8_t* data, size_t size) {
  logscope::mcap::LineEndingLimits limits;
  limits.record_trials = 2000;
  logscope::mcap::LineEndingRestoration r = logscope::mcap::restore_line_endings(source, limits);
  for (size_t i = 0; i < r.inserts.size(); ++i) {
    if (r.inserts[i] >= size || data[r.inserts[i]] != '\n') fail("a \"\\r\" put back before a byte that is no \"\\n\"", r.inserts[i]);
    if (i && r.inserts[i] <= r.inserts[i - 1]) fail("inserts out of order", r.inserts[i]);
  }
  if (r.framed_to > size) fail("framed past the end", r.framed_to);
  for (const logscope::mcap::DamagedRecord& d : r.records)
    if (d.offset >= size || d.bytes_lost == 0 || d.restored_offset < d.offset) fail("a damaged record out of place", d.offset);
  logscope::mcap::RestoredSource restored(source, r.inserts);
  std::string bytes(static_cast<size_t>(restored.size()), '\0');
  if (restored.read(0, bytes.data(), bytes.size()) != bytes.size()) fail("the restored source reads short", bytes.size());
  size_t next = 0, j = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (next < r.inserts.size() && r.inserts[next] + next == i) {
      if (bytes[i] != '\r') fail("no \"\\r\" where one was put back", i);
      ++next;
    } else if (static_cast<uint8_t>(bytes[i]) != data[j++]) {
      fail("the restored source changed a byte", i);
    }
  }
}

// The summary without its chunk indexes (mcap/reader.h), tried on every summary here (the
// inspector does it past 4 MiB of them): placed by the file's own summary offsets, which may lie.
// When it serves, it read no ChunkIndex, has the Statistics' counts, and its group is inside the
// summary; the report is made from it.
void check_summary_first(logscope::ByteSource& source, size_t size) {
  logscope::mcap::FileModel m;
  logscope::mcap::open_file(source, &m, nullptr, false, 0);
  logscope::Report report = logscope::mcap::summary_report(m);
  if (!m.chunk_indexes_deferred) return;
  auto [at, length] = m.deferred_chunk_indexes;
  auto fail = [](const char* what, uint64_t offset) {
    std::fprintf(stderr, "%s (%llu)\n", what, static_cast<unsigned long long>(offset));
    std::abort();
  };
  if (!m.chunks.empty() || !m.statistics || m.message_count != m.statistics->message_count) fail("summary first: chunks read, or no Statistics' counts", at);
  if (at < m.footer.summary_start || length > size || at > size - length) fail("summary first: the group outside the file", at);
  if (report.later.empty()) fail("summary first: no later facts", at);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view head(reinterpret_cast<const char*>(data), std::min<size_t>(size, 16));
  if (!logscope::mcap::looks_like_mcap(head)) {
    logscope::mcap::diagnose_mcap_head(head, size);
    return 0;
  }
  logscope::MemoryByteSource source(data, size);
  std::unique_ptr<logscope::FormatInspector> inspector = logscope::mcap::open_inspector(source);
  if (size % 2 == 0) {
    logscope::Detection detection;
    detection.family = "mcap";
    logscope_fuzz::exercise_inspector(inspector.get(), detection, size);
    logscope::ProgressFn progress = [](uint64_t, uint64_t) { return true; };
    for (const char* args : {"{}", "{\"channel\": 1, \"first\": 3, \"count\": 5}", "{\"t0_ns\": 1700000000005000000, \"count\": 20}"})
      inspector->query("messages", logscope::Json::parse(args).value_or(logscope::Json::object()), progress);
    inspector->query("channels", logscope::Json::object(), progress);
    inspector->query("attachments", logscope::Json::object(), progress);
    inspector->query("metadata", logscope::Json::object(), progress);
    inspector->query("timeline", logscope::Json::object(), progress);
    // Payloads decoded by their channels (mcap/payload.h): a page of them, and a topic's columns and plot.
    inspector->query("decoded", logscope::Json::parse("{\"count\": 30}").value_or(logscope::Json::object()), progress);
    // The CDR seed's topics (its /status is json), the protobuf seed's (make_seeds.cpp), the
    // protobuf samples' and the json samples'.
    for (auto [topic, fields] : {std::pair{"/pose", "header.stamp.sec"}, {"/imu", "header.stamp.sec"}, {"/all_kinds", "header.stamp.sec"},
                                 {"/status", "n,ok"}, {"/proto", "x,next.x"}, {"pose", "pose.position.x"},
                                 {"tracked_objects", "objects[0].pose.x"}, {"mouse", "clientX"}}) {
      logscope::Json args = logscope::Json::object();
      args["topic"] = topic;
      inspector->query("columns", args, progress);
      args["fields"] = fields;
      inspector->query("plot", args, progress);
      args["max_chunks"] = 1;  // a sample: the chunk index's choice
      inspector->query("plot", args, progress);
    }
    inspector->file_map(true, progress);
    inspector->query("messages", logscope::Json::parse("{\"sha1\": true, \"count\": 30}").value_or(logscope::Json::object()), progress);
    // The check pushed in pieces (mcap/doctor_feed.cpp), as the page feeds it: the pulled check's
    // answer, or "incomplete" (the page then pulls).
    std::unique_ptr<logscope::FormatInspector> fed_side = logscope::mcap::open_inspector(source);
    if (std::unique_ptr<logscope::ByteFeed> feed = fed_side->check_feed()) {
      size_t piece = 1 + size % 4093;
      for (uint64_t at = feed->begin(); at < std::min<uint64_t>(feed->end(), size); at += piece)
        feed->update(data + at, static_cast<size_t>(std::min<uint64_t>(piece, std::min<uint64_t>(feed->end(), size) - at)));
      std::string fed = feed->finish("", false).dump();
      std::string pulled = logscope::mcap::open_inspector(source)->check(nullptr).to_json().dump();
      if (fed.find("\"status\":\"incomplete\"") == std::string::npos && fed != pulled) {
        std::fprintf(stderr, "fed check differs from the pulled one:\n%s\n%s\n", fed.c_str(), pulled.c_str());
        std::abort();
      }
    }
  } else {
    // Repair: whatever the input, the copy is a valid MCAP.
    logscope::MemoryOutputSink out;
    logscope::mcap::McapExtractOptions options;
    options.repair = true;
    logscope::ExtractResult repaired = logscope::mcap::extract_mcap(source, out, options);
    if (repaired.ok) {
      logscope::MemoryByteSource copy(reinterpret_cast<const uint8_t*>(out.bytes.data()), out.bytes.size());
      logscope::Report check = logscope::mcap::open_inspector(copy)->check(nullptr);
      if (check.count(logscope::Severity::Error) != 0) {
        for (const logscope::Problem& p : check.problems) std::fprintf(stderr, "repaired copy: %s @%llu %s\n", p.code.c_str(), static_cast<unsigned long long>(p.offset), p.message.c_str());
        std::abort();
      }
    }
  }
  logscope_fuzz::abort_on_violations(logscope_fuzz::check_inspector_invariants(inspector.get(), "mcap", size));
  check_summary_first(source, size);
  if (size >= 7 && std::memcmp(data, "\x89MCAP0\n", 7) == 0) check_line_endings(source, data, size);
  return 0;
}
