#include "carla/writer.h"

#include <cstring>

namespace logscope::carla {

void LogWriter::header(int64_t date, const std::string& map, uint16_t version) {
  PayloadWriter w(out_, variant_);
  w.u16(version);
  w.str("CARLA_RECORDER");
  w.put<int64_t>(date);
  w.str(map);
}

size_t LogWriter::begin_packet(uint8_t id) {
  PayloadWriter w(out_, variant_);
  w.u8(id);
  size_t at = out_.size();
  w.u32(0);
  return at;
}

void LogWriter::end_packet(size_t size_at) {
  uint32_t size = static_cast<uint32_t>(out_.size() - size_at - 4);
  std::memcpy(out_.data() + size_at, &size, 4);
}

uint8_t LogWriter::id_of(const PacketType& type) const {
  for (IdOrder order : {variant_.order, IdOrder::Release0916, IdOrder::DevDoors, IdOrder::Release0915})
    if (type.id(order) != kNoId) return type.id(order);
  return kNoId;
}

void LogWriter::raw_packet(uint8_t id, const std::vector<uint8_t>& payload) {
  size_t at = begin_packet(id);
  out_.insert(out_.end(), payload.begin(), payload.end());
  end_packet(at);
}

}  // namespace logscope::carla
