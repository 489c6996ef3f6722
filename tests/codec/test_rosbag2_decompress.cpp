// A bag whose databases are compressed whole (.db3.zstd, compression_mode FILE): the streamed zstd
// copy (rosbag2/zstd_copy.h) and `logscope decompress`, which writes a copy that opens.
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/output_sink.h"
#include <doctest/doctest.h>
#include "rosbag2/writer.h"
#include "rosbag2/zstd_copy.h"
#include "test_support.h"

using namespace logscope;

namespace {

std::string zstd_of(const std::vector<uint8_t>& bytes, int level = 3) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), level);
  REQUIRE(!ZSTD_isError(n));
  out.resize(n);
  return out;
}

rosbag2::ZstdCopy copy_of(const std::string& compressed, MemoryOutputSink* out) {
  MemoryByteSource in(reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size());
  return rosbag2::decompress_zstd_file(in, *out, nullptr);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("rosbag2 zstd copy: the database comes back byte for byte, a cut stream says where, garbage is refused") {
  std::vector<uint8_t> database = rosbag2::small_demo_database();
  std::string whole = zstd_of(database);
  MemoryOutputSink out;
  rosbag2::ZstdCopy copy = copy_of(whole, &out);
  CHECK(copy.ok);
  CHECK(copy.read == whole.size());
  CHECK(out.bytes == std::string(database.begin(), database.end()));

  // Two frames one after another (a writer that flushed): both are decompressed.
  std::vector<uint8_t> first(database.begin(), database.begin() + database.size() / 3), second(database.begin() + database.size() / 3, database.end());
  MemoryOutputSink two;
  CHECK(copy_of(zstd_of(first) + zstd_of(second, 19), &two).ok);
  CHECK(two.bytes == std::string(database.begin(), database.end()));

  for (size_t cut : {size_t(1), size_t(5), whole.size() / 2, whole.size() - 1}) {
    MemoryOutputSink part;
    rosbag2::ZstdCopy r = copy_of(whole.substr(0, cut), &part);
    INFO("cut at " << cut);
    CHECK_FALSE(r.ok);
    CHECK(!r.error.empty());
    CHECK(part.bytes.size() < database.size());
  }
  MemoryOutputSink none;
  rosbag2::ZstdCopy garbage = copy_of(std::string("SQLite format 3 is not zstd"), &none);
  CHECK_FALSE(garbage.ok);
  CHECK(garbage.error.find("zstd") != std::string::npos);
  CHECK_FALSE(copy_of(std::string(), &none).ok);
}

TEST_CASE("logscope decompress: a writer-made bag compressed whole opens again, as the bag it was") {
  std::string dir = test_support::scratch_dir("rosbag2_decompress");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string original = dir + "/original", compressed = dir + "/compressed", copy = dir + "/copy";
  std::string error;
  INFO(error);
  REQUIRE(rosbag2::write_demo_bag(original, 300 << 10, &error));
  std::filesystem::create_directories(compressed);
  // What rosbag2 records with compression_mode FILE: each split file zstd-compressed whole.
  std::vector<uint8_t> database = test_support::read_file(original + "/original_0.db3");
  REQUIRE(!database.empty());
  write_text(compressed + "/original_0.db3.zstd", zstd_of(database));
  std::ifstream yaml_in(original + "/metadata.yaml");
  std::string yaml((std::istreambuf_iterator<char>(yaml_in)), {});
  for (auto [from, to] : {std::pair<std::string, std::string>{"original_0.db3\n", "original_0.db3.zstd\n"},
                          {"compression_format: \"\"", "compression_format: zstd"}, {"compression_mode: \"\"", "compression_mode: FILE"}}) {
    size_t at = 0;
    while ((at = yaml.find(from, at)) != std::string::npos) yaml.replace(at, from.size(), to), at += to.size();
  }
  write_text(compressed + "/metadata.yaml", yaml);

  std::string before = test_support::run_cli("info '" + compressed + "'");
  CHECK(before.find("needs a decompressed copy") != std::string::npos);
  int status = -1;
  std::string said = test_support::run_cli("decompress '" + compressed + "' '" + copy + "'", &status);
  INFO(said);
  CHECK(status == 0);
  CHECK(test_support::read_file(copy + "/original_0.db3") == database);
  // The copy's info is the original bag's, read from its database (the same file name and size).
  std::string expected = test_support::run_cli("info '" + original + "'");
  CHECK(test_support::run_cli("info '" + copy + "'") == expected);
  CHECK(said.find(expected.substr(expected.find("Messages:"))) != std::string::npos);
  // An existing folder is never written over; a bag that is not compressed needs no copy.
  CHECK(test_support::run_cli("decompress '" + compressed + "' '" + copy + "'", &status).find("exists") != std::string::npos);
  CHECK(status == 2);
  test_support::run_cli("decompress '" + original + "' '" + dir + "/unneeded'", &status);
  CHECK(status == 2);
}

TEST_CASE("logscope decompress: the real bag recorded with compression_mode FILE") {
  if (!test_support::have_samples()) return;
  std::string dir = test_support::scratch_dir("rosbag2_decompress_sample");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  int status = -1;
  std::string said = test_support::run_cli("decompress '" + test_support::sample("rosbag2/ros2__rosbag2__compressed_bag") + "' '" + dir + "/copy'", &status);
  INFO(said);
  CHECK(status == 0);
  CHECK(said.find("Topic: /rosout | Type: rcl_interfaces/msg/Log") != std::string::npos);
  CHECK(said.find("Topic: /parameter_events | Type: rcl_interfaces/msg/ParameterEvent") != std::string::npos);
  CHECK(test_support::run_cli("check '" + dir + "/copy'", &status).find("0 errors, 0 warnings") != std::string::npos);
}
