#include "carla/decode.h"

#include <algorithm>

namespace logscope::carla {
namespace {

std::string size_text(size_t size) { return std::to_string(size) + (size == 1 ? " byte" : " bytes"); }

std::string single_size_error(const PacketType& type, size_t size) {
  return std::string(type.name()) + " has a " + std::to_string(type.payload_bytes()) + "-byte payload, but this packet declares " + size_text(size);
}

std::string fixed_size_error(uint16_t total, size_t record, size_t size) {
  size_t expected = 2 + total * record;
  return std::to_string(total) + " records of " + std::to_string(record) + " bytes need a payload of " + size_text(expected) +
         ", but the packet declares " + size_text(size);
}

}  // namespace

const char* DecodedPacket::kind_name() const {
  if (type) return type->name();
  return id >= 100 ? "User" : "Unknown";
}

bool decode_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, DecodedPacket* out) {
  *out = DecodedPacket();
  out->id = id;
  out->type = packet_type(id, variant);
  const PacketType* type = out->type;
  if (!type) {
    out->ok = true;
    return true;
  }
  if (type->ue4_only() && variant.doubles) {
    out->error = "the UE5 " + std::string(type->name()) + " layout is not known; payload left undecoded";
    out->ok = true;
    return true;
  }
  out->list = type->new_list();
  PayloadReader r(data, size, variant);
  if (type->single()) {
    if (size != type->payload_bytes()) {
      out->list.resize(1);  // the fields read as zero
      out->error = single_size_error(*type, size);
      return false;
    }
    type->read_record(r, out->list);
    out->ok = true;
    return true;
  }
  Cursor& c = r.cursor();
  uint16_t total = c.u16();
  out->total = total;
  if (!c.ok()) {
    out->error = "the payload (" + size_text(size) + ") is too short for its 2-byte record count";
    return false;
  }
  size_t fixed = type->record_bytes(variant);
  if (fixed && 2 + total * fixed != size) out->error = fixed_size_error(total, fixed, size);  // decode what fits anyway
  for (uint32_t i = 0; i < total && c.ok() && c.remaining() > 0; ++i) {
    out->record_offsets.push_back(static_cast<uint32_t>(c.position()));
    type->read_record(r, out->list);
    if (!c.ok()) {  // keep only whole records
      out->record_offsets.pop_back();
      out->list.resize(out->record_offsets.size());
    }
  }
  size_t decoded = out->list.size();
  if (!c.ok() || decoded < total) {
    if (out->error.empty())
      out->error = "the payload (" + size_text(size) + ") ends inside record " + std::to_string(decoded + 1) + " of " + std::to_string(total);
    return false;
  }
  if (c.position() != size) {
    if (out->error.empty())
      out->error = std::to_string(size - c.position()) + " bytes are left over after record " + std::to_string(total) + " of " +
                   std::to_string(total) + " (payload " + size_text(size) + ")";
    return false;
  }
  if (!out->error.empty()) return false;
  out->ok = true;
  return true;
}

void check_packet(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, ActorCheck& check) {
  const PacketType* type = packet_type(id, variant);
  if (!type || !type->has_check() || (type->ue4_only() && variant.doubles)) return;
  // The records decode_packet keeps: a single payload of the wrong size reads as zeros; of a
  // list, the whole records before the first that does not fit.
  PayloadReader r(data, size, variant);
  if (type->single()) return type->check_records(size == type->payload_bytes() ? &r : nullptr, 1, check);
  uint16_t total = r.cursor().u16();
  type->check_records(&r, total, check);
}

bool layout_fits(uint8_t id, const uint8_t* data, size_t size, const Variant& variant, std::string* why) {
  const PacketType* type = packet_type(id, variant);
  if (!type) return true;
  if (type->ue4_only() && variant.doubles) return true;  // unknown layout: nothing to check
  if (type->single()) {
    if (size == type->payload_bytes()) return true;
    if (why) *why = single_size_error(*type, size);
    return false;
  }
  if (size_t fixed = type->record_bytes(variant)) {
    if (size < 2) {
      if (why) *why = "the payload (" + size_text(size) + ") is too short for its 2-byte record count";
      return false;
    }
    uint16_t total = static_cast<uint16_t>(data[0] | (data[1] << 8));
    if (2 + total * fixed == size) return true;
    if (why) *why = fixed_size_error(total, fixed, size);
    return false;
  }
  DecodedPacket packet;
  if (decode_packet(id, data, size, variant, &packet)) return true;
  if (why) *why = packet.error;
  return false;
}

size_t record_count(const DecodedPacket& p) { return p.type && !p.type->single() ? p.list.size() : 0; }

Json record_to_json(const DecodedPacket& p, size_t i) {
  Json j = Json::object();
  if (i < record_count(p)) p.type->record_json(j, p.list, i);
  return j;
}

Json packet_to_json(const DecodedPacket& p, size_t first, size_t count) {
  Json j = Json::object();
  j["id"] = p.id;
  j["kind"] = p.kind_name();
  j["layout_ok"] = p.ok;
  if (!p.error.empty()) j["error"] = p.error;
  if (!p.type) return j;
  if (p.type->single()) {  // its one record
    if (p.list.size()) j["record"] = record_to_json(p, 0);
    return j;
  }
  size_t n = record_count(p);
  j["total"] = p.total;
  j["first"] = std::min(first, n);
  Json records = Json::array();
  for (size_t i = first; i < n && i - first < count; ++i) records.push_back(record_to_json(p, i));
  j["records"] = std::move(records);
  return j;
}

}  // namespace logscope::carla
