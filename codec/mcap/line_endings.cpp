#include "mcap/line_endings.h"

#include <algorithm>
#include <cstring>

#include "mcap/decompress.h"
#include "mcap/line_ending_steps.h"
#include "mcap/records.h"

namespace logscope::mcap {
namespace {

constexpr char kShortMagic[] = "\x89MCAP0\n";  // kMagic after "\r\n" -> "\n"
constexpr size_t kShortMagicSize = kMagicSize - 1;
constexpr uint64_t kWindow = 8u << 20;
constexpr size_t kMaxInsertsKept = 16;
constexpr uint64_t kMaxChunkKept = 64u << 20;  // a larger chunk's MessageIndex records are checked by their fields alone
constexpr uint64_t kChainLook = 1u << 20;  // how far past a record its fallback framing looks for records that follow

uint64_t u64_at(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The damaged file read front to back: a window of at least 8 MiB, or one record and what follows.
class Window {
 public:
  explicit Window(ByteSource& source) : source_(source), size_(source.size()) {}
  // Makes [pos, pos + length) (clipped to the file) available; returns how much is.
  uint64_t ensure(uint64_t pos, uint64_t length) {
    uint64_t want = std::min(length, size_ - pos);
    if (pos < base_ || pos + want > base_ + bytes_.size()) {
      uint64_t take = std::min(std::max(want, kWindow), size_ - pos);
      bytes_.resize(static_cast<size_t>(take));
      bytes_.resize(source_.read(pos, bytes_.data(), bytes_.size()));
      base_ = pos;
    }
    return std::min(want, base_ + bytes_.size() - pos);
  }
  const uint8_t* at(uint64_t pos) const { return bytes_.data() + (pos - base_); }
  uint64_t available(uint64_t pos) const { return base_ + bytes_.size() - pos; }
  uint64_t size() const { return size_; }

 private:
  ByteSource& source_;
  uint64_t size_, base_ = 0;
  std::vector<uint8_t> bytes_;
};

// The ways a record prefix (9 bytes) can be read at d[at]: "\r"s back before some of its "\n"s
// (not before d[at] when the record before ended with one there).
struct Prefix {
  uint8_t op = 0;
  uint64_t length = 0;
  size_t consumed = 0;               // damaged bytes it takes
  std::vector<size_t> inserts;       // relative positions
};
void prefixes(const uint8_t* d, size_t n, size_t at, bool no_insert_at, std::vector<Prefix>* out) {
  struct Walk {
    const uint8_t* d;
    size_t n;
    std::vector<Prefix>* out;
    uint8_t bytes[kRecordPrefix];
    std::vector<size_t> inserts;
    void go(size_t j, size_t filled, bool may_insert) {
      if (filled == kRecordPrefix) {
        out->push_back(Prefix{bytes[0], u64_at(bytes + 1), static_cast<size_t>(kRecordPrefix - inserts.size()), inserts});
        return;
      }
      if (j >= n) return;
      bytes[filled] = d[j];  // the reading with nothing lost first
      go(j + 1, filled + 1, true);
      if (d[j] == '\n' && may_insert) {
        bytes[filled] = '\r';
        inserts.push_back(j);
        go(j, filled + 1, false);
        inserts.pop_back();
      }
    }
  };
  Walk w{d, n, out, {}, {}};
  w.go(at, 0, !no_insert_at);
}

bool plausible_op(uint8_t op, uint64_t length, uint64_t left) {
  if (!(is_private_op(op) || (is_known_op(op) && op != kOpHeader))) return false;
  if (op == kOpFooter && length != kFooterContent) return false;
  return length <= 2 * left;  // every byte left could have lost a "\r" before it
}

// One record's search: its prefix, the totals of lost bytes its length allows (the next record
// must start where it ends), and depth first through its content's steps.
class RecordSearch {
 public:
  // d[0, n) holds the record and the next prefix; d[0, readable) more when the window has it.
  RecordSearch(const uint8_t* d, size_t n, size_t readable, uint64_t file_left, bool first, const LineEndingLimits& limits, uint64_t* file_trials,
               uint64_t* file_bytes, const FramedSoFar* framed)
      : d_(d), n_(n), readable_(std::max(n, readable)), file_left_(file_left), first_(first), limits_(limits), file_trials_(file_trials),
        file_bytes_(file_bytes), framed_(framed) {
    for (size_t i = 0; i < n; ++i)
      if (d[i] == '\n') newlines_.push_back(i);
  }

  struct Solution {
    std::vector<size_t> inserts;
    size_t end = 0;
    bool decisive = false;
    std::string how;
    uint8_t op = 0;
    uint64_t length = 0;
  };
  std::vector<Solution> solutions;
  bool capped = false;
  // The framing when nothing fits: a prefix whose length lets the next record start, and k.
  bool have_fallback = false;
  Solution fallback;

  void run(bool no_insert_at_start) {
    std::vector<Prefix> heads;
    prefixes(d_, n_, 0, no_insert_at_start, &heads);
    for (const Prefix& p : heads) {
      if (first_ ? p.op != kOpHeader : !plausible_op(p.op, p.length, file_left_)) continue;
      if (p.length > limits_.max_record) continue;
      size_t c0 = p.consumed;
      std::vector<uint64_t> totals;  // lost bytes in the content the next record allows
      for (uint64_t k = c0 + p.length > n_ ? c0 + p.length - n_ : 0; k <= p.length; ++k) {
        size_t end = static_cast<size_t>(c0 + p.length - k);
        if (newlines_between(c0, end) < k) break;
        if (next_plausible(end, false)) totals.push_back(k);
      }
      if (totals.empty()) continue;
      if (!have_fallback) {  // the framing if nothing fits: a k after which records go on, at the first "\n"s
        have_fallback = true;
        uint64_t k = totals.front();
        for (uint64_t t : totals)
          if (chain(static_cast<size_t>(c0 + p.length - t), 3)) {
            k = t;
            break;
          }
        fallback = Solution{p.inserts, static_cast<size_t>(c0 + p.length - k), false, "", p.op, p.length};
        for (size_t i = 0; i < k; ++i) fallback.inserts.push_back(nth_newline(c0, i));
      }
      if (totals == std::vector<uint64_t>{0} && p.inserts.empty()) {  // nothing lost: the bytes are the record's
        solutions.push_back(Solution{{}, static_cast<size_t>(c0 + p.length), true, "nothing lost", p.op, p.length});
      } else {
        totals_ = std::move(totals);
        path_ = p.inserts;
        std::unique_ptr<ContentSteps> root = content_steps(p.op, p.length, framed_);
        op_ = p.op, length_ = p.length;
        dfs(*root, c0, false, 0, p.length);
      }
      if (enough()) break;
    }
  }

 private:
  bool enough() const { return capped || solutions.size() >= 2 || (solutions.size() == 1 && solutions[0].decisive); }

  size_t newlines_between(size_t lo, size_t hi_inclusive) const {
    auto a = std::lower_bound(newlines_.begin(), newlines_.end(), lo);
    auto b = std::upper_bound(newlines_.begin(), newlines_.end(), hi_inclusive);
    return a < b ? static_cast<size_t>(b - a) : 0;
  }
  size_t nth_newline(size_t lo, size_t i) const { return *(std::lower_bound(newlines_.begin(), newlines_.end(), lo) + static_cast<long>(i)); }

  // Whether a record (or the file's end, or its closing magic) can start at d[at].
  bool next_plausible(size_t at, bool no_insert_at) const {
    uint64_t left = file_left_ - at;
    if (left == 0) return true;  // the file ends here (it was cut)
    if (left == kShortMagicSize && at + kShortMagicSize <= n_ && std::memcmp(d_ + at, kShortMagic, kShortMagicSize) == 0) return true;
    std::vector<Prefix> heads;
    prefixes(d_, n_, at, no_insert_at, &heads);
    for (const Prefix& p : heads)
      if (plausible_op(p.op, p.length, left)) return true;
    return false;
  }

  // Whether `depth` records in a row can be framed from d[at] (each losing no more than its "\n"s
  // allow), or the file's end comes first; true where the window ends before the question does.
  bool chain(size_t at, int depth) const {
    if (depth == 0 || at >= readable_) return true;
    uint64_t left = file_left_ - at;
    if (left == 0) return true;
    if (left == kShortMagicSize && at + kShortMagicSize <= readable_ && std::memcmp(d_ + at, kShortMagic, kShortMagicSize) == 0) return true;
    std::vector<Prefix> heads;
    prefixes(d_, readable_, at, false, &heads);
    for (const Prefix& p : heads) {
      if (!plausible_op(p.op, p.length, left)) continue;
      uint64_t c = at + p.consumed;
      if (c + p.length > readable_) return true;
      size_t end = static_cast<size_t>(c + p.length);
      uint64_t newlines = 0;
      for (size_t i = static_cast<size_t>(c); i <= end && i < readable_ && newlines <= 64; ++i) newlines += d_[i] == '\n';
      for (uint64_t k = 0; k <= newlines && k <= p.length; ++k)
        if (chain(end - static_cast<size_t>(k), depth - 1)) return true;
    }
    return false;
  }

  void dfs(const ContentSteps& steps, size_t c, bool inserted_at_c, uint64_t missing, uint64_t restored_left) {
    size_t need = steps.next_size();
    if (need == 0) {
      if (restored_left != 0 || !std::binary_search(totals_.begin(), totals_.end(), missing) || !next_plausible(c, inserted_at_c)) return;
      solutions.push_back(Solution{path_, c, steps.decisive(), steps.decided_by(), op_, length_});
      return;
    }
    if (need > restored_left) return;
    bool last = need == restored_left;
    std::vector<uint8_t> bytes(need);
    for (size_t m = 0; m <= need; ++m) {
      uint64_t total = missing + m;
      if (total > totals_.back()) break;
      if (last && !std::binary_search(totals_.begin(), totals_.end(), total)) continue;
      size_t span = need - m;
      if (c + span > n_) continue;
      size_t lo = c + (inserted_at_c ? 1 : 0), hi = c + span;
      auto first = std::lower_bound(newlines_.begin(), newlines_.end(), lo);
      auto last_it = std::upper_bound(newlines_.begin(), newlines_.end(), hi);
      size_t count = first < last_it ? static_cast<size_t>(last_it - first) : 0;
      if (count < m) break;
      // Combinations of m of the candidates, in order.
      std::vector<size_t> pick(m);
      for (size_t i = 0; i < m; ++i) pick[i] = i;
      for (;;) {
        if (trials_ >= limits_.record_trials || bytes_fed_ >= std::min(limits_.record_bytes, (4u << 20) + 1024 * length_) || *file_trials_ >= limits_.file_trials ||
            *file_bytes_ >= limits_.file_bytes) {
          capped = true;
          return;
        }
        ++trials_, ++*file_trials_, bytes_fed_ += need, *file_bytes_ += need;
        size_t o = 0, k = 0;
        for (size_t j = c; j <= hi && o < need; ++j) {
          if (k < m && first[static_cast<long>(pick[k])] == j) bytes[o++] = '\r', ++k;
          if (j < hi && o < need) bytes[o++] = d_[j];
        }
        std::unique_ptr<ContentSteps> trial = steps.clone();
        if (trial->feed(bytes.data(), need)) {
          size_t before = path_.size();
          for (size_t i = 0; i < m; ++i) path_.push_back(first[static_cast<long>(pick[i])]);
          dfs(*trial, hi, m > 0 && path_.back() == hi, total, restored_left - need);
          path_.resize(before);
          if (enough()) return;
        }
        // The next combination.
        size_t i = m;
        while (i > 0 && pick[i - 1] == count - m + i - 1) --i;
        if (i == 0) break;
        ++pick[i - 1];
        for (size_t j = i; j < m; ++j) pick[j] = pick[j - 1] + 1;
      }
    }
  }

  const uint8_t* d_;
  size_t n_, readable_;
  uint64_t file_left_;
  bool first_;
  const LineEndingLimits& limits_;
  uint64_t* file_trials_;
  uint64_t* file_bytes_;
  const FramedSoFar* framed_;
  std::vector<size_t> newlines_;
  std::vector<uint64_t> totals_;
  std::vector<size_t> path_;
  uint8_t op_ = 0;
  uint64_t length_ = 0;
  uint64_t trials_ = 0, bytes_fed_ = 0;
};

std::string at_byte(uint64_t offset) { return "byte " + std::to_string(offset); }

// A record's content as restored: its damaged bytes from d[0] with its "\r"s back, after the prefix.
std::string restored_content(const uint8_t* d, const RecordSearch::Solution& s) {
  std::string whole;
  whole.reserve(s.end + s.inserts.size());
  size_t k = 0;
  for (size_t j = 0; j <= s.end; ++j) {
    while (k < s.inserts.size() && s.inserts[k] == j) whole += '\r', ++k;
    if (j < s.end) whole += static_cast<char>(d[j]);
  }
  return whole.size() > kRecordPrefix ? whole.substr(kRecordPrefix) : std::string();
}

}  // namespace

LineEndingRestoration restore_line_endings(ByteSource& damaged, const LineEndingLimits& limits, const ProgressFn& progress) {
  LineEndingRestoration r;
  Window window(damaged);
  uint64_t size = window.size();
  if (window.ensure(0, kShortMagicSize) < kShortMagicSize || std::memcmp(window.at(0), kShortMagic, kShortMagicSize) != 0) {
    r.stop_reason = "the file does not start with the MCAP magic shortened by a line-ending conversion";
    return r;
  }
  r.inserts.push_back(kShortMagicSize - 1);
  uint64_t pos = kShortMagicSize;
  bool inserted_at_pos = false;
  FramedSoFar framed;
  bool data_ended = false;
  std::string last_chunk;  // the last chunk's content, as restored
  Decompressed chunk_records;
  for (bool first = true;; first = false) {
    if (pos == size) {
      r.complete = true;
      break;
    }
    if (progress && !progress(pos, size)) {
      r.cancelled = true;
      r.stop_reason = "cancelled";
      break;
    }
    if (size - pos == kShortMagicSize && window.ensure(pos, kShortMagicSize) == kShortMagicSize &&
        std::memcmp(window.at(pos), kShortMagic, kShortMagicSize) == 0 && !first) {
      r.inserts.push_back(pos + kShortMagicSize - 1);
      pos = size;
      continue;
    }
    // The largest length any reading of the prefix declares bounds what the search needs.
    uint64_t got = window.ensure(pos, 2 * kRecordPrefix);
    std::vector<Prefix> heads;
    prefixes(window.at(pos), static_cast<size_t>(got), 0, inserted_at_pos, &heads);
    uint64_t longest = 0;
    for (const Prefix& p : heads)
      if (p.length <= limits.max_record) longest = std::max(longest, p.length);
    got = window.ensure(pos, 2 * kRecordPrefix + longest + 2 * kRecordPrefix);
    RecordSearch search(window.at(pos), static_cast<size_t>(got), static_cast<size_t>(std::min<uint64_t>(window.available(pos), got + kChainLook)), size - pos,
                        first, limits, &r.trials, &r.bytes_fed, &framed);
    // A MessageIndex that lost bytes is checked against the chunk before it, decompressed once.
    if (!framed.chunk_known && !last_chunk.empty() && window.at(pos)[0] == kOpMessageIndex &&
        std::memchr(window.at(pos), '\n', static_cast<size_t>(got)) != nullptr) {
      ChunkHeader h;
      std::string why;
      if (parse_chunk_header(last_chunk, &h, &why)) {
        decompress_chunk(h.compression, std::string_view(last_chunk).substr(static_cast<size_t>(h.records_offset), static_cast<size_t>(h.records_size)),
                         h.uncompressed_size, &chunk_records);
        framed.chunk_known = chunk_records.status == DecompressStatus::Ok;
        framed.chunk_records = framed.chunk_known ? chunk_records.view() : std::string_view();
      }
    }
    search.run(inserted_at_pos);
    const RecordSearch::Solution* chosen = !search.solutions.empty() ? &search.solutions.front() : search.have_fallback ? &search.fallback : nullptr;
    if (!chosen) {
      r.framed_to = pos;
      r.stop_reason = "no record that lost only \"\\r\"s before \"\\n\"s and fits the one after it starts at " + at_byte(pos) +
                      (longest == 0 && !heads.empty() ? "" : " (a record over " + std::to_string(limits.max_record >> 20) + " MiB is not searched)");
      break;
    }
    if (!chosen->inserts.empty()) {
      DamagedRecord rec;
      rec.offset = pos;
      rec.restored_offset = pos + r.inserts.size();
      rec.op = chosen->op;
      rec.length = chosen->length;
      rec.bytes_lost = chosen->inserts.size();
      for (size_t i = 0; i < chosen->inserts.size() && i < kMaxInsertsKept; ++i) rec.inserts.push_back(pos + chosen->inserts[i]);
      if (search.solutions.empty()) {
        rec.outcome = RestoreOutcome::Unresolved;
        rec.how = search.capped ? "the search reached its cap before any restoration fit"
                                : "no placement of its lost \"\\r\"s makes a valid record (it holds other damage)";
      } else if (search.solutions.size() == 1 && (chosen->decisive || !search.capped)) {
        rec.outcome = RestoreOutcome::Restored;
        rec.how = chosen->decisive ? chosen->how : "the only placement that fits " + chosen->how;
      } else {
        rec.outcome = RestoreOutcome::Ambiguous;
        rec.how = search.solutions.size() >= 2 ? "several placements fit " + chosen->how + " and no checksum tells them apart"
                                               : "one placement fits " + chosen->how + " but the search reached its cap before it could rule out others";
      }
      (rec.outcome == RestoreOutcome::Restored ? r.restored : rec.outcome == RestoreOutcome::Ambiguous ? r.ambiguous : r.unresolved) += 1;
      ++r.damaged_records;
      if (r.records.size() < limits.max_listed) r.records.push_back(std::move(rec));
      for (size_t i : chosen->inserts) r.inserts.push_back(pos + i);
    }
    // What the index records after this one may point at (chunks, attachments, metadata, the summary's groups).
    bool trusted = chosen->inserts.empty() || (!search.solutions.empty() && r.records.size() && r.records.back().offset == pos &&
                                               r.records.back().outcome == RestoreOutcome::Restored);
    uint64_t restored_at = pos + (r.inserts.size() - chosen->inserts.size());
    uint64_t restored_length = chosen->end + chosen->inserts.size();
    if (chosen->op == kOpChunk || chosen->op == kOpAttachment || chosen->op == kOpMetadata || data_ended)
      framed.records[restored_at] = {chosen->op, restored_length};
    if (chosen->op == kOpDataEnd) data_ended = true;
    if (chosen->op == kOpChunk) {
      // Kept for the MessageIndex records after it: its content as restored, when it is trusted.
      last_chunk.clear();
      framed.chunk_known = false;
      if (trusted && restored_length <= kMaxChunkKept) last_chunk = restored_content(window.at(pos), *chosen);
    }
    inserted_at_pos = !chosen->inserts.empty() && chosen->inserts.back() == chosen->end;
    pos += chosen->end;
    r.framed_to = pos;
  }
  if (r.complete) r.framed_to = size;
  return r;
}

void line_ending_problems(const LineEndingRestoration& r, std::vector<Problem>* problems) {
  for (const DamagedRecord& rec : r.records) {
    std::string what = "the " + op_name(rec.op) + " at " + at_byte(rec.offset) + " (" + at_byte(rec.restored_offset) + " before the conversion) lost " +
                       std::to_string(rec.bytes_lost) +
                       (rec.bytes_lost == 1 ? " byte (a \"\\r\" before a \"\\n\")" : " bytes (\"\\r\"s before \"\\n\"s)");
    if (rec.outcome == RestoreOutcome::Restored) {
      std::string where;
      for (uint64_t at : rec.inserts) where += (where.empty() ? "" : ", ") + std::to_string(at);
      if (rec.bytes_lost > rec.inserts.size()) where += ", ...";
      problems->push_back(Problem{Severity::Error, rec.offset, "mcap.crlf.bytes_lost",
                                  what + " (before the \"\\n\"s at bytes " + where + "): repair puts them back; " + rec.how + " decides"});
    } else {
      problems->push_back(Problem{Severity::Error, rec.offset, rec.outcome == RestoreOutcome::Ambiguous ? "mcap.crlf.ambiguous" : "mcap.crlf.unresolved",
                                  what + ": " + rec.how + "; repair keeps the messages outside it"});
    }
  }
  if (r.damaged_records > r.records.size())
    problems->push_back(Problem{Severity::Error, r.framed_to, "mcap.crlf.bytes_lost",
                                std::to_string(r.damaged_records - r.records.size()) + " more records lost bytes (" + std::to_string(r.restored) + " of " +
                                    std::to_string(r.damaged_records) + " in all are restored)"});
  if (!r.complete && !r.cancelled)
    problems->push_back(Problem{Severity::Error, r.framed_to, "mcap.crlf.unframed",
                                "the line-ending restoration stopped at " + at_byte(r.framed_to) + ": " + r.stop_reason + "; what follows is read as it is"});
}

RestoredSource::RestoredSource(ByteSource& damaged, std::vector<uint64_t> inserts) : damaged_(damaged), inserts_(std::move(inserts)) {}

uint64_t RestoredSource::restored_offset(uint64_t damaged_offset) const {
  return damaged_offset + static_cast<uint64_t>(std::upper_bound(inserts_.begin(), inserts_.end(), damaged_offset) - inserts_.begin());
}

size_t RestoredSource::read(uint64_t offset, void* destination, size_t length) {
  uint8_t* out = static_cast<uint8_t*>(destination);
  size_t done = 0;
  uint64_t total = size();
  while (done < length && offset + done < total) {
    uint64_t r = offset + done;
    // The t-th "\r" sits at inserts_[t] + t; find how many come before r.
    size_t lo = 0, hi = inserts_.size();
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (inserts_[mid] + mid < r) lo = mid + 1;
      else hi = mid;
    }
    if (lo < inserts_.size() && inserts_[lo] + lo == r) {
      out[done++] = '\r';
      continue;
    }
    uint64_t d = r - lo;  // the damaged byte here
    uint64_t run = (lo < inserts_.size() ? inserts_[lo] : damaged_.size()) - d;
    size_t want = static_cast<size_t>(std::min<uint64_t>(run, length - done));
    size_t got = damaged_.read(d, out + done, want);
    done += got;
    if (got < want) break;
  }
  return done;
}

}  // namespace logscope::mcap
