// The map of an MCAP file from its index: magic and Header, the data section (chunks with the
// message indexes after them, attachments, metadata), DataEnd, the summary, the Footer; what a
// scan could not read, and what a cut took away.
#include "mcap/inspector_impl.h"

namespace logscope::mcap {

FileMap McapInspector::file_map(bool full_check, const ProgressFn& progress) {
  read_whole_summary(progress);
  FileMapBuilder map(model_.file_size);
  map.add(0, model_.header_end ? model_.header_end : std::min<uint64_t>(model_.magic_size, model_.file_size), "header", "magic and Header");
  if (model_.header_end && model_.header_end < model_.file_size) map.add(model_.header_end, 0, "record", "data section records");
  if (model_.top_records_known) {
    for (const RecordFrame& f : model_.top_records) {
      if (f.op == kOpChunk) map.add(f.offset, 0, "chunk", "chunk at " + std::to_string(f.offset));
      else if (f.op == kOpDataEnd) map.add(f.offset, f.end() - f.offset, "index", "DataEnd");
      else if (f.op == kOpMessageIndex) continue;  // part of the chunk before it
      else if (f.op == kOpAttachment || f.op == kOpMetadata || f.op == kOpMessage || f.op == kOpSchema || f.op == kOpChannel)
        map.add(f.offset, 0, "record", op_name(f.op) + " records");
      else map.add(f.offset, 0, "index", "summary");
    }
  } else {
    for (size_t i = 0; i < model_.chunks.size(); ++i) map.add(model_.chunks[i].offset, 0, "chunk", "chunk " + std::to_string(i));
    for (const AttachmentInfo& a : model_.attachments) map.add(a.offset, 0, "record", "attachment " + a.name);
    for (const MetadataInfo& d : model_.metadata) map.add(d.offset, 0, "record", "metadata " + d.name);
    if (model_.has_data_end) map.add(model_.data_end_offset, kDataEndRecord, "index", "DataEnd");
    if (model_.has_footer && model_.footer.summary_start) map.add(model_.footer.summary_start, 0, "index", "summary");
  }
  if (model_.has_footer) {
    if (model_.footer.summary_offset_start) map.add(model_.footer.summary_offset_start, 0, "index", "summary offsets");
    map.add(model_.footer_offset, model_.file_size - model_.footer_offset, "trailer", "Footer and magic");
  }
  if (model_.recovery.performed && model_.recovery.ends_at < model_.file_size)
    map.damaged_from(model_.recovery.ends_at, "not readable: " + model_.recovery.reason);
  if (full_check) return map.finish_checked(check(progress));
  return map.finish(model_.source == SummarySource::Scan ? "scan" : "index", model_.problems);
}

}  // namespace logscope::mcap
