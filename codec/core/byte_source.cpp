#include "core/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

namespace logscope {

std::vector<uint8_t> ByteSource::read_vector(uint64_t offset, size_t length) {
  uint64_t total = size();
  if (offset >= total) return {};
  length = static_cast<size_t>(std::min<uint64_t>(length, total - offset));
  std::vector<uint8_t> out(length);
  out.resize(read(offset, out.data(), length));
  return out;
}

std::unique_ptr<FileByteSource> FileByteSource::open(const std::string& path, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = std::strerror(errno);
    return nullptr;
  }
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    if (error) *error = std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  if (S_ISDIR(info.st_mode)) {
    if (error) *error = "is a directory";
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<FileByteSource>(new FileByteSource(fd, static_cast<uint64_t>(info.st_size)));
}

FileByteSource::~FileByteSource() { ::close(fd_); }

size_t FileByteSource::read(uint64_t offset, void* destination, size_t length) {
  size_t done = 0;
  auto* out = static_cast<uint8_t*>(destination);
  while (done < length && offset + done < size_) {
    ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

size_t MemoryByteSource::read(uint64_t offset, void* destination, size_t length) {
  if (offset >= size_ || length == 0) return 0;  // memcpy with a null destination is undefined, even for 0 bytes
  size_t n = static_cast<size_t>(std::min<uint64_t>(length, size_ - offset));
  std::memcpy(destination, data_ + offset, n);
  return n;
}

size_t CallbackByteSource::read(uint64_t offset, void* destination, size_t length) {
  if (offset >= size_ || length == 0) return 0;
  length = static_cast<size_t>(std::min<uint64_t>(length, size_ - offset));
  return std::min(length, read_(offset, destination, length));
}

size_t CountingByteSource::read(uint64_t offset, void* destination, size_t length) {
  size_t n = inner_.read(offset, destination, length);
  bytes_read_ += n;
  ++read_calls_;
  return n;
}

size_t CountingByteSource::read_once(uint64_t offset, void* destination, size_t length) {
  size_t n = inner_.read_once(offset, destination, length);
  bytes_read_ += n;
  ++read_calls_;
  return n;
}

CachedByteSource::CachedByteSource(ByteSource& inner, Options options)
    : inner_(inner), options_(options), next_fetch_(options.block_size) {
  options_.block_size = std::max<size_t>(options_.block_size, 512);
  options_.max_fetch = std::max(options_.max_fetch, options_.block_size);
  options_.capacity = std::max(options_.capacity, options_.max_fetch * 2);
}

void CachedByteSource::clear() {
  release_preloaded();
  blocks_.clear();
  cached_bytes_ = small_bytes_ = 0;
  expected_run_ = 0;
  last_miss_end_ = UINT64_MAX;
  next_fetch_ = options_.block_size;
}

const CachedByteSource::Block* CachedByteSource::find_block(uint64_t offset) {
  for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
    if (offset >= it->offset && offset < it->offset + it->size) {
      if (it != blocks_.begin()) blocks_.splice(blocks_.begin(), blocks_, it);
      return &blocks_.front();
    }
  }
  return nullptr;
}

const CachedByteSource::Block* CachedByteSource::find_preloaded(uint64_t offset) const {
  auto after = preloaded_.upper_bound(offset);
  if (after == preloaded_.begin()) return nullptr;
  const Block& block = std::prev(after)->second;
  return offset < block.offset + block.size ? &block : nullptr;
}

bool CachedByteSource::preload(uint64_t offset, const uint8_t* data, size_t size) {
  uint64_t total = inner_.size();
  if (size == 0 || offset >= total || size > total - offset) return false;
  if (preloaded_bytes_ + size > preload_cap()) return false;
  auto after = preloaded_.lower_bound(offset);
  if (after != preloaded_.end() && after->first < offset + size) return false;
  if (after != preloaded_.begin()) {
    const Block& before = std::prev(after)->second;
    if (before.offset + before.size > offset) return false;
  }
  Block block{offset, std::unique_ptr<uint8_t[]>(new uint8_t[size]), size};
  std::memcpy(block.bytes.get(), data, size);
  preloaded_.emplace_hint(after, offset, std::move(block));
  preloaded_bytes_ += size;
  return true;
}

void CachedByteSource::release_preloaded() {
  preloaded_.clear();
  preloaded_bytes_ = 0;
}

void CachedByteSource::set_range_fetcher(RangeFetcher fetcher, uint64_t window_bytes) {
  fetcher_ = std::move(fetcher);
  window_bytes_ = window_bytes;
  will_read_ranges({});
}

void CachedByteSource::will_read_ranges(std::vector<ByteRange> ranges) {
  if (!plan_.empty()) release_preloaded();  // the last window of the pass before
  plan_.clear();
  plan_fetched_ = 0;
  if (fetcher_) plan_ = std::move(ranges);
}

bool CachedByteSource::follow_plan(uint64_t offset) {
  // Reads follow the plan, so a new window starts at the first range not yet fetched (or a few
  // after it, where the pass passed some over). Other reads (an index record between two chunks,
  // what a window did not get) are read as before.
  constexpr size_t kLookAhead = 8;
  const auto holds = [&](const ByteRange& r) { return offset >= r.offset && offset - r.offset < r.length; };
  size_t at = plan_fetched_;
  while (at < plan_.size() && at < plan_fetched_ + kLookAhead && !holds(plan_[at])) ++at;
  if (at >= plan_.size() || !holds(plan_[at])) return false;
  release_preloaded();
  const uint64_t limit = std::min<uint64_t>(window_bytes_, preload_cap());
  std::vector<ByteRange> window;
  uint64_t bytes = 0;
  size_t end = at;
  for (; end < plan_.size(); ++end) {
    if (bytes + plan_[end].length > limit) break;
    bytes += plan_[end].length;
    window.push_back(plan_[end]);
  }
  plan_fetched_ = std::max(end, at + 1);  // a range larger than the window is read as before
  if (window.empty()) return false;
  ++plan_windows_;
  plan_ranges_fetched_ += window.size();
  fetcher_(window);
  return find_preloaded(offset) != nullptr;
}

const CachedByteSource::Block* CachedByteSource::fetch(uint64_t offset, size_t wanted) {
  uint64_t total = inner_.size();
  uint64_t start = offset - offset % options_.block_size;
  // A miss right where the last one ended is a sequential scan: read further ahead each time. An
  // announced run (expect_run) is read whole from its first miss.
  bool sequential = start == last_miss_end_;
  next_fetch_ = sequential ? std::min(next_fetch_ * 2, options_.max_fetch) : options_.block_size;
  if (expected_run_ > 0) {
    next_fetch_ = static_cast<size_t>(std::max<uint64_t>(next_fetch_, std::min<uint64_t>(expected_run_, options_.max_fetch)));
    expected_run_ = 0;
  }
  // Never less than the read asks for: one call, not a series of growing ones.
  uint64_t needed = offset - start + wanted;
  needed = (needed + options_.block_size - 1) / options_.block_size * options_.block_size;
  size_t want = static_cast<size_t>(std::min<uint64_t>(std::max<uint64_t>(next_fetch_, needed), total - start));
  Block block{start, std::unique_ptr<uint8_t[]>(new uint8_t[want]), 0};
  block.size = inner_.read(start, block.bytes.get(), want);
  if (block.size == 0 || block.offset + block.size <= offset) return nullptr;
  last_miss_end_ = start + block.size;
  cached_bytes_ += block.size;
  if (is_small(block)) small_bytes_ += block.size;
  blocks_.push_front(std::move(block));
  // The least recently used large block goes first: small ones (a chunk's header, an index
  // record, a b-tree page) are read again one slow call each, and a few large reads (camera
  // frames) would otherwise push them all out. Small ones go once they fill a quarter of the cache.
  while (cached_bytes_ > options_.capacity && blocks_.size() > 1) {
    auto victim = std::prev(blocks_.end());
    if (small_bytes_ <= options_.capacity / 4)
      for (auto it = victim; it != blocks_.begin(); --it)
        if (!is_small(*it)) {
          victim = it;
          break;
        }
    cached_bytes_ -= victim->size;
    if (is_small(*victim)) small_bytes_ -= victim->size;
    blocks_.erase(victim);
  }
  return &blocks_.front();
}

void CachedByteSource::will_read(uint64_t offset, uint64_t length) {
  uint64_t total = inner_.size();
  if (offset >= total) return;
  length = std::min<uint64_t>(length, total - offset);
  if (length == 0 || length > options_.capacity / 2) return;
  const Block* cached = find_block(offset);
  if (cached && cached->offset + cached->size >= offset + length) return;
  fetch(offset, static_cast<size_t>(length));
}

size_t CachedByteSource::read_once(uint64_t offset, void* destination, size_t length) {
  if (!plan_.empty() || (!preloaded_.empty() && find_preloaded(offset)) || find_block(offset)) return read(offset, destination, length);
  uint64_t total = inner_.size();
  if (offset >= total) return 0;
  return inner_.read(offset, destination, static_cast<size_t>(std::min<uint64_t>(length, total - offset)));
}

size_t CachedByteSource::read(uint64_t offset, void* destination, size_t length) {
  uint64_t total = inner_.size();
  if (offset >= total) return 0;
  length = static_cast<size_t>(std::min<uint64_t>(length, total - offset));
  if (!plan_.empty() && !find_preloaded(offset)) follow_plan(offset);
  // Large reads go straight through: caching them would only evict useful blocks.
  if (length >= options_.max_fetch && (preloaded_.empty() || !find_preloaded(offset))) return inner_.read(offset, destination, length);
  auto* out = static_cast<uint8_t*>(destination);
  size_t done = 0;
  while (done < length) {
    uint64_t at = offset + done;
    const Block* block = preloaded_.empty() ? nullptr : find_preloaded(at);
    // A read across the end of a window (a group of adjacent chunks) starts the next one.
    if (!block && !plan_.empty() && done > 0 && follow_plan(at)) block = find_preloaded(at);
    if (!block) block = find_block(at);
    if (!block) block = fetch(at, length - done);
    if (!block) break;
    size_t in_block = static_cast<size_t>(at - block->offset);
    size_t n = std::min(length - done, block->size - in_block);
    std::memcpy(out + done, block->bytes.get() + in_block, n);
    done += n;
  }
  return done;
}

}  // namespace logscope
