// The doctor with the file pushed in by the page (doctor.h doctor_feed): the same DoctorPass as
// run_doctor, walked by a PushedWalk instead of walk_records.
#include "mcap/doctor.h"
#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

class DoctorFeed : public ByteFeed {
 public:
  DoctorFeed(ByteSource& source, const FileModel& model, bool checksum)
      : pass_(source, model), walk_(pass_.from(), pass_.end(), pass_.handler(), pass_.data_crc()), checksum_(checksum) {}

  uint64_t begin() const override { return pass_.from(); }
  uint64_t end() const override { return pass_.end(); }
  void update(const uint8_t* data, size_t size) override { walk_.push(data, size); }

  Json finish(const std::string& error, bool cancelled) override {
    if (auto early = unless_complete(walk_.complete(), cancelled, !error.empty() ? error : walk_.stop_reason())) return *early;
    CheckResult result = pass_.finish(walk_.result());
    return checksum_ ? checksum_json(result) : check_report(std::move(result)).to_json();
  }

 private:
  DoctorPass pass_;
  PushedWalk walk_;
  bool checksum_;
};

}  // namespace

std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, const FileModel& model, bool checksum) {
  if (model.header_end == 0) return nullptr;
  return std::make_unique<DoctorFeed>(source, model, checksum);
}

std::unique_ptr<ByteFeed> McapInspector::check_feed() {
  read_whole_summary();
  return doctor_feed(source_, model_, false);
}
std::unique_ptr<ByteFeed> McapInspector::checksum_feed() {
  read_whole_summary();
  return doctor_feed(source_, model_, true);
}

}  // namespace logscope::mcap
