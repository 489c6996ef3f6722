// Packet payload decoding for every id, under a layout variant, driven by the packet table. Every
// count is checked against the bytes of the payload, so a lying "total" can never allocate or read
// past the packet.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "carla/packet_table.h"
#include "carla/packets.h"
#include "core/json.h"

namespace logscope::carla {

template <typename R>
struct RecordRange {
  const R* first = nullptr;
  const R* last = nullptr;
  const R* begin() const { return first; }
  const R* end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
};

// One packet's payload, decoded into the record struct of its table entry.
struct DecodedPacket {
  uint8_t id = 0;
  const PacketType* type = nullptr;  // null for user packets (>= 100) and ids the variant does not know
  bool ok = false;            // the payload parsed and its size matches the layout exactly
  std::string error;          // why not, when !ok
  uint32_t total = 0;         // the record count the packet declares (0 for packets without one)
  std::vector<uint32_t> record_offsets;  // payload-relative start of each record (for spans/paging)
  RecordList list;  // the records read (one for a single payload); empty when none were

  bool is(const PacketType& kind) const { return type == &kind; }
  // The records when the packet is of that kind, else none: `for (auto& r : p.records(packets::Position))`.
  template <typename R>
  RecordRange<R> records(const RecordPacket<R>& kind) const {
    if (!is(kind) || !list) return {};
    const std::vector<R>& items = list.items<R>();
    return {items.data(), items.data() + items.size()};
  }
  const char* kind_name() const;  // the entry's name, or "User" / "Unknown"
};

// Decodes a payload. Returns out->ok. User and unknown ids are "ok" with no content.
bool decode_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, DecodedPacket* out);

// The doctor's check hooks (packet_table.h) on each record decode_packet would keep, read one at
// a time without keeping them. Nothing for ids without hooks, and for undecoded (UE5-unknown) layouts.
void check_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, ActorCheck& check);

// Whether a payload's declared size fits the layout of its id under a variant, without keeping
// the records (fast path for fixed-size records). `why` gets a sentence when it does not fit.
bool layout_fits(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, std::string* why);

// JSON of a decoded packet, records [first, first+count) only (the UI pages big packets); a
// single payload's fields are its "record".
Json packet_to_json(const DecodedPacket& packet, size_t first = 0, size_t count = SIZE_MAX);
Json record_to_json(const DecodedPacket& packet, size_t index);
// The records of a record-carrying packet (0 for single payloads, user and unknown packets).
size_t record_count(const DecodedPacket& packet);

}  // namespace logscope::carla
