// The full check of a V2.0 bag with the file pushed in (FormatInspector::check_feed,
// fed by the page from its feeder worker): each chunk's span (its record and the IndexData after
// it, up to the next chunk) is cut out of the pushed pieces, in place or gathered when it
// straddles pieces, loaded as the pulled walk loads it and handed to the same CheckRun.
//
// Only where the pull would read the same spans: chunks at distinct positions, every span at
// most kMaxChunkSpan. Chunks are decompressed here, on one core: for lz4 that was faster in the
// page than the pulled walk with its decompression helpers (1.86 s against 2.49-2.83 s for 1 GB,
// bench:browser), as the helpers share the two cores with the browser's reading. bz2 costs far
// more than reading, so a bag whose first chunk is bz2 is left to the pulled walk and its
// helpers (a feed returns nullptr). A chunk
// whose record does not fit its span (damage) makes the feed incomplete: the pulled check then
// reads it on its own and reports it.
#include <algorithm>

#include "core/pushed_piece.h"
#include "rosbag/check_run.h"

namespace logscope::rosbag {
namespace {

class CheckFeed : public ByteFeed {
 public:
  CheckFeed(BagInspector& inspector, std::vector<size_t> order, std::vector<uint64_t> span_ends)
      : bag_(inspector.bag()), order_(std::move(order)), span_ends_(std::move(span_ends)), run_(inspector) {
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
      load_chunk_span(base, span, order_[next_], c.pos, decompressor_, &loaded_);
      if (loaded_.span_short) {
        stopped_ = true;
        why_ = "the chunk at byte " + std::to_string(c.pos) + " does not fit before the next one";
        return;
      }
      note_chunk_header(bag_, loaded_);
      run_.chunk(loaded_);
      PushedPiece::clear(held_);
      ++next_;
    }
  }

  Json finish(const std::string& error, bool cancelled) override {
    if (auto early = unless_complete(!stopped_ && next_ == order_.size(), cancelled, !error.empty() ? error : why_)) return *early;
    return run_.finish(false).to_json();
  }

 private:
  Bag& bag_;
  std::vector<size_t> order_;        // chunk indexes in file order
  std::vector<uint64_t> span_ends_;  // where each one's span ends, in the same order
  CheckRun run_;
  ChunkDecompressor decompressor_;
  LoadedChunk loaded_;
  std::vector<uint8_t> held_;  // a span that straddles pieces
  uint64_t received_ = 0;
  size_t next_ = 0;
  bool stopped_ = false;
  std::string why_;
};

}  // namespace

std::unique_ptr<ByteFeed> BagInspector::check_feed() {
  if (bag_.version != 200 || !bag_.encryptor.empty() || bag_.chunks.empty()) return nullptr;
  std::vector<size_t> order = chunks_in_file_order(bag_);
  std::vector<uint64_t> positions;
  positions.reserve(order.size());
  for (size_t i : order) positions.push_back(bag_.chunks[i].pos);
  std::vector<uint64_t> ends;
  ends.reserve(order.size());
  for (size_t i : order) {
    const Chunk& c = bag_.chunks[i];
    uint64_t end = chunk_span_end(bag_, positions, c);
    if (end <= c.pos || end - c.pos > kMaxChunkSpan || end > bag_.file_size) return nullptr;
    ends.push_back(end);
  }
  // The first chunk's compression (bz2: no feed), read without noting anything in the bag: the
  // pulled check that runs when there is no feed must find the bag as it was.
  RecordFrame frame;
  std::string header, why;
  HeaderFields fields;
  if (read_record(source_, bag_.chunks[order.front()].pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) ||
      fields.str("compression") == "bz2")
    return nullptr;
  return std::make_unique<CheckFeed>(*this, std::move(order), std::move(ends));
}

}  // namespace logscope::rosbag
