// The doctor (doctor.h): checksum and a walk over every block in one sequential pass that checks framing and descriptors and
// holds the index against what is really in the file.
#include "bddf/doctor.h"

#include <algorithm>
#include <vector>

#include "bddf.pb.h"
#include "bddf/blocks.h"
#include "bddf/checksum.h"
#include "bddf/format.h"
#include "bddf/summary.h"

namespace logscope::bddf {
namespace {

// Holds the index against the blocks a walk finds: visit() each block, then finish() with how
// the walk ended. The same for the pulled walk (walk_blocks) and the pushed one (BlockFeed).
class IndexCheck {
 public:
  IndexCheck(const FileModel& model, Report& report)
      : model_(model), report_(report), blocks_(model.blocks()), seen_(blocks_.size(), false),
        payload_bytes_(model.series.size(), 0) {
    for (const Series& s : model.series)
      if (s.has_block_index) decoded_indexes_.push_back(s.block_index_file_offset);
    std::sort(decoded_indexes_.begin(), decoded_indexes_.end());
  }

  // The series block indexes opening decoded (reader.cpp: each parses, or the file opened by
  // a scan): the walk passes over them like payloads instead of holding and parsing them again.
  SkipBody skip() const {
    return [this](const BlockFrame& frame) { return std::binary_search(decoded_indexes_.begin(), decoded_indexes_.end(), frame.offset); };
  }

  // Blocks come in file order, so one cursor over the table goes along: rows it passes are
  // never seen, and the rows at a block's offset are the ones the index places there.
  bool visit(const WalkedBlock& walked) {
    const BlockFrame& frame = walked.frame;
    while (!cursor_.done() && cursor_.ref().offset < frame.offset) cursor_.next();
    at_block_.clear();
    for (; !cursor_.done() && cursor_.ref().offset == frame.offset; cursor_.next()) {
      seen_[cursor_.position()] = true;
      const BlockEntry* entry = cursor_.entry();
      at_block_.push_back({cursor_.ref(), entry ? entry->timestamp_ns : 0});
    }
    const BlockRef* data_ref = nullptr;
    for (const auto& [r, listed] : at_block_)
      if (r.kind == BlockKind::Data) {
        data_ref = &r;
        break;
      }
    if (frame.type == kEndBlock) {
      if (frame.offset != model_.size - kTrailerSize)
        problem(Severity::Error, frame.offset, "bddf.trailer.misplaced_end",
                "an END block at " + std::to_string(frame.offset) + ", not at the trailer position " +
                    std::to_string(model_.size - kTrailerSize));
      return true;
    }
    if (frame.type == kDescriptorBlock) {
      bosdyn::api::DescriptorBlock block;
      if (!walked.body_skipped && !parse_message(block, walked.descriptor))
        problem(Severity::Error, frame.offset, "bddf.block.bad_descriptor",
                "descriptor block of " + std::to_string(frame.size_field) + " bytes does not parse");
      else if (data_ref)
        problem(Severity::Error, frame.offset, "bddf.index.entry_not_data",
                "the index lists a data block at " + std::to_string(frame.offset) + " but a descriptor block is there");
      return true;
    }
    // Data block.
    if (frame.descriptor_too_big) {
      problem(Severity::Error, frame.offset, "bddf.data.descriptor_too_big",
              "descriptor size " + std::to_string(frame.descriptor_size) + " exceeds the block size " +
                  std::to_string(frame.size_field));
      return true;
    }
    bosdyn::api::DataDescriptor descriptor;
    if (!parse_message(descriptor, walked.descriptor)) {
      problem(Severity::Error, frame.offset, "bddf.data.bad_descriptor", "the DataDescriptor does not parse");
      return true;
    }
    uint32_t position = model_.series_position(descriptor.series_index());
    if (position == UINT32_MAX) {
      problem(Severity::Error, frame.offset, "bddf.data.series_out_of_range",
              "data block names series " + std::to_string(descriptor.series_index()) + ", which the file does not have");
      return true;
    }
    payload_bytes_[position] += frame.payload_size();
    if (!data_ref) {
      problem(Severity::Warning, frame.offset, "bddf.index.unindexed_block",
              "data block of series " + std::to_string(position) + " is in no series index");
      return true;
    }
    int64_t ts = to_ns(descriptor.timestamp().seconds(), descriptor.timestamp().nanos());
    for (const auto& [ref, listed] : at_block_) {
      if (ref.kind != BlockKind::Data || ref.series == UINT32_MAX) continue;
      if (ref.series != position)
        problem(Severity::Error, frame.offset, "bddf.index.entry_series_mismatch",
                "the index of series " + std::to_string(ref.series) + " lists this block, but it belongs to series " +
                    std::to_string(position));
      if (ts != listed)
        problem(Severity::Error, frame.offset, "bddf.index.entry_timestamp_mismatch",
                "the index says timestamp " + std::to_string(listed) + " ns, the block says " + std::to_string(ts) + " ns");
    }
    return true;
  }

  void finish(const WalkEnd& end) {
    if (end.code == "cancelled") {
      report_.add_problem(Severity::Info, end.at, "bddf.check.cancelled", "block walk cancelled; results are partial");
      return;
    }
    if (!end.clean())
      report_.add_problem(Severity::Error, end.at,
                         end.code == "unknown_block_type" ? "bddf.block.unknown_type" : "bddf.file." + end.code, end.words);
    for (BlockList::Cursor rows = blocks_.cursor(); !rows.done(); rows.next()) {
      const BlockRef& ref = rows.ref();
      if (ref.offset >= end.at) break;
      if (seen_[rows.position()] || ref.kind == BlockKind::Magic) continue;
      std::string what = ref.kind == BlockKind::Data ? "block " + std::to_string(ref.entry) + " of series " + std::to_string(ref.series)
                                                     : std::string(block_kind_name(ref.kind));
      report_.add_problem(Severity::Error, ref.offset, "bddf.index.entry_not_a_block",
                         "the index places " + what + " at " + std::to_string(ref.offset) + ", which is not the start of a block");
    }
    for (size_t s = 0; s < model_.series.size(); ++s)
      if (end.clean() && payload_bytes_[s] != model_.series[s].total_bytes)
        report_.add_problem(Severity::Error, model_.series[s].block_index_file_offset, "bddf.index.total_bytes_mismatch",
                           "series " + std::to_string(s) + ": the index says " + std::to_string(model_.series[s].total_bytes) +
                               " payload bytes, its blocks hold " + std::to_string(payload_bytes_[s]));
  }

 private:
  void problem(Severity severity, uint64_t at, const char* code, std::string message) {
    report_.add_problem(severity, at, code, std::move(message));
  }
  const FileModel& model_;
  Report& report_;
  BlockList blocks_;
  BlockList::Cursor cursor_ = blocks_.cursor();
  std::vector<std::pair<BlockRef, int64_t>> at_block_;  // the rows at the block, each with its listed time
  std::vector<bool> seen_;
  std::vector<uint64_t> payload_bytes_;
  std::vector<uint64_t> decoded_indexes_;  // sorted
};

// Adds the checksum's result and the walk's problems to `report`, as check() reports them.
void add_findings(const FileModel& model, Json checksum, Report& walk, Report& report) {
  const std::string& status = checksum.find("status")->as_string();
  if (status == "mismatch")
    report.add_problem(Severity::Error, model.size - kDigestSize - 4, "bddf.checksum.mismatch", checksum.find("message")->as_string());
  else if (status == "cancelled")
    report.add_problem(Severity::Info, 0, "bddf.check.cancelled", "checksum cancelled");
  bool checksum_cancelled = status == "cancelled";
  report.details["checksum"] = std::move(checksum);
  if (checksum_cancelled) return;
  for (Problem& p : walk.problems) report.problems.push_back(std::move(p));
  if (model.recovery.performed) report.details["recovery"] = recovery_json(model.recovery);
}

}  // namespace

Report run_doctor(ByteSource& source, const FileModel& model, const ProgressFn& progress) {
  Report report = summary_report(model);
  // One pass: the block walk reads through a SequentialReader whose observer hashes every byte,
  // so the checksum costs no read of its own (the walk skips payloads; the hash reads them).
  uint64_t size = model.size;
  ChecksumPass checksum(model, /*beside_parsing=*/true);
  SequentialReader reader(source, 0, size);
  checksum.attach(reader);
  SequentialByteSource pass(reader, source);
  bool cancelled = false;
  ProgressFn pass_progress = [&](uint64_t done, uint64_t) {
    if (progress && !progress(done, size)) cancelled = true;
    return !cancelled;
  };
  Report walk;
  if (model.indexed) {
    IndexCheck index_check(model, walk);
    index_check.finish(walk_blocks(pass, kFirstBlockOffset, [&](const WalkedBlock& b) { return index_check.visit(b); }, pass_progress,
                                   index_check.skip()));
  }
  if (!cancelled && checksum.hashing()) {
    ProgressTicker ticker(pass_progress, size);
    reader.drain([&](uint64_t done) { return ticker.update(done); });
  }
  add_findings(model, checksum.finish(reader, cancelled), walk, report);
  return report;
}

namespace {

// The doctor fed by its caller: the checksum and the block walk take the same pushed bytes, and
// finish() gives check()'s report, or {"status": "incomplete"} when the bytes did not all come
// (the caller then runs check(), which reads the file and says what went wrong).
class DoctorFeed : public ByteFeed {
 public:
  explicit DoctorFeed(const FileModel& model)
      : model_(model),
        checksum_(model, /*beside_parsing=*/true),
        index_check_(model, walk_),
        blocks_(model.size, kFirstBlockOffset, [this](const WalkedBlock& block) { return index_check_.visit(block); },
                index_check_.skip()) {}

  uint64_t end() const override { return model_.indexed ? model_.size : checksum_.end(); }
  void update(const uint8_t* data, size_t size) override {
    checksum_.update(data, size);
    if (model_.indexed) blocks_.push(data, size);
    received_ += size;
  }
  Json finish(const std::string& error, bool cancelled) override {
    bool complete = received_ >= end() && (!model_.indexed || blocks_.end());
    if (auto early = unless_complete(complete, cancelled, error)) return *early;
    if (model_.indexed) index_check_.finish(*blocks_.end());
    Report report = summary_report(model_);
    add_findings(model_, checksum_.finish("", false), walk_, report);
    return report.to_json();
  }

 private:
  const FileModel& model_;
  ChecksumPass checksum_;
  Report walk_;
  IndexCheck index_check_;  // after walk_, which it fills
  BlockFeed blocks_;
  uint64_t received_ = 0;
};

}  // namespace

std::unique_ptr<ByteFeed> doctor_feed(const FileModel& model) {
  auto feed = std::make_unique<DoctorFeed>(model);
  if (feed->end() == 0) return nullptr;  // neither index nor checksum: check() reads nothing
  return feed;
}

}  // namespace logscope::bddf
