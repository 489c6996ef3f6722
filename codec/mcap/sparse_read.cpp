// A few messages of an uncompressed chunk, each read alone (for_each_message with `sparse`: a
// thumbnail, the frame at a clicked time): the chunk's MessageIndex records, which the summary's
// ChunkIndex locates, say where each message lies, so one 25 KB JPEG is read, not its 4 MiB
// chunk. A compressed chunk has to be read whole.
#include <algorithm>
#include <cstring>
#include <tuple>

#include "mcap/inspector_impl.h"

namespace logscope::mcap {
namespace {

// The Chunk record up to its records: opcode, length, three u64 times and sizes, the CRC, an
// empty compression string, the records' length.
constexpr uint64_t kUncompressedChunkHead = 1 + 8 + 8 + 8 + 8 + 4 + 4 + 8;

uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// [offset, offset + length) of the file, short where it ends (lengths are checked against the file first).
std::string read_bytes(ByteSource& source, uint64_t offset, uint64_t length) {
  if (offset >= source.size()) return std::string();
  std::string out(static_cast<size_t>(std::min(length, source.size() - offset)), '\0');
  out.resize(source.read(offset, &out[0], out.size()));
  return out;
}

}  // namespace

McapInspector::SparseChunk McapInspector::sparse_chunk_messages(const ChunkInfo& info, const std::set<uint16_t>& channels, uint64_t t0,
                                                                uint64_t t1, const MessageFn& fn, uint64_t* delivered_through,
                                                                bool times_only) {
  if ((!times_only && !info.compression.empty()) || info.message_index_offsets.empty()) return SparseChunk::Unusable;
  // Then the chunk's own records: the doctor names the disagreement (mcap.index.*), a view reads
  // on as it would have without this shortcut.
  auto disagrees = [](const std::string& why) {
    (void)why;
    return SparseChunk::Unusable;
  };
  // Times alone: the records' size is the summary's word (entries past it are damage).
  uint64_t records_size = info.uncompressed_size, records_start = 0;
  if (!times_only) {
    std::vector<uint8_t> head = source_.read_vector(info.offset, kUncompressedChunkHead);
    if (head.size() != kUncompressedChunkHead || head[0] != kOpChunk) return disagrees("no Chunk record starts there");
    records_size = load_u64(&head[kUncompressedChunkHead - 8]);
    uint32_t compression_length;
    std::memcpy(&compression_length, &head[kUncompressedChunkHead - 12], 4);
    if (compression_length != 0 || records_size > info.length || info.offset + kUncompressedChunkHead + records_size > info.end())
      return disagrees("its header disagrees with its ChunkIndex");
    records_start = info.offset + kUncompressedChunkHead;
  }

  // (offset in the records, log time, channel) of the channels' messages in range, in file order.
  std::vector<std::tuple<uint64_t, uint64_t, uint16_t>> wanted;
  for (const auto& entry : info.message_index_offsets) {
    if (!channels.count(entry.first)) continue;
    std::vector<uint8_t> prefix = source_.read_vector(entry.second, kRecordPrefix);
    if (prefix.size() != kRecordPrefix || prefix[0] != kOpMessageIndex) return disagrees("a MessageIndex offset holds no MessageIndex");
    const uint64_t length = load_u64(&prefix[1]);
    if (length > info.message_index_length) return disagrees("a MessageIndex is longer than its ChunkIndex says they all are");
    std::string content = read_bytes(source_, entry.second + kRecordPrefix, length);
    MessageIndex index;
    std::string why;
    if (content.size() != length || !parse_message_index(content, &index, &why)) return disagrees("a MessageIndex does not parse: " + why);
    if (index.channel_id != entry.first) return disagrees("a MessageIndex is of another channel than its ChunkIndex says");
    for (const auto& [time, offset] : index.entries)
      if (time >= t0 && time <= t1) wanted.emplace_back(offset, time, index.channel_id);
  }
  std::sort(wanted.begin(), wanted.end());
  for (const auto& [offset, time, channel] : wanted) {
    if (offset > records_size || records_size - offset < kRecordPrefix) return disagrees("a MessageIndex entry points past its records");
    if (times_only) {  // the index's word for it: no payload
      MessageHeader m;
      m.channel_id = channel;
      m.log_time = time;
      *delivered_through = offset + 1;
      if (!fn(m, std::string_view(), info.offset, offset)) return SparseChunk::Stopped;
      continue;
    }
    std::vector<uint8_t> prefix = source_.read_vector(records_start + offset, kRecordPrefix);
    const uint64_t length = prefix.size() == kRecordPrefix ? load_u64(&prefix[1]) : 0;
    if (prefix.size() != kRecordPrefix || prefix[0] != kOpMessage || length > records_size - offset - kRecordPrefix)
      return disagrees("a MessageIndex entry points at byte " + std::to_string(offset) + " of its records, which holds no Message record");
    std::string content = read_bytes(source_, records_start + offset + kRecordPrefix, length);
    MessageHeader m;
    std::string why;
    if (content.size() != length || !parse_message_header(content, &m, &why) || m.log_time != time || !channels.count(m.channel_id))
      return disagrees("the Message at byte " + std::to_string(offset) + " of its records is not the one its MessageIndex lists");
    *delivered_through = offset + 1;
    if (!fn(m, std::string_view(content).substr(MessageHeader::kSize), info.offset, offset)) return SparseChunk::Stopped;
  }
  return SparseChunk::Done;
}

}  // namespace logscope::mcap
