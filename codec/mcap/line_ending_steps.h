// The validators of the line-ending search (line_endings.h): a record's content fed in the steps
// its own structure asks for, each step's bytes accepted or refused at once, so that a wrong "\r"
// fails at the step it is in (a chunk's header fields, then each zstd frame header, block header
// and block through libzstd's buffer-less API, or each lz4 frame header field, block size and
// block through liblz4, or each record of an uncompressed chunk by its length and fields).
// A clone continues from the same state: the search tries each choice of a step on a clone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace logscope::mcap {

class ContentSteps {
 public:
  virtual ~ContentSteps() = default;
  // The bytes the next step takes (0: the content is complete).
  virtual size_t next_size() const = 0;
  // False when these bytes cannot be that step of a valid record; the object is then spent.
  virtual bool feed(const uint8_t* bytes, size_t size) = 0;
  // A copy in the same state. It may share buffers and libzstd tables with this one, so it must be
  // fed only while this one lives and is not fed (the search's depth-first order guarantees it).
  virtual std::unique_ptr<ContentSteps> clone() const = 0;
  // After the last step: whether a checksum (a CRC, a frame's checksum) verified the whole, and
  // what decided ("its CRC", "the zstd frame's checksum", "its fields").
  virtual bool decisive() const { return false; }
  virtual std::string decided_by() const { return "its fields"; }
};

// What the records before tell about an index record: a MessageIndex's entries must name the
// messages of the chunk before it, a ChunkIndex, AttachmentIndex, MetadataIndex or SummaryOffset
// must point at a record framed before it (offsets as in the original file).
struct FramedSoFar {
  std::string_view chunk_records;            // the chunk before, decompressed ("" when unknown)
  bool chunk_known = false;
  std::map<uint64_t, std::pair<uint8_t, uint64_t>> records;  // offset -> (op, whole record length)
};

// The content of a top-level record with this opcode and content length. `framed` must outlive it.
std::unique_ptr<ContentSteps> content_steps(uint8_t op, uint64_t length, const FramedSoFar* framed);

}  // namespace logscope::mcap
