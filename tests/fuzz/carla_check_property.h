// The CARLA check in one read (carla/doctor.h run_check, scan_and_check_feed) under the fuzzer:
// with no scan kept, the check pulled, and pushed in pieces, reports as the scan and then the
// second pass do; a difference aborts. fuzz_carla.cpp runs it on every input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "carla/doctor.h"
#include "carla/inspector.h"
#include "carla/reader.h"

namespace logscope_fuzz {

inline void check_carla_one_read(const uint8_t* data, size_t size) {
  using namespace logscope;
  MemoryByteSource source(data, size);
  std::string two_passes = carla::run_doctor(source, carla::scan_log(source, nullptr), nullptr).to_json().dump();
  std::string pulled = carla::open_inspector(source)->check(nullptr).to_json().dump();
  auto inspector = carla::open_inspector(source);
  std::string pushed = two_passes;  // without a CARLA header there is no feed
  if (std::unique_ptr<ByteFeed> feed = inspector->check_feed()) {
    // Pieces of a few sizes: the walk's state crosses their edges.
    size_t piece = 1 + (size % 251);
    for (uint64_t at = feed->begin(); at < feed->end(); at += piece) feed->update(data + at, static_cast<size_t>(std::min<uint64_t>(piece, feed->end() - at)));
    pushed = feed->finish("", false).dump();
    if (pushed.find("\"status\":\"incomplete\"") != std::string::npos) pushed = inspector->check(nullptr).to_json().dump();
  }
  if (pulled == two_passes && pushed == two_passes) return;
  std::fprintf(stderr, "the one-read CARLA check differs from two passes\n  two passes: %.400s\n  pulled: %.400s\n  pushed: %.400s\n",
               two_passes.c_str(), pulled.c_str(), pushed.c_str());
  std::abort();
}

}  // namespace logscope_fuzz
