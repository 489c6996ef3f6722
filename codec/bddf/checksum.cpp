// SHA1 over [0, size-24), the bytes the SDK writer hashes, computed as an observer of one
// sequential pass, so the doctor's block walk and the hash share every read.
#include <algorithm>

#include "bddf/checksum.h"
#include "bddf/format.h"

namespace logscope::bddf {

ChecksumPass::ChecksumPass(const FileModel& model, bool beside_parsing) {
  result_["algorithm"] = "SHA1";
  const Trailer& t = model.trailer;
  if (!t.present) {
    result_["status"] = "absent";
    result_["stored"] = Json();
    result_["computed"] = Json();
    result_["covered_bytes"] = 0;
    result_["message"] = "no trailer, so no stored checksum (the file was not closed)";
    return;
  }
  covered_ = model.size - kDigestSize - 4;
  result_["stored"] = hex_string(t.digest, kDigestSize);
  result_["covered_bytes"] = covered_;
  if (model.checksum_type == kChecksumNone) {
    result_["status"] = "none";
    result_["computed"] = Json();
    result_["message"] = "the file declares CHECKSUM_TYPE_NONE";
    return;
  }
  hashing_ = true;
  Sha1Offload* offload = beside_parsing ? sha1_offload() : nullptr;
  if (offload && offload->begin()) {
    offload_ = offload;
    batch_.reserve(kOffloadBatch);
  }
}

// A pass that ends without finish() (an early return) still ends the offloaded hash.
ChecksumPass::~ChecksumPass() {
  std::string ignored_hex, ignored_error;
  if (offload_) offload_->finish(&ignored_hex, &ignored_error);
}

void ChecksumPass::attach(SequentialReader& reader) {
  if (!hashing_) return;
  reader.set_observer([this](const uint8_t* data, size_t size) { update(data, size); });
}

void ChecksumPass::update(const uint8_t* data, size_t size) {
  if (!hashing_ || hashed_ >= covered_) return;
  size_t n = static_cast<size_t>(std::min<uint64_t>(size, covered_ - hashed_));
  hashed_ += n;
  if (!offload_) {
    sha_.update(data, n);
    return;
  }
  while (n > 0) {
    size_t take = std::min(n, kOffloadBatch - batch_.size());
    batch_.insert(batch_.end(), data, data + take);
    data += take;
    n -= take;
    if (batch_.size() == kOffloadBatch) flush_to_offload();
  }
}

void ChecksumPass::flush_to_offload() {
  if (!batch_.empty()) offload_->update(batch_.data(), batch_.size());
  batch_.clear();
}

Json ChecksumPass::finish(const std::string& error, bool cancelled) {
  if (!hashing_) return result_;
  std::string offloaded_hex, offload_error;
  bool offloaded = offload_ != nullptr, offload_ok = true;
  if (offloaded) {
    if (!cancelled && hashed_ >= covered_) flush_to_offload();
    offload_ok = offload_->finish(&offloaded_hex, &offload_error);  // also ends an unfinished hash
    offload_ = nullptr;
  }
  Json j = result_;
  const std::string stored = j.find("stored")->as_string();  // a copy: adding keys below may move it
  if (cancelled) {
    j["status"] = "cancelled";
    j["computed"] = Json();
    j["message"] = "cancelled after " + std::to_string(hashed_) + " of " + std::to_string(covered_) + " bytes";
  } else if (hashed_ < covered_) {
    j["status"] = "mismatch";
    j["computed"] = Json();
    j["message"] = error.empty() ? "could not read byte " + std::to_string(hashed_) : error;
  } else if (!offload_ok) {
    j["status"] = "mismatch";
    j["computed"] = Json();
    j["message"] = "could not compute the checksum: " + offload_error;
  } else {
    std::string computed = offloaded ? offloaded_hex : Sha1::hex(sha_.finish());
    j["computed"] = computed;
    if (computed == stored) {
      j["status"] = "valid";
      j["message"] = "SHA1 of bytes [0, " + std::to_string(covered_) + ") matches the stored digest";
    } else {
      j["status"] = "mismatch";
      j["message"] = "stored " + stored + ", computed " + computed + ": the file changed after it was written";
    }
  }
  return j;
}

Json compute_checksum(ByteSource& source, const FileModel& model, const ProgressFn& progress) {
  ChecksumPass pass(model);
  if (!pass.hashing()) return pass.unhashed();
  SequentialReader reader(source, 0, pass.end());
  pass.attach(reader);
  ProgressTicker ticker(progress, pass.end());
  bool completed = reader.drain([&](uint64_t done) { return ticker.update(done); });
  if (completed) ticker.update(pass.end());
  return pass.finish(reader, !completed && ticker.cancelled());
}

}  // namespace logscope::bddf
