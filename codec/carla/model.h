// What the reader knows about a CARLA log after its forward scan (reader.h): header, frame index,
// packet statistics, the layout variant and the framing findings of the doctor. Memory is the
// frame index, packed (frame_list.h: ~3-6 bytes per frame, ~150 MB for a 100 GB log).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "carla/format.h"
#include "carla/frame_list.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "core/report.h"

namespace logscope::carla {

struct LogHeader {
  uint16_t version = 0;
  std::string magic;
  int64_t date = 0;  // Unix seconds
  std::string map;
  uint64_t size = 0;  // bytes, where the first packet starts
};

// Why reading stopped before the end of the file, when it did.
struct Recovery {
  bool damaged = false;
  std::string reason;   // stable: "cut_in_header", "cut_in_packet_header", "cut_in_payload", "frame_without_end", "cancelled"
  uint64_t ends_at = 0; // where the readable data ends (the cut)
  uint64_t incomplete_offset = 0;  // where the dropped partial frame (or packet) starts
  uint64_t incomplete_frame_id = 0;  // 0 when no frame had started
  std::string message;
};

struct VariantDetection {
  Variant variant;
  bool decisive_vectors = false, decisive_wheels = false, decisive_order = false;
  uint64_t misfits = 0;  // packets whose size disagrees with the chosen layout
  Json to_json() const;
  Json json;  // evidence, filled by the scan
};

// The packets with event records (what `info` lists per frame), kept by the scan so that the
// summary does not read them again: in a browser each of those reads costs about a millisecond.
// Dropped (complete = false) when they would take more than kBudget bytes; they are read then.
struct EventPackets {
  static constexpr size_t kBudget = 8u << 20;
  struct Entry {
    uint64_t offset;  // of the packet header
    uint8_t id;
    uint32_t size;
    size_t at;  // where its payload starts in `bytes`
  };
  bool complete = true;
  std::vector<Entry> packets;  // in file order
  std::vector<uint8_t> bytes;  // the payloads back to back
};

struct ScanResult {
  bool header_ok = false;
  LogHeader header;
  FrameList frames;  // FrameEntry values, packed
  uint64_t data_end = 0;  // end of the last complete frame (or of the header)
  std::array<uint64_t, 256> packet_counts{};
  std::array<uint64_t, 256> packet_bytes{};
  uint64_t packets_outside_frames = 0;
  uint64_t non_actor_collisions = 0;
  bool cancelled = false;
  Recovery recovery;
  VariantDetection variant;
  std::vector<Problem> problems;
  EventPackets events;
};

}  // namespace logscope::carla
