// The pushed walks of a V2.0 bag (doctor.h), fed by the page from its feeder worker: the full check
// (doctor_feed) and the lz4 frame checksums (checksum_feed). Each chunk's span
// (its record and the IndexData after it, up to the next chunk) is cut out of the pushed pieces,
// in place or gathered when it straddles pieces, and loaded as the pulled walk (for_each_chunk)
// loads it: the check hands it to the same CheckRun, the checksum to the same tally.
//
// Only where the pull would read the same spans: chunks at distinct positions, every span at
// most kMaxChunkSpan. Chunks are decompressed here, on one core: for lz4 that was faster in the
// page than the pulled walk with its decompression helpers (1.86 s against 2.49-2.83 s for 1 GB,
// bench:browser), as the helpers share the two cores with the browser's reading. bz2 costs far
// more than reading, so the check of a bag whose first chunk is bz2 is left to the pulled walk
// and its helpers (no check feed); the checksum decompresses no bz2 chunk, so it is always fed.
// A chunk whose record does not fit its span (damage) makes the feed incomplete: the pulled pass
// then reads it on its own and reports it.
#include <algorithm>

#include "core/pushed_piece.h"
#include "rosbag/check_run.h"
#include "rosbag/doctor.h"

namespace logscope::rosbag {
namespace {

// Cuts the spans of `order`'s chunks (in file order) out of the pushed bytes and hands each,
// loaded for `walk`, to on_chunk().
class ChunkSpanFeed : public ByteFeed {
 public:
  ChunkSpanFeed(Bag& bag, std::vector<size_t> order, std::vector<uint64_t> span_ends, ChunkWalk walk)
      : bag_(bag), order_(std::move(order)), span_ends_(std::move(span_ends)), walk_(walk) {
    received_ = begin();
  }

  uint64_t begin() const override { return bag_.chunks[order_.front()].pos; }
  uint64_t end() const override { return span_ends_.back(); }

  void update(const uint8_t* data, size_t size) override {
    PushedPiece piece(data, size, &received_, end());
    while (next_ < order_.size() && !stopped_) {
      const Chunk& c = bag_.chunks[order_[next_]];
      if (!piece.skip_to(c.pos)) return;
      size_t span = static_cast<size_t>(span_ends_[next_] - c.pos);
      const uint8_t* base;
      if (held_.empty() && piece.left() >= span) {
        base = piece.data();  // in place
        piece.skip_to(span_ends_[next_]);
      } else {
        if (!piece.gather(held_, span)) return;
        base = held_.data();
      }
      load_chunk_span(base, span, order_[next_], c.pos, decompressor_, &loaded_, walk_);
      if (loaded_.span_short) {
        stopped_ = true;
        why_ = "the chunk at byte " + std::to_string(c.pos) + " does not fit before the next one";
        return;
      }
      note_chunk_header(bag_, loaded_);
      on_chunk(loaded_);
      PushedPiece::clear(held_);
      ++next_;
    }
  }

 protected:
  virtual void on_chunk(LoadedChunk& loaded) = 0;
  // finish()'s start (ByteFeed::unless_complete): nothing when every chunk was walked.
  std::optional<Json> unless_walked(const std::string& error, bool cancelled) {
    return unless_complete(!stopped_ && next_ == order_.size(), cancelled, !error.empty() ? error : why_);
  }

  Bag& bag_;

 private:
  std::vector<size_t> order_;        // chunk indexes in file order
  std::vector<uint64_t> span_ends_;  // where each one's span ends, in the same order
  ChunkWalk walk_;
  ChunkDecompressor decompressor_;
  LoadedChunk loaded_;
  std::vector<uint8_t> held_;  // a span that straddles pieces
  uint64_t received_ = 0;
  size_t next_ = 0;
  bool stopped_ = false;
  std::string why_;
};

class CheckFeed : public ChunkSpanFeed {
 public:
  CheckFeed(ByteSource& source, Bag& bag, std::vector<size_t> order, std::vector<uint64_t> span_ends)
      : ChunkSpanFeed(bag, std::move(order), std::move(span_ends), ChunkWalk::Records), run_(source, bag) {}

  Json finish(const std::string& error, bool cancelled) override {
    if (auto early = unless_walked(error, cancelled)) return *early;
    return run_.finish(false).to_json();
  }

 private:
  void on_chunk(LoadedChunk& loaded) override { run_.chunk(loaded); }
  CheckRun run_;
};

class ChecksumFeed : public ChunkSpanFeed {
 public:
  ChecksumFeed(Bag& bag, std::vector<size_t> order, std::vector<uint64_t> span_ends)
      : ChunkSpanFeed(bag, std::move(order), std::move(span_ends), ChunkWalk::Lz4Checksums) {}

  Json finish(const std::string& error, bool cancelled) override {
    if (auto early = unless_walked(error, cancelled)) return *early;
    return checksum_json(tally_, bag_);
  }

 private:
  void on_chunk(LoadedChunk& loaded) override { tally_.count(bag_.chunks[loaded.chunk_index], loaded); }
  ChecksumTally tally_;
};

// The chunks `wanted` in file order and where each one's span ends; false when a span is not
// what the pulled walk would read (then there is no feed).
bool spans_in_file_order(const Bag& bag, const std::function<bool(const Chunk&)>& wanted, std::vector<size_t>* order,
                         std::vector<uint64_t>* ends) {
  std::vector<size_t> all = chunks_in_file_order(bag);
  std::vector<uint64_t> positions;
  positions.reserve(all.size());
  for (size_t i : all) positions.push_back(bag.chunks[i].pos);
  for (size_t i : all) {
    const Chunk& c = bag.chunks[i];
    if (!wanted(c)) continue;
    uint64_t end = chunk_span_end(bag, positions, c);
    if (end <= c.pos || end - c.pos > kMaxChunkSpan || end > bag.file_size) return false;
    order->push_back(i);
    ends->push_back(end);
  }
  return true;
}

}  // namespace

std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, Bag& bag) {
  if (bag.version != 200 || !bag.encryptor.empty() || bag.chunks.empty()) return nullptr;
  std::vector<size_t> order;
  std::vector<uint64_t> ends;
  if (!spans_in_file_order(bag, [](const Chunk&) { return true; }, &order, &ends)) return nullptr;
  // The first chunk's compression (bz2: no feed), read without noting anything in the bag: the
  // pulled check that runs when there is no feed must find the bag as it was.
  RecordFrame frame;
  std::string header, why;
  HeaderFields fields;
  if (read_record(source, bag.chunks[order.front()].pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) ||
      fields.str("compression") == "bz2")
    return nullptr;
  return std::make_unique<CheckFeed>(source, bag, std::move(order), std::move(ends));
}

std::unique_ptr<ByteFeed> checksum_feed(Bag& bag) {
  if (bag.version != 200 || !bag.encryptor.empty()) return nullptr;
  // As the pulled walk: a chunk whose header is known not to be lz4 is passed over unread.
  std::vector<size_t> order;
  std::vector<uint64_t> ends;
  if (!spans_in_file_order(bag, [](const Chunk& c) { return c.may_be_lz4(); }, &order, &ends) || order.empty()) return nullptr;
  return std::make_unique<ChecksumFeed>(bag, std::move(order), std::move(ends));
}

}  // namespace logscope::rosbag
