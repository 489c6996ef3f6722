// The bag model's own methods (model.h).
#include "rosbag/model.h"

namespace logscope::rosbag {

Format format_of(const Detection& detection) {
  if (detection.family != "rosbag") return Format::Unknown;
  if (detection.version == "2.0") return Format::RosbagV20;
  if (detection.version == "1.2") return Format::RosbagV12;
  if (detection.version == "1.1") return Format::RosbagV11;
  return Format::Unknown;
}


size_t Bag::add_connection(Connection connection) {
  auto it = by_id.find(connection.id);
  if (it != by_id.end()) return it->second;
  by_id.emplace(connection.id, connections.size());
  connections.push_back(std::move(connection));
  return connections.size() - 1;
}

uint64_t Bag::message_count() const {
  if (!messages.empty() || format != Format::RosbagV20) return messages.size();
  uint64_t n = 0;
  for (const Chunk& c : chunks) n += c.message_count();
  return n;
}

}  // namespace logscope::rosbag
