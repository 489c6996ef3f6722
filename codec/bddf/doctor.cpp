// The doctor: checksum and a walk over every block in one sequential pass that checks framing and descriptors and
// holds the index against what is really in the file.
#include <vector>

#include "bddf.pb.h"
#include "bddf/blocks.h"
#include "bddf/checksum.h"
#include "bddf/format.h"
#include "bddf/inspector_impl.h"

namespace logscope::bddf {
namespace {

void check_against_index(ByteSource& source, const FileModel& model, Report& report, const ProgressFn& progress) {
  std::vector<bool> seen(model.blocks().size(), false);
  std::vector<uint64_t> payload_bytes(model.series.size(), 0);
  auto problem = [&](Severity severity, uint64_t at, const char* code, std::string message) {
    report.add_problem(severity, at, code, std::move(message));
  };
  WalkEnd end = walk_blocks(
      source, kFirstBlockOffset,
      [&](const WalkedBlock& walked) {
        const BlockFrame& frame = walked.frame;
        size_t pos = model.block_at(frame.offset);
        if (pos != SIZE_MAX) seen[pos] = true;
        const BlockRef* ref = pos == SIZE_MAX ? nullptr : &model.blocks()[pos];
        if (frame.type == kEndBlock) {
          if (frame.offset != model.size - kTrailerSize)
            problem(Severity::Error, frame.offset, "bddf.trailer.misplaced_end",
                    "an END block at " + std::to_string(frame.offset) + ", not at the trailer position " +
                        std::to_string(model.size - kTrailerSize));
          return true;
        }
        if (frame.type == kDescriptorBlock) {
          bosdyn::api::DescriptorBlock block;
          if (!parse_message(block, walked.descriptor))
            problem(Severity::Error, frame.offset, "bddf.block.bad_descriptor",
                    "descriptor block of " + std::to_string(frame.size_field) + " bytes does not parse");
          else if (ref && ref->kind == BlockKind::Data)
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
        uint32_t position = model.series_position(descriptor.series_index());
        if (position == UINT32_MAX) {
          problem(Severity::Error, frame.offset, "bddf.data.series_out_of_range",
                  "data block names series " + std::to_string(descriptor.series_index()) + ", which the file does not have");
          return true;
        }
        payload_bytes[position] += frame.payload_size();
        if (!ref || ref->kind != BlockKind::Data) {
          problem(Severity::Warning, frame.offset, "bddf.index.unindexed_block",
                  "data block of series " + std::to_string(position) + " is in no series index");
          return true;
        }
        const Series& series = model.series[ref->series];
        if (ref->series != position)
          problem(Severity::Error, frame.offset, "bddf.index.entry_series_mismatch",
                  "the index of series " + std::to_string(ref->series) + " lists this block, but it belongs to series " +
                      std::to_string(position));
        int64_t ts = to_ns(descriptor.timestamp().seconds(), descriptor.timestamp().nanos());
        if (ts != series.entries[ref->entry].timestamp_ns)
          problem(Severity::Error, frame.offset, "bddf.index.entry_timestamp_mismatch",
                  "the index says timestamp " + std::to_string(series.entries[ref->entry].timestamp_ns) +
                      " ns, the block says " + std::to_string(ts) + " ns");
        return true;
      },
      progress);
  if (end.code == "cancelled") {
    report.add_problem(Severity::Info, end.at, "bddf.check.cancelled", "block walk cancelled; results are partial");
    return;
  }
  if (!end.clean())
    report.add_problem(Severity::Error, end.at,
                       end.code == "unknown_block_type" ? "bddf.block.unknown_type" : "bddf.file." + end.code, end.words);
  const std::vector<BlockRef>& blocks = model.blocks();
  for (size_t i = 0; i < blocks.size(); ++i) {
    const BlockRef& ref = blocks[i];
    if (seen[i] || ref.kind == BlockKind::Magic || ref.offset >= end.at) continue;
    std::string what = ref.kind == BlockKind::Data ? "block " + std::to_string(ref.entry) + " of series " + std::to_string(ref.series)
                                                   : std::string(block_kind_name(ref.kind));
    report.add_problem(Severity::Error, ref.offset, "bddf.index.entry_not_a_block",
                       "the index places " + what + " at " + std::to_string(ref.offset) + ", which is not the start of a block");
  }
  for (size_t s = 0; s < model.series.size(); ++s)
    if (end.clean() && payload_bytes[s] != model.series[s].total_bytes)
      report.add_problem(Severity::Error, model.series[s].block_index_file_offset, "bddf.index.total_bytes_mismatch",
                         "series " + std::to_string(s) + ": the index says " + std::to_string(model.series[s].total_bytes) +
                             " payload bytes, its blocks hold " + std::to_string(payload_bytes[s]));
}

}  // namespace

void run_doctor(ByteSource& source, const FileModel& model, Report& report, const ProgressFn& progress) {
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
  if (model.indexed) check_against_index(pass, model, walk, pass_progress);
  if (!cancelled && checksum.hashing()) {
    ProgressTicker ticker(pass_progress, size);
    reader.drain([&](uint64_t done) { return ticker.update(done); });
  }
  Json result = checksum.finish(reader, cancelled);
  const std::string& status = result.find("status")->as_string();
  if (status == "mismatch")
    report.add_problem(Severity::Error, size - kDigestSize - 4, "bddf.checksum.mismatch", result.find("message")->as_string());
  else if (status == "cancelled")
    report.add_problem(Severity::Info, 0, "bddf.check.cancelled", "checksum cancelled");
  bool checksum_cancelled = status == "cancelled";
  report.details["checksum"] = std::move(result);
  if (checksum_cancelled) return;
  for (Problem& p : walk.problems) report.problems.push_back(std::move(p));
  if (model.recovery.performed) report.details["recovery"] = recovery_json(model.recovery);
}

}  // namespace logscope::bddf
