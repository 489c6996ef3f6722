// The chunk pipeline with a decompression offload, as the browser runs it (no threads; helper
// workers behind DecompressOffload). A stand-in offload decodes on submit and says a
// result is ready only every other time it is asked, so the pipeline has to both collect from
// the helpers and decode chunks of its own out of order. Results must not change at all.
#include <cstring>
#include <map>
#include <string>

#include "core/byte_source.h"
#include "core/detect.h"
#include "inspector.h"
#include "rosbag/chunk.h"
#include "rosbag/demo.h"
#include "test_support.h"

namespace {

using namespace logscope;

class StandInOffload : public DecompressOffload {
 public:
  explicit StandInOffload(size_t slots) : slots_(slots) {}
  size_t free_slots() override { return slots_ - pending_.size(); }
  bool submit(uint64_t ticket, std::string_view compression, const uint8_t* data, size_t size, uint32_t uncompressed_size,
              bool verify) override {
    if (pending_.size() >= slots_) return false;
    Result& r = pending_[ticket];
    r.status = decompressor_.decompress(compression, data, size, uncompressed_size, &r.bytes, verify);
    ++submitted;
    return true;
  }
  bool ready(uint64_t) override { return (++asked_ % 2) == 0; }
  DecompressStatus collect(uint64_t ticket, ByteBuffer* out) override {
    auto it = pending_.find(ticket);
    REQUIRE(it != pending_.end());
    DecompressStatus status = it->second.status;
    out->resize(it->second.bytes.size());
    if (out->size()) std::memcpy(out->data(), it->second.bytes.data(), out->size());
    pending_.erase(it);
    ++collected;
    return status;
  }
  void forget(uint64_t ticket) override { pending_.erase(ticket); }

  size_t submitted = 0;
  size_t collected = 0;

 private:
  struct Result {
    DecompressStatus status;
    ByteBuffer bytes;
  };
  size_t slots_;
  uint64_t asked_ = 0;
  std::map<uint64_t, Result> pending_;
  ChunkDecompressor decompressor_;
};

struct Outputs {
  std::string check, iterate, checksum;
};

Outputs run_passes(const std::string& path) {
  std::string error;
  auto source = FileByteSource::open(path, &error);
  REQUIRE(source);
  auto inspector = open_inspector(*source, detect(*source));
  REQUIRE(inspector);
  Outputs out;
  out.check = inspector->check(nullptr).to_json().dump();
  out.iterate = inspector->query("iterate_all", Json::object(), nullptr).dump();
  out.checksum = inspector->checksum(nullptr).dump();
  return out;
}

// A demo bag of about `size` bytes with chunks of `compression`, written into `dir`.
std::string demo_bag(const std::string& dir, const char* compression, uint64_t size) {
  std::string path = dir + "/" + compression + ".bag";
  rosbag::DemoOptions options;
  options.compression = compression;
  std::string error;
  REQUIRE(rosbag::write_demo_file(path, size, options, &error));
  return path;
}

}  // namespace

TEST_CASE("decompression offload: check and iteration give the same results with helpers as without") {
  std::string dir = test_support::scratch_dir("decompress_offload");
  for (const char* compression : {"lz4", "bz2"}) {
    CAPTURE(compression);
    std::string path = demo_bag(dir, compression, 6u << 20);
    Outputs alone = run_passes(path);
    for (size_t slots : {1u, 2u, 6u}) {
      CAPTURE(slots);
      StandInOffload offload(slots);
      set_decompress_offload(&offload);
      Outputs shared = run_passes(path);
      set_decompress_offload(nullptr);
      CHECK(shared.check == alone.check);
      CHECK(shared.iterate == alone.iterate);
      CHECK(shared.checksum == alone.checksum);
      CHECK(offload.submitted > 0);
      CHECK(offload.collected > 0);
    }
  }
}

TEST_CASE("decompression offload: the checksum hands on lz4 chunks only (bz2 chunks carry no checksum)") {
  std::string dir = test_support::scratch_dir("decompress_offload_checksum");
  for (const char* compression : {"lz4", "bz2"}) {
    CAPTURE(compression);
    std::string path = demo_bag(dir, compression, 4u << 20);
    std::string error;
    auto source = FileByteSource::open(path, &error);
    REQUIRE(source);
    auto inspector = open_inspector(*source, detect(*source));
    REQUIRE(inspector);
    StandInOffload offload(4);
    set_decompress_offload(&offload);
    std::string status = inspector->checksum(nullptr).find("status")->as_string();
    set_decompress_offload(nullptr);
    if (std::string(compression) == "lz4") {
      CHECK(status == "valid");
      CHECK(offload.submitted > 0);
    } else {
      CHECK(status == "not_applicable");
      CHECK(offload.submitted == 0);
    }
  }
}
