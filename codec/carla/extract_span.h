// The pieces of CARLA extract (extract.cpp) that work packet by packet: the actors' lives up to
// the cut (ActorLives), the actors kept (ActorSelection), and the span's packets written out
// renumbered, filtered, with the first frame re-creating the actors alive at the cut (SpanWriter).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "carla/model.h"
#include "carla/walker.h"
#include "core/output_sink.h"

namespace logscope::carla {

// A record's bytes: in the payload being copied, or in a kept copy.
struct Slice {
  const uint8_t* data;
  size_t size;
};

// Packets out to the sink in pieces of about 1 MB.
class PacketOut {
 public:
  explicit PacketOut(OutputSink& sink) : sink_(sink) {}
  void bytes(const void* data, size_t size);
  void header(uint8_t id, uint32_t size);
  void packet(uint8_t id, const uint8_t* payload, uint32_t size);
  // "u16 total" + records, in as many packets as the count and size allow (one, even with none).
  void records(uint8_t id, const std::vector<Slice>& records);
  bool flush();  // false once a write failed
  bool ok() const { return ok_; }

 private:
  OutputSink& sink_;
  std::vector<uint8_t> buffer_;
  bool ok_ = true;
};

// The actors a record names: one, or two for a collision (kNoActor for a side that is none).
struct RecordActors {
  uint32_t first = kNoActor, second = kNoActor;
};

// The actors alive at a point of the log, as the packets before it tell: each one's creation
// record and the last spawn-time records that name it (parent, box, trigger volume, physics,
// traffic light times), all as the source's bytes.
class ActorLives {
 public:
  struct Life {
    uint64_t order = 0;                               // creation order, for re-creating them alike
    std::map<uint8_t, std::vector<uint8_t>> records;  // packet id -> the record (EventAdd always)
  };
  explicit ActorLives(const Variant& variant) : variant_(variant) {}

  static bool wants(uint8_t id);  // the packets packet() needs to see
  void packet(const PacketRef& packet, const uint8_t* payload);

  const std::map<uint32_t, Life>& alive() const { return alive_; }
  std::vector<std::pair<uint32_t, const Life*>> in_order() const;  // by creation
  // The parent an alive actor's last EventParent record names.
  static bool parent_of(const Life& life, uint32_t* parent);

 private:
  Variant variant_;
  std::map<uint32_t, Life> alive_;
  uint64_t next_order_ = 0;
  std::vector<RecordActors> actors_;
};

// With --actors: the chosen actors and, transitively, the parents they are attached to (so an
// attachment in the cut names an actor the cut has). Without: everyone.
class ActorSelection {
 public:
  bool all() const { return all_; }
  bool keeps(uint32_t id) const { return all_ || id == kNoActor || kept_.count(id) > 0; }
  const std::set<uint32_t>& kept() const { return kept_; }
  void choose(const std::vector<uint32_t>& actors);
  // Adds the parents of kept actors over these (child, parent) links until none is missing.
  void close_over(const std::set<std::pair<uint32_t, uint32_t>>& links);

 private:
  bool all_ = true;
  std::set<uint32_t> kept_;
};

// What extract says it kept and dropped beyond the frames.
struct CutCounts {
  uint64_t frames = 0, packets_outside = 0, frame_ends_added = 0, too_large = 0;
  uint64_t recreated = 0, parents_recreated = 0, dangling_parents = 0, spawn_records = 0;
  std::map<std::string, uint64_t> records_dropped;  // by packet kind
  std::map<std::string, uint64_t> packets_unsplit;  // dropped whole: their records cannot be told apart
  uint64_t mixed_collisions = 0;                    // a kept actor with a dropped one
};

// The span's packets, in file order: frames renumbered from 1 at elapsed 0 (the last with
// duration -1), records filtered by actor, the first frame given the actors alive at the cut.
class SpanWriter {
 public:
  // Frames [first, last] of the scan's index.
  SpanWriter(PacketOut& out, const ScanResult& scan, size_t first, size_t last, const ActorSelection& selection, CutCounts& counts)
      : out_(out), variant_(scan.variant.variant), first_(first), last_(last), frame_(first),
        at_(scan.frames.begin() + static_cast<std::ptrdiff_t>(first)), first_elapsed_(first < scan.frames.size() ? scan.frames[first].elapsed : 0),
        selection_(selection), counts_(counts) {}

  // The records the first frame gets, per packet id: the kept actors alive at the cut, in creation
  // order. `lives` must outlive the writer (its records are written from where they are kept).
  void recreate(const ActorLives& lives);
  // A packet of the span; `payload` is null when it is too large to hold.
  void packet(const PacketRef& packet, const uint8_t* payload);
  bool finished() const { return frame_ > last_; }

 private:
  struct Pending {
    uint8_t id;
    int rank;
    std::vector<Slice> records;
  };
  void frame_start(const FrameEntry& frame);
  void flush_pending_before(int rank);
  void copy(const PacketRef& packet, const uint8_t* payload);

  PacketOut& out_;
  Variant variant_;
  size_t first_, last_, frame_;
  FrameList::const_iterator at_;  // at frame_: stepping it decodes each frame once
  double first_elapsed_;
  const ActorSelection& selection_;
  CutCounts& counts_;
  std::vector<Pending> pending_;
  std::vector<RecordActors> actors_;
};

}  // namespace logscope::carla
