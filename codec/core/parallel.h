// Runs independent work items on every core natively; serially in a wasm build without threads
// (the browser gets its parallelism from several workers instead).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace logscope {

inline unsigned worker_count() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

// Calls fn(i) for i in [0, count), spread over up to `threads` threads (0 = all cores).
// Items are taken in order, so a caller that consumes results in order waits little.
inline void parallel_for(size_t count, const std::function<void(size_t)>& fn, unsigned threads = 0) {
  unsigned n = threads ? threads : worker_count();
  n = static_cast<unsigned>(std::min<size_t>(n, count));
  if (n <= 1) {
    for (size_t i = 0; i < count; ++i) fn(i);
    return;
  }
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  for (size_t i = 0; i < count; ++i) fn(i);
#else
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < count;) fn(i);
    });
  for (auto& thread : pool) thread.join();
#endif
}

}  // namespace logscope
