// The format table: a toy format registered from this test alone is detected, opened, listed
// (what `logscope --help` and the wasm formats() print) and warmed up, with nothing else changed.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/format_table.h"
#include "core/inspector.h"
#include "core/output_sink.h"
#include "inspector.h"
#include "warm_up.h"
#include "test_paths.h"

using namespace logscope;

namespace {

constexpr std::string_view kToyMagic = "TOYLOG1\n";

// A toy log: the magic, then one byte per "message". A file of fewer than 4 messages is cut.
class ToyInspector : public FormatInspector {
 public:
  explicit ToyInspector(ByteSource& source) : source_(source) {}
  Report summary() override {
    Report report;
    report.format = "toy";
    report.format_label = "Toy log v1";
    report.file.size_bytes = source_.size();
    uint64_t messages = source_.size() - kToyMagic.size();
    report.file.counts.push_back({"messages", messages});
    report.facts.set("greeting", "hello", Unit::Text);
    if (messages < 4) report.add_problem(Severity::Error, source_.size(), "toy.file.cut", "fewer than 4 messages: the log was cut");
    return report;
  }
  Report check(const ProgressFn&) override { return summary(); }
  std::string info_text(const InfoOptions&) override { return "toy log\n"; }
  Json checksum(const ProgressFn&) override {
    Json j = Json::object();
    j["status"] = "not_applicable";
    return j;
  }
  uint64_t child_count(const std::string&) override { return 0; }
  std::vector<TreeNode> children(const std::string&, uint64_t, uint64_t) override { return {}; }
  std::vector<std::string> locate(uint64_t) override { return {}; }
  std::vector<Span> spans(uint64_t, uint64_t) override { return {}; }
  Json decode(const std::string&) override { return Json::object(); }
  FileMap file_map(bool, const ProgressFn&) override { return FileMap(); }

 private:
  ByteSource& source_;
};

FormatEntry toy_entry() {
  FormatEntry e;
  e.name = "toy";
  e.label = "Toy log";
  e.summary = "a format that exists only in this test";
  e.match = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::Match> {
    if (!starts_with_magic(head, kToyMagic)) return std::nullopt;
    return FormatEntry::Match{"1", "Toy log v1"};
  };
  e.near_miss = [](std::string_view head, uint64_t) -> std::optional<FormatEntry::NearMiss> {
    if (!is_cut_magic(head, kToyMagic)) return std::nullopt;
    return FormatEntry::NearMiss{"truncated-header", "a toy log cut inside its magic"};
  };
  e.file_endings = {".toy"};
  e.recovery_codes = {"toy.file.cut"};
  e.open = [](ByteSource& source, const Detection&) { return std::make_unique<ToyInspector>(source); };
  e.small_demo = [] {
    std::string text = std::string(kToyMagic) + "abcdef";
    return std::vector<uint8_t>(text.begin(), text.end());
  };
  e.source = {"channel", "channels"};
  e.operations = {Operation::Export};
  return e;
}

struct StringExportSink : ExportSink {
  std::string text;
  bool write(std::string_view piece) override {
    text += piece;
    return true;
  }
};

Detection detect_text(const std::string& text) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  return detect(source);
}

// Registers the toy format for one test case and removes it after.
struct ToyRegistered {
  ToyRegistered() { add_format(toy_entry()); }
  ~ToyRegistered() { remove_format("toy"); }
};

}  // namespace

TEST_CASE("a toy format registered from a test is detected, opened and listed") {
  size_t builtin = formats().size();
  CHECK(detect_text(std::string(kToyMagic) + "ab").family == "unknown");
  {
    ToyRegistered toy;
    REQUIRE(formats().size() == builtin + 1);

    std::string text = std::string(kToyMagic) + "ab";
    Detection d = detect_text(text);
    CHECK(d.family == "toy");
    CHECK(d.version == "1");
    CHECK(d.label == "Toy log v1");
    CHECK(d.known());

    MemoryByteSource source(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    auto inspector = open_inspector(source, d);
    REQUIRE(inspector);
    Report report = inspector->summary();
    CHECK(report.to_json().dump().find("\"hello\"") != std::string::npos);
    REQUIRE(report.problems.size() == 1);
    CHECK(report.problems[0].code == "toy.file.cut");
    // The entry's recovery codes decide the category.
    Json json = report.to_json();
    const Json* problems = json.find("problems");
    REQUIRE(problems);
    const Json* category = problems->elements()[0].find("category");
    REQUIRE(category);
    CHECK(category->as_string() == "recovery");

    // A file cut inside the magic gets the format's own diagnosis.
    Detection cut = detect_text("TOYL");
    CHECK(cut.family == "unknown");
    CHECK(cut.kind == "truncated-header");
    CHECK(cut.diagnosis == "a toy log cut inside its magic");

    // What the CLI's help and the page's formats() are made of.
    std::string listing = formats_json().dump();
    CHECK(listing.find("\"name\":\"toy\"") != std::string::npos);
    CHECK(listing.find("\"endings\":[\".toy\"]") != std::string::npos);
    CHECK(listing.find("\"operations\":[\"export\"]") != std::string::npos);
    CHECK(listing.find("\"source\":{\"one\":\"channel\",\"many\":\"channels\"}") != std::string::npos);
    CHECK(format_labels().find("Toy log") != std::string::npos);
    REQUIRE(find_format("toy"));
    CHECK(find_format("toy")->supports(Operation::Export));
    CHECK_FALSE(find_format("toy")->supports(Operation::Repair));
    // Unknown files list it among what logscope reads.
    CHECK(detect_text("just some text").diagnosis.find("Toy log") != std::string::npos);

    // The warm-up opens its demo too.
    for (size_t i = 0; i < formats().size(); i++) CHECK(warm_up_format(i));

    // Operations the entry does not list are refused, not a crash.
    CHECK_FALSE(find_format("toy")->repair);
    StringExportSink rows;
    ExportResult refused = inspector->export_rows("a", ExportRequest(), rows, nullptr);
    CHECK(refused.error == "export is not available for this format");
    CHECK(rows.text.empty());
  }
  CHECK(formats().size() == builtin);
  CHECK(detect_text(std::string(kToyMagic) + "ab").family == "unknown");
}

TEST_CASE("a folder rule matches by file names: exact names, endings, a file beside its companion, splits named after the folder") {
  FolderRule rule;
  rule.names = {"index.yaml"};
  rule.endings = {".tdb"};
  rule.companions = {"-log"};
  rule.split_endings = {".part"};
  rule.split_digits = 3;
  using Clause = FolderRule::Clause;
  CHECK(rule.match("run", {"index.yaml", "a.tdb"}) == Clause::Name);
  CHECK(rule.match("run", {"a.tdb", "run_0.part"}) == Clause::Ending);
  CHECK(rule.match("run", {"store", "store-log"}) == Clause::Companion);
  CHECK_FALSE(rule.match("run", {"store-log"}));               // a companion alone
  CHECK_FALSE(rule.match("run", {"store-log", "store-log-log"}));  // nor beside its own
  CHECK(rule.match("run", {"run_0.part"}) == Clause::Split);
  CHECK(rule.match("logs/run/", {"run_12.part"}) == Clause::Split);  // a path: its last part names it
  CHECK(rule.match("my_run", {"my_run_999.part"}) == Clause::Split);
  for (const char* not_split : {"run_01.part", "run_1000.part", "run_.part", "run_x.part", "other_0.part", "run_0.part.bak", "run0.part"})
    CHECK_MESSAGE(!rule.match("run", {not_split}), not_split);
  CHECK_FALSE(rule.match("", {"_0.part"}));
  CHECK_FALSE(rule.match("run", {}));
  CHECK(FolderRule().empty());
  CHECK(rule.to_json().dump() ==
        R"({"names":["index.yaml"],"endings":[".tdb"],"companions":["-log"],"split_endings":[".part"],"split_digits":3})");
  // The table lists a folder format's rule, for the page (scripts/write-folder-rules.mjs).
  for (const FormatEntry& entry : formats()) {
    CHECK_MESSAGE((entry.to_json().find("folder_rule") != nullptr) == (entry.shape == LogShape::Folder), entry.name);
    if (entry.shape == LogShape::Folder) CHECK_MESSAGE(!entry.folder_rule.empty(), entry.name);
  }
}

TEST_CASE("the built-in formats each detect their own demo and open it clean") {
  for (const FormatEntry& entry : formats()) {
    CAPTURE(entry.name);
    REQUIRE(entry.small_demo);
    std::vector<uint8_t> bytes = entry.small_demo();
    MemoryByteSource source(bytes.data(), bytes.size());
    Detection d = detect(source);
    CHECK(d.family == entry.name);
    auto inspector = open_inspector(source, d);
    REQUIRE(inspector);
    Report report = inspector->summary();
    CHECK(report.format == entry.name);
    CHECK(report.count(Severity::Error) == 0);
    CHECK(!entry.file_endings.empty());
    CHECK(!entry.label.empty());
    // Every operation listed has a source noun where it needs one.
    if (entry.supports(Operation::Export) || entry.supports(Operation::Extract)) CHECK(!entry.source.one.empty());
    // The operations listed are the ones it has.
    CHECK(entry.supports(Operation::Extract) == bool(entry.extract));
    CHECK(entry.supports(Operation::Repair) == bool(entry.repair));
  }
}

// The small demos are kept as bytes in each format's folder (small_demo.inc), so the page's view
// module reads them without linking a writer. They must be what the writer makes today:
// LOGSCOPE_UPDATE_SMALL_DEMOS=1 rewrites the files from the writers (then rebuild).
TEST_CASE("every format's kept small demo is what its writer makes") {
  const bool update = std::getenv("LOGSCOPE_UPDATE_SMALL_DEMOS") != nullptr;
  for (const FormatEntry& entry : formats()) {
    CAPTURE(entry.name);
    REQUIRE(entry.make_small_demo);
    std::vector<uint8_t> written = entry.make_small_demo();
    REQUIRE(!written.empty());
    if (update) {
      std::ofstream out(std::string(LOGSCOPE_SOURCE_DIR) + "/codec/" + entry.name + "/small_demo.inc");
      out << "// " << written.size() << " bytes written by " << entry.name
          << "'s make_small_demo (outputs.cpp); tests/codec/test_format_table.cpp keeps them equal.\n";
      for (size_t i = 0; i < written.size(); ++i) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x,", written[i]);
        out << hex << ((i % 16 == 15 || i + 1 == written.size()) ? "\n" : "");
      }
      continue;
    }
    CHECK_MESSAGE(entry.small_demo() == written,
                  "codec/" << entry.name << "/small_demo.inc differs from its writer: run this test with LOGSCOPE_UPDATE_SMALL_DEMOS=1");
  }
}

TEST_CASE("every format's node ids are strict: a sign, a space or an overflow is no node") {
  for (const FormatEntry& entry : formats()) {
    CAPTURE(entry.name);
    std::vector<uint8_t> bytes = entry.small_demo();
    MemoryByteSource source(bytes.data(), bytes.size());
    auto inspector = open_inspector(source, detect(source));
    REQUIRE(inspector);
    std::vector<TreeNode> top = inspector->children("", 0, 4);
    REQUIRE(!top.empty());
    for (const TreeNode& node : top) {
      CAPTURE(node.id);
      size_t digit = node.id.find_first_of("0123456789");
      if (digit == std::string::npos) continue;
      for (const char* bad : {"+", " ", "-", "0x", "99999999999999999999999"}) {
        std::string id = node.id.substr(0, digit) + bad + node.id.substr(digit);
        CAPTURE(id);
        CHECK(inspector->child_count(id) == 0);
        CHECK(inspector->children(id, 0, 10).empty());
        CHECK(inspector->decode(id).find("error") != nullptr);
      }
    }
  }
}
