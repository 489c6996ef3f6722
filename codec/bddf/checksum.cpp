// Streaming SHA1 over [0, size-24), the bytes the SDK writer hashes.
#include <algorithm>
#include <vector>

#include "bddf/format.h"
#include "bddf/inspector_impl.h"
#include "core/sha1.h"

namespace logscope::bddf {

Json compute_checksum(ByteSource& source, const FileModel& model, const ProgressFn& progress) {
  Json j = Json::object();
  j["algorithm"] = "SHA1";
  const Trailer& t = model.trailer;
  if (!t.present) {
    j["status"] = "absent";
    j["stored"] = Json();
    j["computed"] = Json();
    j["covered_bytes"] = 0;
    j["message"] = "no trailer, so no stored checksum (the file was not closed)";
    return j;
  }
  uint64_t covered = model.size - kDigestSize - 4;
  std::string stored = hex_string(t.digest, kDigestSize);
  j["stored"] = stored;
  j["covered_bytes"] = covered;
  if (model.checksum_type == kChecksumNone) {
    j["status"] = "none";
    j["computed"] = Json();
    j["message"] = "the file declares CHECKSUM_TYPE_NONE";
    return j;
  }
  Sha1 sha;
  ProgressTicker ticker(progress, covered);
  std::vector<uint8_t> buffer(static_cast<size_t>(std::min<uint64_t>(covered, 8u << 20)) + 1);
  for (uint64_t at = 0; at < covered;) {
    if (!ticker.update(at)) {
      j["status"] = "cancelled";
      j["computed"] = Json();
      j["message"] = "cancelled after " + std::to_string(at) + " of " + std::to_string(covered) + " bytes";
      return j;
    }
    size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), covered - at));
    size_t got = source.read(at, buffer.data(), want);
    if (got == 0) {
      j["status"] = "mismatch";
      j["computed"] = Json();
      j["message"] = "could not read byte " + std::to_string(at);
      return j;
    }
    sha.update(buffer.data(), got);
    at += got;
  }
  ticker.update(covered);
  std::string computed = Sha1::hex(sha.finish());
  j["computed"] = computed;
  if (computed == stored) {
    j["status"] = "valid";
    j["message"] = "SHA1 of bytes [0, " + std::to_string(covered) + ") matches the stored digest";
  } else {
    j["status"] = "mismatch";
    j["message"] = "stored " + stored + ", computed " + computed + ": the file changed after it was written";
  }
  return j;
}

}  // namespace logscope::bddf
