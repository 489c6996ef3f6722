#include "core/paged_bytes.h"

#include <algorithm>
#include <cstring>

namespace logscope::packed {

PagedBytes::PagedBytes(const PagedBytes& other) : marks_(other.marks_) {
  pages_.reserve(other.pages_.size());
  for (const Page& page : other.pages_) {
    Page copy;
    copy.capacity = page.capacity;
    copy.used = page.used;
    copy.bytes.reset(new uint8_t[page.capacity]);
    std::memcpy(copy.bytes.get(), page.bytes.get(), page.used);
    pages_.push_back(std::move(copy));
  }
}

PagedBytes& PagedBytes::operator=(const PagedBytes& other) {
  if (this != &other) *this = PagedBytes(other);
  return *this;
}

uint8_t* PagedBytes::room_slow(size_t most, bool mark) {
  if (pages_.empty() || pages_.back().capacity - pages_.back().used < most) {
    Page page;
    // Pages double from 4 KiB to kPage: a short list (a small log, a series of a few blocks)
    // holds a few KiB.
    page.capacity = std::max(most, std::min(kPage, size_t{4096} << std::min<size_t>(pages_.size(), 6)));
    page.bytes.reset(new uint8_t[page.capacity]);
    pages_.push_back(std::move(page));
  }
  Page& page = pages_.back();
  if (mark) marks_.push_back(Position{static_cast<uint32_t>(pages_.size() - 1), static_cast<uint32_t>(page.used)});
  return page.bytes.get() + page.used;
}

const uint8_t* PagedBytes::bytes_at(Position& p, const uint8_t** end) const {
  if (p.page < pages_.size() && p.at >= pages_[p.page].used && p.page + 1 < pages_.size()) p = Position{p.page + 1, 0};
  if (p.page >= pages_.size()) {
    *end = nullptr;
    return nullptr;
  }
  const Page& page = pages_[p.page];
  *end = page.bytes.get() + page.used;
  return page.bytes.get() + std::min<size_t>(p.at, page.used);
}

size_t PagedBytes::memory_bytes() const {
  size_t bytes = marks_.capacity() * sizeof(Position) + pages_.capacity() * sizeof(Page);
  for (const Page& page : pages_) bytes += page.capacity;
  return bytes;
}

}  // namespace logscope::packed
