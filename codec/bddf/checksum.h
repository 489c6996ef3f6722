// The file's SHA1, fed by a SequentialReader's observer (the checksum alone drains the reader;
// the doctor walks blocks through the same reader and gets the hash from the same reads), or by
// a caller that pushes the bytes itself (ByteFeed: the page streams the file into it).
#pragma once

#include <cstdint>
#include <vector>

#include "bddf/model.h"
#include "core/inspector.h"
#include "core/json.h"
#include "core/sequential.h"
#include "core/sha1.h"

namespace logscope::bddf {

// The SHA1 check on its own: one sequential pass over [0, size-24) ({"status": "valid" | "mismatch"
// | "none" | "absent" | "cancelled", ...}).
Json compute_checksum(ByteSource& source, const FileModel& model, const ProgressFn& progress);

class ChecksumPass : public ByteFeed {
 public:
  // beside_parsing: the pass also parses, so the hash goes to the installed Sha1Offload if any.
  explicit ChecksumPass(const FileModel& model, bool beside_parsing = false);
  ~ChecksumPass() override;
  ChecksumPass(const ChecksumPass&) = delete;
  ChecksumPass& operator=(const ChecksumPass&) = delete;
  bool hashing() const { return hashing_; }  // false: absent trailer or CHECKSUM_TYPE_NONE
  uint64_t end() const override { return covered_; }
  uint64_t hashed() const { return hashed_; }
  // The checksum JSON when nothing is hashed (absent trailer, CHECKSUM_TYPE_NONE).
  const Json& unhashed() const { return result_; }
  void attach(SequentialReader& reader);
  // Hashes the next bytes; anything past end() is ignored.
  void update(const uint8_t* data, size_t size) override;
  // The checksum JSON ({"status": "valid"|"mismatch"|"none"|"absent"|"cancelled", ...}).
  Json finish(const std::string& error, bool cancelled) override;
  Json finish(const SequentialReader& reader, bool cancelled) { return finish(reader.error(), cancelled); }

 private:
  void flush_to_offload();
  // The doctor observes one block at a time: the offload gets them gathered, a few calls per file.
  static constexpr size_t kOffloadBatch = 4u << 20;
  Sha1Offload* offload_ = nullptr;
  std::vector<uint8_t> batch_;
  Json result_ = Json::object();
  bool hashing_ = false;
  uint64_t covered_ = 0;
  uint64_t hashed_ = 0;
  Sha1 sha_;
};

}  // namespace logscope::bddf
