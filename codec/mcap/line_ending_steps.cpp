#include "mcap/line_ending_steps.h"

#define ZSTD_STATIC_LINKING_ONLY  // the buffer-less streaming API: one block a step, a context copied per choice
#include <lz4.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "mcap/crc32.h"
#include "mcap/decompress.h"
#include "mcap/records.h"
#include "mcap/walk.h"

namespace logscope::mcap {
namespace {

uint32_t u32_at(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint64_t u64_at(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::string_view view(const uint8_t* p, size_t n) { return {reinterpret_cast<const char*>(p), n}; }

// Whether the framed record at `offset` has this op (and whole length, when given).
bool framed_at(const FramedSoFar* framed, uint64_t offset, uint8_t op, uint64_t length = 0) {
  if (!framed) return true;
  auto it = framed->records.find(offset);
  return it != framed->records.end() && it->second.first == op && (length == 0 || it->second.second == length);
}

// Each entry names a Message of its channel at its offset in the chunk before, with its log_time.
bool index_fits_chunk(const MessageIndex& index, const FramedSoFar* framed) {
  if (!framed || !framed->chunk_known) return true;
  std::string_view records = framed->chunk_records;
  for (const auto& [time, offset] : index.entries) {
    if (offset > records.size() || records.size() - offset < kRecordPrefix + MessageHeader::kSize || records[offset] != kOpMessage) return false;
    MessageHeader m;
    std::string why;
    if (!parse_message_header(records.substr(static_cast<size_t>(offset + kRecordPrefix), MessageHeader::kSize), &m, &why) ||
        m.channel_id != index.channel_id || m.log_time != time)
      return false;
  }
  return true;
}

// A record in one step, checked by its parser (an attachment by its CRC, an index by what it points at).
class WholeRecord : public ContentSteps {
 public:
  WholeRecord(uint8_t op, uint64_t length, const FramedSoFar* framed = nullptr) : op_(op), length_(length), done_(length == 0), framed_(framed) {}
  size_t next_size() const override { return done_ ? 0 : static_cast<size_t>(length_); }
  bool feed(const uint8_t* bytes, size_t size) override {
    done_ = true;
    std::string why;
    std::string_view c = view(bytes, size);
    switch (op_) {
      case kOpSchema: { Schema s; return parse_schema(c, &s, &why); }
      case kOpChannel: { Channel ch; return parse_channel(c, &ch, &why); }
      case kOpMessage: { MessageHeader m; return parse_message_header(c, &m, &why); }
      case kOpMessageIndex: { MessageIndex m; return parse_message_index(c, &m, &why) && index_fits_chunk(m, framed_); }
      case kOpChunkIndex: { ChunkIndex i; return parse_chunk_index(c, &i, &why) && framed_at(framed_, i.chunk_start_offset, kOpChunk, i.chunk_length); }
      case kOpAttachmentIndex: { AttachmentIndex i; return parse_attachment_index(c, &i, &why) && framed_at(framed_, i.offset, kOpAttachment, i.length); }
      case kOpStatistics: { Statistics s; return parse_statistics(c, &s, &why); }
      case kOpMetadata: { Metadata m; return parse_metadata(c, &m, &why); }
      case kOpMetadataIndex: { MetadataIndex i; return parse_metadata_index(c, &i, &why) && framed_at(framed_, i.offset, kOpMetadata, i.length); }
      case kOpSummaryOffset: { SummaryOffset s; return parse_summary_offset(c, &s, &why) && framed_at(framed_, s.group_start, s.group_opcode); }
      case kOpDataEnd: { DataEnd d; return parse_data_end(c, &d, &why); }
      case kOpFooter: { Footer f; return parse_footer(c, &f, &why); }
      case kOpAttachment: {
        AttachmentHeader a;
        if (!parse_attachment_header(c, size, &a, &why)) return false;
        if (a.crc == 0) return true;
        checked_crc_ = true;
        return crc32(c.substr(0, static_cast<size_t>(a.crc_offset))) == a.crc;
      }
      default: return true;  // private and unknown records: any bytes
    }
  }
  std::unique_ptr<ContentSteps> clone() const override { return std::make_unique<WholeRecord>(*this); }
  bool decisive() const override { return checked_crc_; }
  std::string decided_by() const override { return checked_crc_ ? "its CRC" : "its fields"; }

 private:
  uint8_t op_;
  uint64_t length_;
  bool done_;
  const FramedSoFar* framed_;
  bool checked_crc_ = false;
};

// What a chunk's record stream and its clones write: the restored compressed bytes and what they
// decompress to, each at the position of the step that wrote it (depth first, a later choice
// overwrites only what an abandoned one wrote).
struct ChunkBuffers {
  std::vector<uint8_t> compressed, output;
};

// A chunk's records stream, one format each.
class StreamSteps : public ContentSteps {
 public:
  explicit StreamSteps(std::shared_ptr<ChunkBuffers> buffers) : buffers_(std::move(buffers)) {}
  virtual bool complete() const = 0;  // the stream ends on a boundary of its own

 protected:
  std::shared_ptr<ChunkBuffers> buffers_;
  size_t out_ = 0;  // output written
};

// zstd frames: ZSTD_nextSrcSizeToDecompress names each step (block header, block, checksum) and
// ZSTD_decompressContinue refuses a corrupt one (a wrong block header, a block whose entropy tables
// or sequences do not decode, a checksum that does not match). The frame header is taken here in
// two steps (its first 5 bytes say its size) and handed to libzstd whole: a context copy does not
// carry the header bytes libzstd buffers.
class ZstdSteps : public StreamSteps {
 public:
  ZstdSteps(std::shared_ptr<ChunkBuffers> buffers, uint64_t total) : StreamSteps(std::move(buffers)), total_(total), dctx_(ZSTD_createDCtx()) {}
  ZstdSteps(const ZstdSteps& o)
      : StreamSteps(o.buffers_), total_(o.total_), consumed_(o.consumed_), header_(o.header_), header_size_(o.header_size_), dctx_(ZSTD_createDCtx()) {
    out_ = o.out_;
    std::memcpy(head_, o.head_, sizeof head_);
    // Deprecated in libzstd 1.5 as "misleading": the copy's entropy table pointers may still point
    // into the original's tables. Here the original is never fed while a copy lives (ContentSteps::
    // clone), so those tables hold what the copy's would. Debian's libzstd (1.5.4) has it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    if (dctx_ && o.dctx_ && header_ == Header::Done) ZSTD_copyDCtx(dctx_, o.dctx_);
#pragma GCC diagnostic pop
  }
  ZstdSteps& operator=(const ZstdSteps&) = delete;
  ~ZstdSteps() override { ZSTD_freeDCtx(dctx_); }
  size_t next_size() const override {
    if (!dctx_ || consumed_ >= total_) return 0;
    if (header_ == Header::Start) return kPrefix;
    if (header_ == Header::Rest) return header_size_ - kPrefix;
    return ZSTD_nextSrcSizeToDecompress(dctx_);
  }
  bool feed(const uint8_t* bytes, size_t size) override {
    if (!dctx_ || size > total_ - consumed_) return false;
    consumed_ += size;
    if (header_ == Header::Start) {
      std::memcpy(head_, bytes, kPrefix);
      if (u32_at(head_) != ZSTD_MAGICNUMBER) return false;
      header_size_ = ZSTD_frameHeaderSize(head_, kPrefix);
      if (ZSTD_isError(header_size_) || header_size_ < kPrefix || header_size_ > sizeof head_) return false;
      header_ = Header::Rest;
      return header_size_ == kPrefix ? start_frame(nullptr, 0) : true;
    }
    if (header_ == Header::Rest) return start_frame(bytes, size);
    std::vector<uint8_t>& out = buffers_->output;
    size_t n = ZSTD_decompressContinue(dctx_, out.data() + out_, out.size() - out_, bytes, size);
    if (ZSTD_isError(n)) return false;
    out_ += n;
    if (ZSTD_nextSrcSizeToDecompress(dctx_) == 0) header_ = Header::Start;  // frames follow one another
    return true;
  }
  bool complete() const override { return dctx_ && consumed_ == total_ && header_ == Header::Start; }
  std::unique_ptr<ContentSteps> clone() const override { return std::make_unique<ZstdSteps>(*this); }

 private:
  static constexpr size_t kPrefix = 5;  // ZSTD_FRAMEHEADERSIZE_PREFIX of a zstd1 frame
  enum class Header { Start, Rest, Done };
  bool start_frame(const uint8_t* rest, size_t size) {
    std::memcpy(head_ + kPrefix, rest, size);
    if (ZSTD_isError(ZSTD_decompressBegin(dctx_))) return false;
    for (size_t at = 0; at < header_size_;) {
      size_t want = ZSTD_nextSrcSizeToDecompress(dctx_);
      if (want == 0 || want > header_size_ - at || ZSTD_isError(ZSTD_decompressContinue(dctx_, nullptr, 0, head_ + at, want))) return false;
      at += want;
    }
    header_ = Header::Done;
    return ZSTD_nextSrcSizeToDecompress(dctx_) != 0;
  }
  uint64_t total_, consumed_ = 0;
  Header header_ = Header::Start;
  size_t header_size_ = 0;
  uint8_t head_[ZSTD_FRAMEHEADERSIZE_MAX] = {};
  ZSTD_DCtx* dctx_;
};

// lz4 frames (the frame format: magic, descriptor, blocks each with its size, an end mark, the
// checksums), each block decompressed by LZ4_decompress_safe_usingDict over the output before it.
// The header checksum and the frames' checksums are verified at the end by LZ4F_decompress.
class Lz4Steps : public StreamSteps {
 public:
  Lz4Steps(std::shared_ptr<ChunkBuffers> buffers, uint64_t total) : StreamSteps(std::move(buffers)), total_(total) {}
  size_t next_size() const override { return consumed_ >= total_ ? 0 : need_; }
  bool feed(const uint8_t* b, size_t size) override {
    if (size != need_ || size > total_ - consumed_) return false;
    consumed_ += size;
    std::vector<uint8_t>& out = buffers_->output;
    switch (stage_) {
      case Stage::Magic:
        if (u32_at(b) != 0x184D2204u) return false;
        stage_ = Stage::Descriptor, need_ = 2;
        return true;
      case Stage::Descriptor: {
        uint8_t flg = b[0], bd = b[1];
        if ((flg >> 6) != 1 || (flg & 0x02) || (bd & 0x8F) || ((bd >> 4) & 7) < 4) return false;
        block_checksum_ = flg & 0x10;
        content_checksum_ = flg & 0x04;
        block_max_ = size_t{1} << (8 + 2 * ((bd >> 4) & 7));
        stage_ = Stage::HeaderRest, need_ = ((flg & 0x08) ? 8 : 0) + ((flg & 0x01) ? 4 : 0) + 1;
        return true;
      }
      case Stage::HeaderRest: stage_ = Stage::BlockSize, need_ = 4; return true;
      case Stage::BlockSize: {
        uint32_t v = u32_at(b);
        if (v == 0) {
          if (content_checksum_) stage_ = Stage::ContentChecksum, need_ = 4;
          else next_frame();
          return true;
        }
        raw_ = v >> 31;
        need_ = v & 0x7FFFFFFFu;
        if (need_ == 0 || need_ > block_max_) return false;  // a step of 0 bytes would end the content
        stage_ = Stage::Block;
        return true;
      }
      case Stage::Block: {
        if (raw_) {
          if (size > out.size() - out_) return false;
          std::memcpy(out.data() + out_, b, size);
          out_ += size;
        } else {
          size_t dict = out_ < 65536 ? out_ : 65536;
          size_t room = out.size() - out_ < block_max_ ? out.size() - out_ : block_max_;
          int n = LZ4_decompress_safe_usingDict(reinterpret_cast<const char*>(b), reinterpret_cast<char*>(out.data() + out_), static_cast<int>(size),
                                                static_cast<int>(room), reinterpret_cast<const char*>(out.data() + out_ - dict), static_cast<int>(dict));
          if (n < 0) return false;
          out_ += static_cast<size_t>(n);
        }
        if (block_checksum_) stage_ = Stage::BlockChecksum, need_ = 4;
        else stage_ = Stage::BlockSize, need_ = 4;
        return true;
      }
      case Stage::BlockChecksum: stage_ = Stage::BlockSize, need_ = 4; return true;
      case Stage::ContentChecksum: next_frame(); return true;
    }
    return false;
  }
  bool complete() const override { return consumed_ == total_ && stage_ == Stage::Magic; }
  std::unique_ptr<ContentSteps> clone() const override { return std::make_unique<Lz4Steps>(*this); }

 private:
  enum class Stage { Magic, Descriptor, HeaderRest, BlockSize, Block, BlockChecksum, ContentChecksum };
  void next_frame() { stage_ = Stage::Magic, need_ = 4; }
  uint64_t total_, consumed_ = 0;
  Stage stage_ = Stage::Magic;
  size_t need_ = 4, block_max_ = 0;
  bool raw_ = false, block_checksum_ = false, content_checksum_ = false;
};

// An uncompressed chunk's records: each prefix (a Schema, Channel or Message, or a private op,
// with a length that fits), then its content by its parser.
class PlainSteps : public StreamSteps {
 public:
  PlainSteps(std::shared_ptr<ChunkBuffers> buffers, uint64_t total) : StreamSteps(std::move(buffers)), total_(total) {}
  size_t next_size() const override { return out_ >= total_ ? 0 : prefix_ ? static_cast<size_t>(kRecordPrefix) : static_cast<size_t>(length_); }
  bool feed(const uint8_t* b, size_t size) override {
    if (size > total_ - out_) return false;
    std::memcpy(buffers_->output.data() + out_, b, size);
    out_ += size;
    if (prefix_) {
      op_ = b[0];
      length_ = u64_at(b + 1);
      if (!(op_ == kOpSchema || op_ == kOpChannel || op_ == kOpMessage || is_private_op(op_)) || length_ > total_ - out_) return false;
      prefix_ = length_ == 0;
      return true;
    }
    prefix_ = true;
    return WholeRecord(op_, length_).feed(b, size);
  }
  bool complete() const override { return out_ == total_ && prefix_; }
  std::unique_ptr<ContentSteps> clone() const override { return std::make_unique<PlainSteps>(*this); }

 private:
  uint64_t total_;
  bool prefix_ = true;
  uint8_t op_ = 0;
  uint64_t length_ = 0;
};

// A Chunk: its fixed fields, the compression's name, the records' length (which must fit the
// record), the records through their format's steps, then whatever follows them. At the end the
// whole stream is decompressed once more by the codec's decompressor (which verifies lz4's header
// and content checksums) and the records are checked against the stated size and CRC.
class ChunkSteps : public ContentSteps {
 public:
  explicit ChunkSteps(uint64_t length) : length_(length) {}
  ChunkSteps(const ChunkSteps& o)
      : length_(o.length_), consumed_(o.consumed_), stage_(o.stage_), need_(o.need_), size_(o.size_), crc_(o.crc_),
        compression_(o.compression_), records_(o.records_), records_done_(o.records_done_), buffers_(o.buffers_),
        stream_(o.stream_ ? static_cast<StreamSteps*>(o.stream_->clone().release()) : nullptr), checksum_flag_(o.checksum_flag_) {}
  ChunkSteps& operator=(const ChunkSteps&) = delete;

  size_t next_size() const override {
    // A stream that asks for nothing before the records end cannot fit: more than the record holds.
    if (stage_ == Stage::Records) return stream_->next_size() ? stream_->next_size() : SIZE_MAX;
    return stage_ == Stage::Done ? 0 : need_;
  }
  bool feed(const uint8_t* b, size_t size) override {
    if (size > length_ - consumed_) return false;
    consumed_ += size;
    switch (stage_) {
      case Stage::Fixed:
        size_ = u64_at(b + 16);
        crc_ = u32_at(b + 24);
        if (size_ > kMaxChunkUncompressed) return false;
        stage_ = Stage::NameLength, need_ = 4;
        return true;
      case Stage::NameLength:
        need_ = u32_at(b);
        if (need_ > 4) return false;
        stage_ = Stage::Name;
        if (need_ == 0) return name_done();
        return true;
      case Stage::Name: compression_.assign(reinterpret_cast<const char*>(b), size); return name_done();
      case Stage::RecordsLength: {
        records_ = u64_at(b);
        if (records_ > length_ - consumed_) return false;
        if (compression_.empty() ? size_ != records_ : size_ > max_expansion(compression_, records_)) return false;
        buffers_ = std::make_shared<ChunkBuffers>();
        buffers_->compressed.resize(static_cast<size_t>(records_));
        buffers_->output.resize(static_cast<size_t>(size_));
        if (compression_ == "zstd") stream_.reset(new ZstdSteps(buffers_, records_));
        else if (compression_ == "lz4") stream_.reset(new Lz4Steps(buffers_, records_));
        else stream_.reset(new PlainSteps(buffers_, records_));
        stage_ = Stage::Records;
        return records_ ? true : records_end();
      }
      case Stage::Records:
        if (size > records_ - records_done_) return false;
        std::memcpy(buffers_->compressed.data() + records_done_, b, size);
        records_done_ += size;
        if (!stream_->feed(b, size)) return false;
        return records_done_ == records_ ? records_end() : true;
      case Stage::Tail: stage_ = Stage::Done; return true;
      case Stage::Done: return false;
    }
    return false;
  }
  std::unique_ptr<ContentSteps> clone() const override { return std::make_unique<ChunkSteps>(*this); }
  bool decisive() const override { return crc_ != 0 || checksum_flag_; }
  std::string decided_by() const override {
    if (crc_) return "its CRC";
    if (checksum_flag_) return "the " + compression_ + " frame's checksum";
    return "its " + (compression_.empty() ? std::string("records") : compression_ + " frame");
  }

 private:
  enum class Stage { Fixed, NameLength, Name, RecordsLength, Records, Tail, Done };
  bool name_done() {
    if (!(compression_.empty() || compression_ == "zstd" || compression_ == "lz4")) return false;
    stage_ = Stage::RecordsLength, need_ = 8;
    return true;
  }
  bool records_end() {
    if (!stream_->complete()) return false;
    std::string_view compressed = view(buffers_->compressed.data(), buffers_->compressed.size());
    if (!compression_.empty()) {
      Decompressed d = decompress_chunk(compression_, compressed, size_);
      if (d.status != DecompressStatus::Ok || d.bytes.size() != buffers_->output.size() ||
          (d.bytes.size() && std::memcmp(d.bytes.data(), buffers_->output.data(), d.bytes.size()) != 0))
        return false;
      // Frame descriptor bit 2: zstd's Content_Checksum_flag, lz4's C.Checksum.
      checksum_flag_ = compressed.size() > 4 && (static_cast<uint8_t>(compressed[4]) & 0x04);
    }
    if (crc_ && crc32(view(buffers_->output.data(), buffers_->output.size())) != crc_) return false;
    std::string why;
    uint64_t bad = 0;
    if (!for_each_inner_record(view(buffers_->output.data(), buffers_->output.size()), [](const RecordFrame&, std::string_view) {}, &why, &bad))
      return false;
    uint64_t rest = length_ - consumed_;
    stage_ = rest ? Stage::Tail : Stage::Done;
    need_ = static_cast<size_t>(rest);
    return true;
  }

  uint64_t length_, consumed_ = 0;
  Stage stage_ = Stage::Fixed;
  size_t need_ = 28;  // message_start_time, message_end_time, uncompressed_size, uncompressed_crc
  uint64_t size_ = 0;
  uint32_t crc_ = 0;
  std::string compression_;
  uint64_t records_ = 0, records_done_ = 0;
  std::shared_ptr<ChunkBuffers> buffers_;
  std::unique_ptr<StreamSteps> stream_;
  bool checksum_flag_ = false;
};

}  // namespace

std::unique_ptr<ContentSteps> content_steps(uint8_t op, uint64_t length, const FramedSoFar* framed) {
  if (op == kOpChunk) return std::make_unique<ChunkSteps>(length);
  return std::make_unique<WholeRecord>(op, length, framed);
}

}  // namespace logscope::mcap
