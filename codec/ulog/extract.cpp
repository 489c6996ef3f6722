#include "ulog/extract.h"

#include <cstring>

#include "ulog/reader.h"
#include "ulog/writer.h"

namespace logscope::ulog {

ExtractResult repair_ulog(ByteSource& source, OutputSink& out, const ProgressFn& progress) {
  ExtractResult result;
  FileModel model;
  open_file(source, &model);
  if (!model.header_ok) {
    result.error = "no ULog header: nothing to repair";
    return result;
  }
  Writer w(out);
  uint8_t compat[8] = {}, incompat[8] = {};
  uint64_t appended[3] = {};
  if (model.flags.present) std::memcpy(compat, model.flags.compat, 8);
  if (!w.header(model.header_timestamp_us, model.version) || !w.flag_bits(compat, incompat, appended)) {
    result.error = w.error();
    return result;
  }
  std::vector<uint8_t> declared(65536, 0);
  uint64_t unknown_types = 0, undeclared = 0, first_unknown = 0, first_undeclared = 0;
  ProgressTicker ticker(progress, model.file_size);
  for (const Section& section : model.sections) {
    MessageWalker walker(source, section.begin, section.walked_to);
    RawMessage msg;
    uint64_t copied = 0;
    while (walker.next(&msg)) {
      if (msg.type == 'B') continue;  // written fresh above
      if (!known_message_type(msg.type)) {
        if (!unknown_types++) first_unknown = msg.offset;
        continue;
      }
      if (msg.type == 'A' && msg.size >= 4) declared[static_cast<uint16_t>(msg.body[1] | (msg.body[2] << 8))] = 1;
      if (msg.type == 'R' && msg.size >= 2) declared[static_cast<uint16_t>(msg.body[0] | (msg.body[1] << 8))] = 0;
      if (msg.type == 'D' && (msg.size < 2 || !declared[static_cast<uint16_t>(msg.body[0] | (msg.body[1] << 8))])) {
        if (!undeclared++) first_undeclared = msg.offset;
        continue;
      }
      if (!w.message(msg.type, std::string_view(reinterpret_cast<const char*>(msg.body), msg.size))) {
        result.error = w.error();
        return result;
      }
      ++copied;
      if (!ticker.update(msg.end())) {
        result.cancelled = true;
        result.error = "cancelled";
        return result;
      }
    }
    std::string where = "[" + std::to_string(section.begin) + ", " + std::to_string(section.walked_to) + ")";
    result.kept.push_back(std::to_string(copied) + " messages of " + (section.appended ? "appended data " : "the data section ") + where +
                          (section.appended ? ", now after the data section" : ""));
    if (section.walked_to < section.end)
      result.dropped.push_back("bytes [" + std::to_string(section.walked_to) + ", " + std::to_string(section.end) + "): " +
                               (section.end == model.file_size ? "a message cut short by the end of the file" : "a message crossing the appended-data offset"));
  }
  if (unknown_types) result.dropped.push_back(std::to_string(unknown_types) + " message(s) of unknown types, the first at byte " + std::to_string(first_unknown));
  if (undeclared)
    result.dropped.push_back(std::to_string(undeclared) + " data message(s) whose msg_id no subscription declared before them, the first at byte " +
                             std::to_string(first_undeclared));
  if (model.flags.present && model.flags.data_appended()) result.kept.push_back("the data-appended flag is cleared: the appended messages are inline");
  result.ok = true;
  result.bytes_written = out.written();
  return result;
}

}  // namespace logscope::ulog
