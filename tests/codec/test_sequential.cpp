// SequentialReader: big windows, every byte observed once and in order, forward jumps, refusals.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/sequential.h"
#include "test_support.h"

using namespace logscope;

namespace {
std::vector<uint8_t> counting_bytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
  return bytes;
}
// A source that must be read (not mapped), so windows are really copied.
struct ReadOnlySource : ByteSource {
  explicit ReadOnlySource(const std::vector<uint8_t>& b) : bytes(b) {}
  uint64_t size() const override { return bytes.size(); }
  size_t read(uint64_t offset, void* destination, size_t length) override {
    if (offset >= bytes.size()) return 0;
    size_t n = std::min<size_t>(length, bytes.size() - offset);
    std::memcpy(destination, bytes.data() + offset, n);
    ++calls;
    return n;
  }
  const std::vector<uint8_t>& bytes;
  size_t calls = 0;
};
}  // namespace

TEST_CASE("sequential reader: views across windows, observer sees every byte once in order") {
  std::vector<uint8_t> bytes = counting_bytes(100000);
  for (int mapped = 0; mapped < 2; ++mapped) {
    ReadOnlySource slow(bytes);
    MemoryByteSource memory(bytes.data(), bytes.size());
    ByteSource& source = mapped ? static_cast<ByteSource&>(memory) : slow;
    SequentialReader::Options options;
    options.window = 4096;
    SequentialReader reader(source, 10, 99000, options);
    std::vector<uint8_t> seen;
    reader.set_observer([&](const uint8_t* data, size_t size) { seen.insert(seen.end(), data, data + size); });
    // Records of varying length, some straddling window edges, then a jump over a "payload".
    uint64_t at = 10;
    for (size_t len : {5u, 4000u, 300u, 9000u, 1u}) {
      const uint8_t* p = reader.view(at, len);
      REQUIRE(p != nullptr);
      CHECK(std::memcmp(p, bytes.data() + at, len) == 0);
      at += len;
    }
    CHECK(reader.view(at + 20000, 16) != nullptr);
    CHECK(reader.view(at, 16) == nullptr);  // behind what was consumed
    CHECK(reader.view(98990, 11) == nullptr);  // leaves the range
    CHECK(reader.drain());
    REQUIRE(seen.size() == 99000 - 10);
    CHECK(std::memcmp(seen.data(), bytes.data() + 10, seen.size()) == 0);
    if (!mapped) CHECK(slow.calls <= 99000 / 4096 + 4);  // window-sized reads, not one per record
  }
}

TEST_CASE("sequential reader: without an observer a jump reads nothing in between") {
  std::vector<uint8_t> bytes = counting_bytes(1 << 20);
  ReadOnlySource slow(bytes);
  SequentialReader::Options options;
  options.window = 4096;
  SequentialReader reader(slow, 0, bytes.size(), options);
  REQUIRE(reader.view(0, 8) != nullptr);
  const uint8_t* p = reader.view(900000, 8);
  REQUIRE(p != nullptr);
  CHECK(std::memcmp(p, bytes.data() + 900000, 8) == 0);
  CHECK(slow.calls == 2);
}

TEST_CASE("sequential reader: hostile lengths are refused, short files say where they end") {
  std::vector<uint8_t> bytes = counting_bytes(5000);
  ReadOnlySource slow(bytes);
  SequentialReader::Options options;
  options.max_view = 1000;
  SequentialReader reader(slow, 0, bytes.size(), options);
  CHECK(reader.view(0, 1001) == nullptr);
  CHECK(reader.error().find("larger") != std::string::npos);
  CHECK(reader.view(0, uint64_t{1} << 56 > SIZE_MAX ? SIZE_MAX : size_t(uint64_t{1} << 56)) == nullptr);
  // A source shorter than it claims: the failed read names the offset.
  struct Liar : ReadOnlySource {
    using ReadOnlySource::ReadOnlySource;
    uint64_t size() const override { return 10000; }
  } liar(bytes);
  SequentialReader lying(liar, 0, 10000);
  CHECK(lying.view(4000, 2000) == nullptr);
  CHECK(lying.error() == "could not read byte 5000 of the file");
}

TEST_CASE("sequential reader: reading ahead on another thread changes nothing the pass sees") {
  // A real file (pread may run on another thread), windows of 64 KB, records of many sizes that
  // straddle windows, one larger than the room kept in front of a background window, and jumps.
  std::vector<uint8_t> bytes = counting_bytes(3u << 20);
  std::string path = test_support::scratch_dir("sequential") + "/ahead.bin";
  test_support::write_file(path, bytes);
  std::string error;
  auto file = FileByteSource::open(path, &error);
  REQUIRE(file);
  CachedByteSource cached(*file);
  REQUIRE(cached.concurrent_source() == file.get());
  for (bool observe : {true, false}) {
    for (bool ahead : {true, false}) {
      CAPTURE(observe);
      CAPTURE(ahead);
      SequentialReader::Options options;
      options.window = 64u << 10;
      options.read_ahead = ahead;
      SequentialReader reader(cached, 0, bytes.size(), options);
      uint64_t observed = 0;
      bool in_order = true;
      if (observe)
        reader.set_observer([&](const uint8_t* data, size_t size) {
          in_order = in_order && std::memcmp(data, bytes.data() + observed, size) == 0;
          observed += size;
        });
      uint64_t at = 0;
      size_t sizes[] = {1, 700, 65535, 65536, 65537, 3000, (1u << 20) + 5000, 12, 200000};
      for (size_t k = 0; at < bytes.size(); ++k) {
        size_t length = std::min<uint64_t>(sizes[k % 9], bytes.size() - at);
        const uint8_t* view = reader.view(at, length);
        REQUIRE(view);
        CHECK(std::memcmp(view, bytes.data() + at, length) == 0);
        at += length;
        if (k % 7 == 6) at = std::min<uint64_t>(bytes.size(), at + 150000);  // a forward jump
      }
      CHECK(reader.drain());
      CHECK(in_order);
      if (observe) CHECK(observed == bytes.size());
    }
  }
}
