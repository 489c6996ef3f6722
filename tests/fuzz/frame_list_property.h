// The packed frame index (carla/frame_list.h) under the fuzzer: the input's bytes become a
// sequence of frame entries, pushed and read back by index and by iteration, bit for bit; a
// difference aborts. fuzz_carla.cpp runs it on every input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "carla/frame_list.h"

namespace logscope_fuzz {

using logscope::carla::FrameEntry;
using logscope::carla::FrameList;

// Each entry: a byte saying which fields follow (the others take the values the list predicts,
// so both of its paths are reached), then those fields' bytes.
inline std::vector<FrameEntry> frame_entries(const uint8_t* data, size_t size) {
  std::vector<FrameEntry> out;
  FrameEntry prev;
  size_t at = 0;
  auto take = [&](void* field, size_t n) {
    n = std::min(n, size - at);
    std::memcpy(field, data + at, n);
    at += n;
  };
  while (at < size) {
    uint8_t which = data[at++];
    FrameEntry f;
    f.id = prev.id + 1, f.offset = prev.end, f.elapsed = prev.elapsed + prev.duration, f.duration = prev.duration, f.packets = prev.packets;
    if (which & 1) take(&f.id, 8);
    if (which & 2) take(&f.offset, 8);
    if (which & 4) take(&f.elapsed, 8);
    if (which & 8) take(&f.duration, 8);
    if (which & 16) take(&f.packets, 4);
    uint16_t length = 0;
    take(&length, which & 32 ? 2 : 1);
    f.end = which & 64 ? f.offset - length : f.offset + length;
    f.has_events = which & 128;
    out.push_back(f);
    prev = f;
  }
  return out;
}

inline bool same_frame(const FrameEntry& a, const FrameEntry& b) {
  return a.id == b.id && std::memcmp(&a.elapsed, &b.elapsed, 8) == 0 && std::memcmp(&a.duration, &b.duration, 8) == 0 && a.offset == b.offset &&
         a.end == b.end && a.packets == b.packets && a.has_events == b.has_events;
}

inline void check_frame_list(const uint8_t* data, size_t size) {
  std::vector<FrameEntry> frames = frame_entries(data, size);
  FrameList list;
  for (const FrameEntry& f : frames) {
    list.push_back(f);
    if (!same_frame(list.back(), f)) std::fprintf(stderr, "frame list: back() differs after push %zu\n", list.size()), std::abort();
  }
  size_t i = 0;
  for (const FrameEntry& f : list)
    if (i >= frames.size() || !same_frame(f, frames[i++])) std::fprintf(stderr, "frame list: iteration differs at %zu\n", i), std::abort();
  if (i != frames.size() || list.size() != frames.size()) std::fprintf(stderr, "frame list: %zu entries of %zu\n", i, frames.size()), std::abort();
  for (i = 0; i < frames.size(); ++i)
    if (!same_frame(list[i], frames[i])) std::fprintf(stderr, "frame list: entry %zu differs by index\n", i), std::abort();
}

}  // namespace logscope_fuzz
