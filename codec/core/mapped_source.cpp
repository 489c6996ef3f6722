#include "core/mapped_source.h"

#include <algorithm>
#include <cstring>

#ifndef __EMSCRIPTEN__
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#endif

namespace logscope {

#ifdef __EMSCRIPTEN__

std::unique_ptr<MappedByteSource> MappedByteSource::open(const std::string&, std::string* error) {
  if (error) *error = "memory-mapped files are not available in WebAssembly";
  return nullptr;
}
MappedByteSource::MappedByteSource(const uint8_t* data, uint64_t size) : data_(data), size_(size) {}
MappedByteSource::~MappedByteSource() = default;
size_t MappedByteSource::read(uint64_t, void*, size_t) { return 0; }
bool MappedByteSource::any_unreadable() { return false; }

#else

namespace {

// The live mappings, for the SIGBUS handler: plain atomics, no locks (it runs in signal context).
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<std::atomic<bool>*> flag{nullptr};
};
constexpr int kSlots = 64;
Slot g_slots[kSlots];
std::atomic<bool> g_any_unreadable{false};
struct sigaction g_previous;
std::once_flag g_installed;

void on_sigbus(int signal, siginfo_t* info, void* context) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    uintptr_t begin = slot.begin.load(), end = slot.end.load();
    if (!begin || address < begin || address >= end) continue;
    // A page of our mapping has no file behind it any more: put zero pages over the rest of the
    // mapping so the read that faulted (and every later one) sees zeros instead of dying.
    auto page_size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    uintptr_t page = address & ~(page_size - 1);
    void* replaced = mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (replaced == MAP_FAILED) break;
    if (std::atomic<bool>* flag = slot.flag.load()) flag->store(true);
    g_any_unreadable.store(true);
    return;
  }
  // Not ours: what would have happened without us.
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
    g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal);
  } else {
    // Returning re-runs the faulting access, which now gets the default action.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGBUS, &fallback, nullptr);
  }
}

void install_handler() {
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &g_previous);
}

int register_mapping(const uint8_t* data, uint64_t length, std::atomic<bool>* flag) {
  auto begin = reinterpret_cast<uintptr_t>(data);
  for (int i = 0; i < kSlots; ++i) {
    uintptr_t expected = 0;
    // Claim the slot with `end` first, so the handler never sees a begin without its end.
    if (!g_slots[i].end.compare_exchange_strong(expected, begin + length)) continue;
    g_slots[i].flag.store(flag);
    g_slots[i].begin.store(begin);
    return i;
  }
  return -1;
}

}  // namespace

std::unique_ptr<MappedByteSource> MappedByteSource::open(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return nullptr;
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0) {
    std::string why = S_ISDIR(info.st_mode) ? "is a directory" : "not a regular non-empty file";
    ::close(fd);
    return fail(why);
  }
  auto size = static_cast<uint64_t>(info.st_size);
  void* data = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  int map_errno = errno;
  ::close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) return fail(std::string("cannot map the file: ") + std::strerror(map_errno));
  std::call_once(g_installed, install_handler);
  std::unique_ptr<MappedByteSource> source(new MappedByteSource(static_cast<const uint8_t*>(data), size));
  auto page_size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  source->slot_ = register_mapping(source->data_, (size + page_size - 1) / page_size * page_size, &source->shrank_);
  if (source->slot_ < 0) return fail("too many files mapped at once");  // unguarded mappings are not handed out
  return source;
}

MappedByteSource::MappedByteSource(const uint8_t* data, uint64_t size) : data_(data), size_(size) {}

MappedByteSource::~MappedByteSource() {
  if (slot_ >= 0) {
    g_slots[slot_].begin.store(0);
    g_slots[slot_].flag.store(nullptr);
    g_slots[slot_].end.store(0);
  }
  munmap(const_cast<uint8_t*>(data_), static_cast<size_t>(size_));
}

size_t MappedByteSource::read(uint64_t offset, void* destination, size_t length) {
  if (offset >= size_ || length == 0 || shrank()) return 0;
  size_t n = static_cast<size_t>(std::min<uint64_t>(length, size_ - offset));
  std::memcpy(destination, data_ + offset, n);
  return shrank() ? 0 : n;  // the copy ran into the lost part: zeros, not the file
}

bool MappedByteSource::any_unreadable() { return g_any_unreadable.load(); }

#endif

}  // namespace logscope
