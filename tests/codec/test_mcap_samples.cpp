// Real MCAP files (../shared/samples/mcap, SOURCES.md there): each opens from its summary with
// the counts an independent parser found (SOURCES.md), the doctor finds only what `mcap doctor`
// would, every stored CRC matches, and a scan of the data section agrees with the summary.
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "mcap/format.h"
#include "mcap/inspector.h"
#include "mcap/model.h"
#include "mcap/reader.h"
#include "test_mcap_support.h"
#include "test_support.h"

using namespace logscope;

namespace {

struct Expected {
  const char* file;
  uint64_t messages, channels, schemas, chunks, metadata;
  const char* compression;  // the summary's compression fact
  const char* library;
  const char* profile;
  const char* source;       // "summary" or "scan"
  std::vector<std::string> doctor_errors;  // error codes the doctor must find (and no others)
  const char* checksum;
};

const Expected kSamples[] = {
    {"Kawwshall__specops-clip-review__sample.mcap", 3, 1, 1, 0, 0, "unchunked", "synthetic", "mcap-video-viewer", "scan", {}, "none"},
    {"RISE-Maritime__keelson__test.mcap", 2172, 649, 649, 2, 0, "zstd (2 chunks)", "python mcap 1.1.1", "", "summary", {}, "valid"},
    {"foxglove__mcap__OneMessage-ch-chx-mx-pad-rch-rsh-st-sum.mcap", 1, 1, 1, 1, 0, "none (1 chunk)", "", "", "summary", {}, "valid"},
    {"lichtblick-suite__lichtblick__example_logs.mcap", 1111, 2, 2, 1, 0, "zstd (1 chunk)", "python mcap 1.3.0", "", "summary", {}, "valid"},
    {"piyush-g0enka__MCAP_Data_Visualizer__recording.mcap", 259, 3, 3, 1, 0, "zstd (1 chunk)", "python mcap 1.2.2", "", "summary", {}, "valid"},
    {"rerun-io__rerun__simple-protobuf.mcap", 293, 2, 2, 5, 0, "zstd (5 chunks)", "MCAP web demo", "", "summary", {}, "valid"},
    // libmcap 1.1.0 repeats in the summary a schema and a channel (service events) that never had a
    // message, so never reached the data section: mcap doctor reports both as errors too.
    {"ros2__rosbag2__bag_with_topics_and_service_events.mcap", 10, 5, 3, 1, 2, "none (1 chunk)", "libmcap 1.1.0", "ros2", "summary",
     {"mcap.summary.channel_not_in_data", "mcap.summary.schema_not_in_data"}, "valid"},
    {"ros2__rosbag2__wbag_0.mcap", 1246, 8, 8, 1, 0, "zstd (1 chunk)", "mcap go #(devel)", "ros2", "summary", {}, "valid"},
    {"zhihongliuus__mcap_arrow__test.mcap", 1, 1, 1, 1, 0, "none (1 chunk)", "libmcap 2.0.0", "", "summary", {}, "valid"},
};

uint64_t count_of(const Report& r, const char* name) {
  const Count* c = r.file.count(name);
  return c ? c->value : UINT64_MAX;
}

std::string fact(const Report& r, const char* key) {
  const Json* v = r.facts.find(key);
  return v ? v->as_string() : "<none>";
}

}  // namespace

TEST_CASE("mcap samples: every real file opens from its summary with the right counts") {
  if (!test_support::have_samples()) return;
  for (const Expected& e : kSamples) {
    CAPTURE(e.file);
    std::string path = test_support::sample(std::string("mcap/") + e.file);
    std::string error;
    auto source = FileByteSource::open(path, &error);
    if (!source) {
      test_support::skip(path + " is absent");
      return;
    }
    std::string head(16, '\0');
    head.resize(source->read(0, head.data(), head.size()));
    CHECK(mcap::looks_like_mcap(head));
    auto inspector = mcap::open_inspector(*source);
    Report r = inspector->summary();
    CHECK(r.format == "mcap");
    CHECK(count_of(r, "messages") == e.messages);
    CHECK(count_of(r, "channels") == e.channels);
    CHECK(count_of(r, "schemas") == e.schemas);
    CHECK(count_of(r, "chunks") == e.chunks);
    CHECK(count_of(r, "metadata") == e.metadata);
    CHECK(fact(r, "compression") == e.compression);
    CHECK(fact(r, "library") == e.library);
    CHECK(fact(r, "profile") == e.profile);
    CHECK(fact(r, "summary_source") == e.source);
    CHECK(r.count(Severity::Error) == 0);
    CHECK_FALSE(r.recovery.performed);
    // The channels table adds up to the messages.
    uint64_t sum = 0;
    for (const Table& t : r.tables)
      if (t.name == "channels")
        for (const auto& row : t.rows) sum += row[5].as_uint();
    CHECK(sum == e.messages);

    Report checked = inspector->check(nullptr);
    std::vector<std::string> errors;
    for (const Problem& p : checked.problems)
      if (p.severity == Severity::Error) errors.push_back(p.code);
    std::sort(errors.begin(), errors.end());
    CHECK(errors == e.doctor_errors);
    Json crc = inspector->checksum(nullptr);
    CHECK(crc.find("status")->as_string() == e.checksum);
  }
}

TEST_CASE("mcap samples: the scan of the data section agrees with the summary") {
  if (!test_support::have_samples()) return;
  for (const Expected& e : kSamples) {
    CAPTURE(e.file);
    std::string bytes = test_support::read_text(test_support::sample(std::string("mcap/") + e.file));
    if (bytes.empty()) continue;
    mcap::FileModel indexed = mcap_test::open_model(bytes), scanned = mcap_test::open_model(bytes, true);
    CHECK(scanned.source == mcap::SummarySource::Scan);
    CHECK(scanned.message_count == indexed.message_count);
    CHECK(scanned.channel_counts == indexed.channel_counts);
    CHECK(scanned.start_time == indexed.start_time);
    CHECK(scanned.end_time == indexed.end_time);
    CHECK(scanned.chunks.size() == indexed.chunks.size());
    for (size_t i = 0; i < scanned.chunks.size() && i < indexed.chunks.size(); ++i) {
      CHECK(scanned.chunks[i].offset == indexed.chunks[i].offset);
      CHECK(scanned.chunks[i].length == indexed.chunks[i].length);
      CHECK(scanned.chunks[i].compression == indexed.chunks[i].compression);
      CHECK(scanned.chunks[i].uncompressed_size == indexed.chunks[i].uncompressed_size);
    }
    CHECK(scanned.attachments.size() == indexed.attachments.size());
    CHECK(scanned.metadata.size() == indexed.metadata.size());
    // Every channel with messages is in both (the summary may repeat channels without any).
    for (const auto& [id, n] : scanned.channel_counts) {
      REQUIRE(indexed.channel(id));
      REQUIRE(scanned.channel(id));
      CHECK(scanned.channel(id)->topic == indexed.channel(id)->topic);
    }
  }
}

TEST_CASE("mcap samples: the impostor is not MCAP") {
  if (!test_support::have_samples()) return;
  std::string bytes = test_support::read_text(test_support::sample("mcap/Nomyze__pro__test.mcap"));
  if (bytes.empty()) {
    test_support::skip("Nomyze__pro__test.mcap is absent");
    return;
  }
  CHECK_FALSE(mcap::looks_like_mcap(bytes.substr(0, 16)));
  CHECK(mcap::diagnose_mcap_head(bytes.substr(0, 16), bytes.size()).empty());
  // Opened anyway, it says why and holds nothing.
  mcap::FileModel m = mcap_test::open_model(bytes);
  CHECK(test_support::has_code(m.problems, "mcap.file.bad_magic"));
  CHECK(m.message_count == 0);
}
