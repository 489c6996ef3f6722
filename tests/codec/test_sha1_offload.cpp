// The BDDF full check with its SHA1 on another worker, as the page runs it (core/sha1.h
// Sha1Offload; web/src/hash-offload.js). A stand-in offload hashes what it is given. The check
// must give the same report as hashing in place, hand over every covered byte in order in a few
// large calls, and say so when the other worker fails; "Verify checksum" alone never offloads.
#include <string>

#include "bddf/demo.h"
#include "core/sha1.h"
#include "test_bddf_support.h"

namespace {

using namespace logscope;
using bddf_test::field;

class StandInSha1 : public Sha1Offload {
 public:
  bool begin() override {
    ++begun;
    return available;
  }
  void update(const uint8_t* data, size_t size) override {
    sha_.update(data, size);
    bytes += size;
    ++calls;
  }
  bool finish(std::string* hex, std::string* error) override {
    ++finished;
    std::string digest = Sha1::hex(sha_.finish());
    if (fail) {
      *error = "the hashing worker stopped answering";
      return false;
    }
    *hex = digest;
    return true;
  }

  bool available = true;
  bool fail = false;
  int begun = 0, finished = 0;
  uint64_t bytes = 0, calls = 0;

 private:
  Sha1 sha_;
};

struct Installed {
  explicit Installed(Sha1Offload* offload) { set_sha1_offload(offload); }
  ~Installed() { set_sha1_offload(nullptr); }
};

std::string demo_path() {
  static std::string path = [] {
    std::string p = test_support::scratch_dir("sha1-offload") + "/demo.bddf";
    std::string error;
    REQUIRE_MESSAGE(bddf::write_demo_file(p, 12u << 20, &error), error);
    return p;
  }();
  return path;
}

}  // namespace

TEST_CASE("bddf check: the SHA1 beside the block walk goes to the offload, with the same report") {
  auto opened = bddf_test::open_path(demo_path());
  Report first = opened.inspector->check(nullptr);
  Json in_place = first.to_json();
  uint64_t covered = field(field(first.details, "checksum"), "covered_bytes").as_uint();
  REQUIRE(covered > (8u << 20));
  CHECK(field(field(first.details, "checksum"), "status").as_string() == "valid");

  StandInSha1 offload;
  Installed installed(&offload);
  Json offloaded = opened.inspector->check(nullptr).to_json();
  CHECK(offloaded.dump() == in_place.dump());
  CHECK(offload.begun == 1);
  CHECK(offload.finished == 1);
  CHECK(offload.bytes == covered);
  CHECK(offload.calls <= covered / (4u << 20) + 1);  // gathered: not one call per block

  // "Verify checksum" has nothing to overlap with: it hashes in place.
  Json checksum = opened.inspector->checksum(nullptr);
  CHECK(field(checksum, "status").as_string() == "valid");
  CHECK(offload.begun == 1);
}

TEST_CASE("bddf check: an offload that cannot start or fails") {
  auto opened = bddf_test::open_path(demo_path());
  Json in_place = opened.inspector->check(nullptr).to_json();

  StandInSha1 busy;
  busy.available = false;  // the caller hashes itself
  {
    Installed installed(&busy);
    CHECK(opened.inspector->check(nullptr).to_json().dump() == in_place.dump());
    CHECK(busy.bytes == 0);
  }

  StandInSha1 failing;
  failing.fail = true;
  Installed installed(&failing);
  Report report = opened.inspector->check(nullptr);
  Json checksum = field(report.details, "checksum");
  CHECK(field(checksum, "status").as_string() == "mismatch");
  CHECK(field(checksum, "computed").is_null());
  CHECK(field(checksum, "message").as_string() == "could not compute the checksum: the hashing worker stopped answering");
  CHECK(bddf_test::has_problem(report, "bddf.checksum.mismatch"));
  CHECK(failing.finished == 1);
}
