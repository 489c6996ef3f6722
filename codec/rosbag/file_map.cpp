// The map of a bag: version line, header record and its padding, chunks (each with the index
// data records after it), the index section; what a recovery could not read, and what a cut
// took away.
#include <cstring>

#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {
namespace {

bool read_u32(ByteSource& source, uint64_t offset, uint32_t* value) {
  uint8_t b[4];
  if (source.read(offset, b, 4) != 4) return false;
  *value = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  return true;
}

void add_header(ByteSource& source, const Bag& bag, FileMapBuilder& map) {
  if (bag.header_offset > 0) map.add(0, bag.header_offset, "header", "version line");
  if (!bag.has_header) return;
  uint32_t header_len = 0, data_len = 0;
  uint64_t at = bag.header_offset;
  if (!read_u32(source, at, &header_len) || at + 8 + header_len > bag.file_size ||
      !read_u32(source, at + 4 + header_len, &data_len)) {
    map.add(at, 0, "header", "bag header record");
    return;
  }
  map.add(at, 8 + uint64_t(header_len), "header", "bag header record");
  // The writer pads the header record to 4096 bytes so it can be rewritten in place.
  if (data_len) map.add(at + 8 + header_len, data_len, "padding", "bag header padding");
}

}  // namespace

FileMap BagInspector::file_map(bool full_check, const ProgressFn& progress) {
  FileMapBuilder map(bag_.file_size);
  add_header(source_, bag_, map);
  for (size_t i = 0; i < bag_.chunks.size(); ++i)
    map.add(bag_.chunks[i].pos, 0, "chunk", "chunk " + std::to_string(i));
  if (bag_.version != 200) {
    for (uint64_t offset : bag_.records) map.add(offset, 0, "record", "message records");
    for (const MessageRef& m : bag_.messages)
      if (bag_.records.empty()) map.add(m.offset, 0, "record", "message records");
  }
  if (bag_.indexed && bag_.index_pos < bag_.file_size) {
    uint64_t end = bag_.index_end > bag_.index_pos ? bag_.index_end : bag_.file_size;
    map.add(bag_.index_pos, end - bag_.index_pos, "index", bag_.version == 200 ? "connections and chunk infos" : "index");
    map.structures_end(end);
  }
  if (bag_.recovery.performed && bag_.recovery.ends_at < bag_.file_size)
    map.damaged_from(bag_.recovery.ends_at, "not readable: " + bag_.recovery.reason);
  if (bag_.version == 200 && bag_.has_header && bag_.index_pos > bag_.file_size)
    map.missing(bag_.index_pos, "cut off: the header puts the index at byte " + std::to_string(bag_.index_pos) +
                                    ", past the end of the file");

  if (full_check) return map.finish_checked(check(progress));
  return map.finish(bag_.indexed ? "index" : "scan", bag_.problems);
}

}  // namespace logscope::rosbag
