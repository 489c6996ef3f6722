// scan_log with the packets pushed in (scanner.h): the page streams a CARLA log into its scan
// from a feeder worker instead of pulling it through the read-ahead ring.
#include <string>
#include <utility>

#include "carla/reader.h"
#include "carla/scanner.h"
#include "core/sequential.h"

namespace logscope::carla {

namespace {

class ScanFeed : public ByteFeed {
 public:
  ScanFeed(ScanResult header_only, uint64_t file_size, std::function<void(ScanResult&&)> keep, std::unique_ptr<ScanRider> rider,
           std::function<Json(const ScanResult&)> answer)
      : result_(std::move(header_only)),
        rider_(std::move(rider)),
        scanner_(result_, file_size, rider_.get()),
        packets_(result_.header.size, file_size, SequentialReader::Options().max_view,
                 [this](const PacketRef& packet) { return scanner_.need(packet); },
                 [this](const PacketRef& packet, const uint8_t* payload) { scanner_.on_packet(packet, payload); }),
        file_size_(file_size),
        keep_(std::move(keep)),
        answer_(std::move(answer)) {}

  uint64_t begin() const override { return result_.header.size; }
  uint64_t end() const override { return file_size_; }
  void update(const uint8_t* data, size_t size) override { packets_.push(data, size); }

  Json finish(const std::string& error, bool cancelled) override {
    PacketWalker::Step step;
    PacketRef last;
    if (auto early = unless_complete(packets_.ended(&step, &last), cancelled, error)) return *early;
    scanner_.finish(step, last, false);
    Json answer = Json::object();
    if (answer_) answer = answer_(result_);
    else answer["status"] = "scanned";
    keep_(std::move(result_));
    return answer;
  }

 private:
  ScanResult result_;  // declared before the scanner and the packets, which refer to it
  std::unique_ptr<ScanRider> rider_;  // before the scanner, which hands it the packets
  LogScanner scanner_;
  PacketFeed packets_;
  uint64_t file_size_;
  std::function<void(ScanResult&&)> keep_;
  std::function<Json(const ScanResult&)> answer_;
};

}  // namespace

std::unique_ptr<ByteFeed> scan_feed(ByteSource& source, std::function<void(ScanResult&&)> keep, std::unique_ptr<ScanRider> rider,
                                    std::function<Json(const ScanResult&)> answer) {
  ScanResult r;
  Problem problem;
  r.header_ok = read_header(source, &r.header, &problem);
  if (!r.header_ok) return nullptr;  // scan_log answers at once from the header alone
  return std::make_unique<ScanFeed>(std::move(r), source.size(), std::move(keep), std::move(rider), std::move(answer));
}

}  // namespace logscope::carla
