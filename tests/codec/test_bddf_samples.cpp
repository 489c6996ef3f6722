// Conformance with the official SDK reader: every field of every sample's truth file.
#include <dirent.h>

#include <algorithm>
#include <set>

#include "bddf/format.h"
#include "test_bddf_support.h"

using namespace logscope;
using bddf_test::json_diff;

namespace {

std::vector<std::string> sample_names() {
  std::vector<std::string> names;
  DIR* dir = ::opendir(test_support::sample("bddf").c_str());
  if (!dir) return names;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".bddf") == 0) names.push_back(name.substr(0, name.size() - 5));
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

const Json& field(const Json& object, const std::string& key) {
  const Json* value = object.find(key);
  REQUIRE_MESSAGE(value, "missing key " << key);
  return *value;
}

// Our key for a truth key of official_DataReader.series[] (same name unless listed).
std::string our_series_key(const std::string& key) {
  if (key == "identifier_hash_recomputed_by_FileIndexer") return "identifier_hash_matches";
  return key;
}

void compare_series(FormatInspector& inspector, const Json& truth, const Json& ours, const std::string& name) {
  for (const auto& item : truth.items()) {
    const auto& key = item.first;  // not a structured binding: lambdas capture it (clang, C++17)
    const auto& expected = item.second;
    if (key == "block_entries" || key == "read_back") continue;  // checked below through queries and decoding
    INFO(name << " series " << truth.find("index")->dump() << " key " << key);
    const Json* actual = ours.find(our_series_key(key));
    REQUIRE_MESSAGE(actual, "our summary lacks " << key);
    CHECK_MESSAGE(json_diff(expected, *actual, key).empty(), json_diff(expected, *actual, key));
  }
  // Block entries, paged through the blocks query.
  const Json& entries = field(truth, "block_entries");
  Json args = Json::object();
  args["series"] = truth.find("index")->as_uint();
  args["first"] = 0;
  args["count"] = entries.size() + 10;
  Json blocks = inspector.query("blocks", args, nullptr);
  CHECK(field(blocks, "total").as_uint() == entries.size());
  CHECK(json_diff(entries, field(blocks, "entries"), "block_entries") == "");
  // Read back every block as the official reader did: descriptors agree with the index, sizes sum up.
  const Json& read_back = field(truth, "read_back");
  uint64_t sum = 0, samples = 0, mismatches = 0;
  for (const Json& entry : entries.elements()) {
    Json request = Json::object();
    request["offset"] = entry.find("file_offset")->as_uint();
    Json block = inspector.query("block", request, nullptr);
    REQUIRE_MESSAGE(!block.contains("error"), block.dump());
    const Json& dd = field(block, "data_descriptor");
    if (field(dd, "timestamp_ns").as_string() != field(entry, "timestamp_ns").dump() ||  // ours: exact digits
        field(dd, "series_index").as_uint() != truth.find("index")->as_uint())
      ++mismatches;
    sum += field(block, "payload_size").as_uint();
    if (const Json* payload = block.find("payload"); payload && payload->contains("num_samples"))
      samples += payload->find("num_samples")->as_uint();
  }
  CHECK(sum == field(read_back, "sum_data_bytes").as_uint());
  CHECK(mismatches == field(read_back, "descriptor_vs_index_mismatches").as_uint());
  if (read_back.contains("num_samples")) CHECK(samples == field(read_back, "num_samples").as_uint());
}

}  // namespace

TEST_CASE("bddf samples: summary agrees with the official readers' truth") {
  if (!test_support::have_samples()) return;
  std::vector<std::string> names = sample_names();
  REQUIRE(names.size() >= 4);
  for (const std::string& name : names) {
    INFO("sample " << name);
    auto opened = bddf_test::open_path(test_support::sample("bddf/" + name + ".bddf"));
    Json truth = bddf_test::load_json(test_support::sample("bddf/" + name + ".truth.json"));
    Report report = opened.inspector->summary();
    const Json& details = report.details;
    CHECK(report.format == "bddf");

    const Json& reader = field(truth, "official_DataReader");
    if (reader.contains("constructed")) {
      CHECK(field(details, "opened_from").as_string() == "index");
      for (const auto& item : reader.items()) {
    const auto& key = item.first;  // not a structured binding: lambdas capture it (clang, C++17)
    const auto& expected = item.second;
        if (key == "series" || key == "constructed" || key == "all_ok" || key.rfind("DataReader.", 0) == 0) continue;
        std::string ours = key == "index_offset(_index_offset)" ? "index_offset" : key;
        INFO("key " << key);
        REQUIRE(details.contains(ours));
        CHECK_MESSAGE(json_diff(expected, field(details, ours), key).empty(), json_diff(expected, field(details, ours), key));
      }
      const Json& series = field(reader, "series");
      REQUIRE(field(details, "series").size() == series.size());
      for (size_t i = 0; i < series.size(); ++i) compare_series(*opened.inspector, series[i], field(details, "series")[i], name);
    }

    // The sequential reader: version, annotations, blocks per series (also for files the index reader cannot open).
    const Json& stream = field(truth, "official_StreamDataReader");
    CHECK(field(details, "version").as_string() == field(stream, "version").as_string());
    CHECK(json_diff(field(stream, "annotations"), field(details, "annotations"), "annotations") == "");
    CHECK(field(details, "data_blocks").as_uint() == field(stream, "data_blocks").as_uint());
    for (const auto& item : field(stream, "data_blocks_per_series").items()) {
    const auto& series_index = item.first;  // not a structured binding: lambdas capture it (clang, C++17)
    const auto& count = item.second;
      size_t s = std::stoul(series_index);
      REQUIRE(s < field(details, "series").size());
      CHECK(field(field(details, "series")[s], "num_blocks").as_uint() == count.as_uint());
    }

    // Trailer fields, as read raw.
    const Json& trailer = field(truth, "trailer_raw");
    const Json& our_trailer = field(details, "trailer_raw");
    for (const auto& item : trailer.items()) {
    const auto& key = item.first;  // not a structured binding: lambdas capture it (clang, C++17)
    const auto& expected = item.second;
      if (key == "layout" || key == "computed_sha1_of_0_to_size_minus_24" || key == "sha1_matches") continue;
      INFO("trailer key " << key);
      REQUIRE(our_trailer.contains(key));
      CHECK(json_diff(expected, field(our_trailer, key), key) == "");
    }
    // Checksum status and the recomputed digest.
    Json checksum = opened.inspector->checksum(nullptr);
    std::string expected_status = !field(trailer, "trailer_present").as_bool() ? "absent"
                                  : field(trailer, "sha1_matches").as_bool() ? "valid" : "mismatch";
    CHECK(field(checksum, "status").as_string() == expected_status);
    if (expected_status != "absent")
      CHECK(field(checksum, "computed").as_string() == field(trailer, "computed_sha1_of_0_to_size_minus_24").as_string());
    // The page's way: the file's bytes pushed into the feed in the browser's chunk sizes.
    if (std::unique_ptr<ByteFeed> feed = opened.inspector->checksum_feed()) {
      std::vector<uint8_t> bytes = test_support::read_file(test_support::sample("bddf/" + name + ".bddf"));
      for (size_t at = 0; at < bytes.size(); at += 65536) feed->update(bytes.data() + at, std::min<size_t>(65536, bytes.size() - at));
      CHECK(feed->finish("", false).dump() == checksum.dump());
    }

    // The raw block walk, through the structure tree (blocks in file order).
    const Json& walk = field(truth, "raw_block_walk");
    std::vector<TreeNode> nodes = opened.inspector->children("", 0, opened.inspector->child_count(""));
    REQUIRE(nodes.size() == opened.inspector->child_count(""));
    std::vector<std::pair<uint64_t, std::string>> descriptors;
    uint64_t data_nodes = 0;
    const TreeNode* end_node = nullptr;
    for (const TreeNode& node : nodes) {
      Json decoded = opened.inspector->decode(node.id);
      std::string kind = field(decoded, "kind").as_string();
      if (kind == "data") ++data_nodes;
      else if (kind == "end") end_node = &node;
      else if (kind != "magic" && kind != "damaged") descriptors.emplace_back(node.offset, kind);
    }
    const Json& walked = field(walk, "descriptor_blocks");
    REQUIRE(descriptors.size() == walked.size());
    for (size_t i = 0; i < walked.size(); ++i) {
      CHECK(descriptors[i].first == field(walked[i], "offset").as_uint());
      const Json& type = field(walked[i], "descriptor_type");
      // An empty DescriptorBlock has no type; at the index offset we know it is the (empty) FileIndex.
      if (type.is_null()) CHECK((descriptors[i].second == "descriptor" || descriptors[i].second == "file_index"));
      else CHECK(descriptors[i].second == type.as_string());
      std::vector<std::string> path = opened.inspector->locate(descriptors[i].first);
      REQUIRE(!path.empty());
      CHECK(path.size() == 2);  // the block, then its header
    }
    CHECK(data_nodes == field(walk, "data_blocks").as_uint());
    if (const Json* end = walk.find("end_block")) {
      REQUIRE(end_node);
      CHECK(end_node->offset == field(*end, "offset").as_uint());
    } else {
      CHECK(end_node == nullptr);
    }
    if (const Json* first = walk.find("first_data_block")) {
      Json request = Json::object();
      request["offset"] = field(*first, "offset").as_uint();
      Json block = opened.inspector->query("block", request, nullptr);
      CHECK(field(block, "size_field").as_uint() == field(*first, "size_field").as_uint());
      CHECK(field(block, "descriptor_size").as_uint() == field(*first, "data_descriptor_size").as_uint());
      CHECK(field(block, "payload_size").as_uint() == field(*first, "payload_size").as_uint());
    }
  }
}

TEST_CASE("bddf samples: POD samples decode as the official PodSeriesReader reads them") {
  if (!test_support::have_samples()) return;
  for (const std::string& name : {"robot_state_small", "corrupted_checksum"}) {
    auto opened = bddf_test::open_path(test_support::sample(std::string("bddf/") + name + ".bddf"));
    Json truth = bddf_test::load_json(test_support::sample(std::string("bddf/") + name + ".truth.json"));
    const Json& pods = field(field(truth, "official_high_level_readers"), "PodSeriesReader");
    Report report = opened.inspector->summary();
    for (const auto& item : pods.items()) {
    const auto& spec_text = item.first;  // not a structured binding: lambdas capture it (clang, C++17)
    const auto& expected = item.second;
      auto spec = Json::parse(spec_text);
      REQUIRE(spec);
      const Json* found = nullptr;
      for (const Json& s : field(report.details, "series").elements())
        if (json_diff(*spec, field(s, "spec"), "spec").empty()) found = &s;
      REQUIRE_MESSAGE(found, spec_text);
      CHECK(field(*found, "num_blocks").as_uint() == field(expected, "num_data_blocks").as_uint());
      CHECK(field(*found, "num_samples").as_uint() == field(expected, "num_samples").as_uint());
      Json args = Json::object();
      args["series"] = field(*found, "index").as_uint();
      args["count"] = 100000;
      const Json entries = field(opened.inspector->query("blocks", args, nullptr), "entries");
      // First samples of the first block, last samples of the last block.
      const Json& head = field(expected, "first_block_ts_and_first_samples");
      const Json& tail = field(expected, "last_block_ts_and_last_samples");
      Json request = Json::object();
      request["offset"] = field(entries[size_t{0}], "file_offset").as_uint();
      request["max_items"] = 100000;
      Json first = opened.inspector->query("block", request, nullptr);
      CHECK(field(field(first, "data_descriptor"), "timestamp_ns").as_string() == head[size_t{0}].dump());
      for (size_t i = 0; i < head[size_t{1}].size(); ++i)
        CHECK(json_diff(head[size_t{1}][i], field(field(first, "payload"), "samples")[i], "sample") == "");
      request["offset"] = field(entries[entries.size() - 1], "file_offset").as_uint();
      Json last = opened.inspector->query("block", request, nullptr);
      CHECK(field(field(last, "data_descriptor"), "timestamp_ns").as_string() == tail[size_t{0}].dump());
      const Json& samples = field(field(last, "payload"), "samples");
      REQUIRE(samples.size() >= tail[size_t{1}].size());
      for (size_t i = 0; i < tail[size_t{1}].size(); ++i)
        CHECK(json_diff(tail[size_t{1}][i], samples[samples.size() - tail[size_t{1}].size() + i], "sample") == "");
    }
  }
}

TEST_CASE("bddf samples: the doctor finds each planted fault") {
  if (!test_support::have_samples()) return;
  {
    auto opened = bddf_test::open_path(test_support::sample("bddf/robot_state_small.bddf"));
    Report report = opened.inspector->check(nullptr);
    CHECK(report.problems.empty());
    CHECK(field(field(report.details, "checksum"), "status").as_string() == "valid");
  }
  {
    auto opened = bddf_test::open_path(test_support::sample("bddf/empty.bddf"));
    Report report = opened.inspector->check(nullptr);
    for (const Problem& p : report.problems) INFO(p.code << " " << p.message);
    CHECK_MESSAGE(report.problems.empty(), (report.problems.empty() ? "" : report.problems[0].code + ": " + report.problems[0].message));
    CHECK(field(field(report.details, "checksum"), "status").as_string() == "valid");
    CHECK(field(report.details, "series").size() == 0);
  }
  {
    auto opened = bddf_test::open_path(test_support::sample("bddf/corrupted_checksum.bddf"));
    Report report = opened.inspector->check(nullptr);
    const Json& checksum = field(report.details, "checksum");
    CHECK(field(checksum, "status").as_string() == "mismatch");
    CHECK(field(checksum, "stored").as_string() == "f2b8ec7bf2e32cf1d6fb5f7887346d518be6fca8");
    CHECK(field(checksum, "computed").as_string() == "e78661e525cc1ca6b0efc655760678bdec6f6151");
    CHECK(bddf_test::has_problem(report, "bddf.checksum.mismatch"));
    CHECK(report.count(Severity::Error) == 1);  // the flipped bit leaves framing and index intact
  }
  {
    auto opened = bddf_test::open_path(test_support::sample("bddf/truncated_no_trailer.bddf"));
    Report report = opened.inspector->check(nullptr);
    CHECK(field(field(report.details, "checksum"), "status").as_string() == "absent");
    CHECK(bddf_test::has_problem(report, "bddf.trailer.bad_magic"));
    const Json& recovery = field(report.details, "recovery");
    CHECK(field(recovery, "recovered_blocks").as_uint() == 1011);
    CHECK(field(recovery, "ends_at").as_uint() == 1023887);
    CHECK(field(recovery, "end_code").as_string() == "eof");
    // Offsets and sizes rebuilt correctly (the SDK's stream reader swaps them).
    Json args = Json::object();
    args["series"] = 0;
    args["count"] = 1;
    CHECK(field(field(opened.inspector->query("blocks", args, nullptr), "entries")[0], "file_offset").as_uint() == 586);
    CHECK(field(field(report.details, "series")[0], "total_bytes").as_uint() == 988124);
  }
}
