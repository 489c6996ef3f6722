// MappedByteSource: a local file mapped read-only into memory, so whole-file passes read it in
// place (mapped_data()) and no byte is copied between the page cache and the codec.
//
// A mapped file that shrinks while it is read would kill the process with SIGBUS on the first
// page past its new end. A SIGBUS handler (installed with the first mapping) catches faults inside
// a live mapping, maps zero pages over the rest of it so the faulting read goes on, and marks the
// source: shrank() turns true, read() returns 0 from then on, and the caller must report the file
// as changed while it was read (the results are not trustworthy). Faults anywhere else go to the
// handler that was there before (or the default: the process dies, as it would have).
// Not available in WebAssembly (open() then returns null with a reason).
//
// Measured (docs/benchmarks.md, "Reading: pread, not mmap"): on the project's VMs a page fault on
// a mapped file costs more than copying the page, so a pass that touches most of a file is slower
// mapped than with pread into a reused window; the CLI therefore reads with pread. The rosbag
// pipeline and SequentialReader read a mapped source in place when they are given one.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "core/byte_source.h"

namespace logscope {

class MappedByteSource : public ByteSource {
 public:
  // Null, with `error`, when the path is not a regular non-empty file that can be mapped: the
  // caller then reads it with FileByteSource instead (pipes, devices, empty files).
  static std::unique_ptr<MappedByteSource> open(const std::string& path, std::string* error);
  ~MappedByteSource() override;
  MappedByteSource(const MappedByteSource&) = delete;
  MappedByteSource& operator=(const MappedByteSource&) = delete;

  uint64_t size() const override { return size_; }
  size_t read(uint64_t offset, void* destination, size_t length) override;
  const uint8_t* mapped_data() const override { return data_; }

  // True once a page of the file could not be read (it shrank after it was mapped, or an I/O
  // error): bytes read from there on are zeros, not the file's.
  bool shrank() const { return shrank_.load(std::memory_order_relaxed); }
  // shrank() of any mapped source so far, for the CLI's exit status.
  static bool any_unreadable();

 private:
  MappedByteSource(const uint8_t* data, uint64_t size);
  const uint8_t* data_;
  uint64_t size_;
  std::atomic<bool> shrank_{false};
  int slot_ = -1;  // in the SIGBUS handler's table
};

}  // namespace logscope
