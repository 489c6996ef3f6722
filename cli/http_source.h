// A remote file read by HTTP Range requests through libcurl. CLI only: the codec stays
// network-free and sees an ordinary ByteSource.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::cli {

bool is_url(const std::string& path);

// What every remote read moved, over the whole run (for --stats).
struct TransferStats {
  uint64_t bytes = 0;     // body bytes received
  uint64_t requests = 0;
  uint64_t file_size = 0;  // sizes of the remote files opened
};
TransferStats transfer_stats();

class HttpByteSource : public ByteSource {
 public:
  // Probes the URL with a one-byte Range request. Null with `error` set when the server cannot
  // serve ranges (then `no_range` is true: --download can still read it), or fails outright.
  static std::unique_ptr<HttpByteSource> open(const std::string& url, std::string* error, bool* no_range);
  ~HttpByteSource() override;
  uint64_t size() const override { return size_; }
  // A short read once anything went wrong (server error, the file changed); failure() says why
  // and every later read returns 0.
  size_t read(uint64_t offset, void* destination, size_t length) override;
  std::string failure() const;
  // Reads many small ranges (a bag's chunk headers, FormatInspector::info_report_reads): up to
  // kRangesPerRequest ranges a request (one multipart/byteranges answer; ranges closer than
  // kMergeGap asked as one), several requests in flight, so that a 100 GB bag's 155,000 chunk
  // headers take ~1,550 requests in ~50 round trips, not one request each. A server that answers
  // several ranges otherwise (the whole file, or only the first range: S3, simple servers) is
  // asked one range a request from then on. Hands each range's bytes to `take` as they arrive;
  // stops at the first failure or when `take` returns false (what was not handed over, the codec
  // reads again). Returns how many were handed over. A range is cut to its first `max_range`
  // bytes (a plan's chunks are asked whole: CachedByteSource::set_range_fetcher).
  using ScatteredTake = std::function<bool(uint64_t offset, const uint8_t* data, size_t size)>;
  size_t read_scattered(const std::vector<ByteRange>& ranges, const ScatteredTake& take, uint64_t max_range = kMaxScatteredRange);
  static constexpr size_t kScatteredInFlight = 32;
  static constexpr uint64_t kMaxScatteredRange = 1 << 20;
  // Apache answers at most 200 ranges a request (MaxRanges), and 100 keep the Range header under
  // 3 KB, within every server's header limit.
  static constexpr size_t kRangesPerRequest = 100;
  static constexpr uint64_t kMergeGap = 4096;
  // A part's delimiter and headers in a multipart answer (~110 bytes from nginx and Apache).
  static constexpr uint64_t kPartOverhead = 512;

  struct Response;  // one request's status, headers and body (http_source.cpp)

 private:
  explicit HttpByteSource(std::string url);
  // One GET of [first, last]; the body goes to `destination` (up to `capacity` bytes).
  bool fetch(uint64_t first, uint64_t last, void* destination, size_t capacity, Response* response, std::string* error);
  bool answered(int curl_code, uint64_t first, const Response& response, std::string* error) const;
  std::string same_file(const Response& response, uint64_t offset, size_t length) const;

  std::string url_;
  void* curl_ = nullptr;  // CURL*, reused so the connection is kept alive
  uint64_t size_ = 0;
  std::string etag_, last_modified_;  // of the first response: every later one must match
  mutable std::mutex mutex_;
  std::string failure_;
  bool multi_ranges_ = true;  // false once the server answered several ranges otherwise than as asked
};

// Reads the whole URL into a new temporary file (deleted when closed): --download, for servers
// without Range support. Progress on stderr when it is a terminal. Returns the open file's path.
std::unique_ptr<ByteSource> download_to_temp(const std::string& url, std::string* error);

}  // namespace logscope::cli
