#include "rosbag2/convert.h"

#include <map>

#include "mcap/writer.h"
#include "rosbag2/inspector_impl.h"

namespace logscope::rosbag2 {
namespace {

constexpr size_t kMaxProblems = 100;
constexpr size_t kMaxChannels = 65535;  // MCAP's channel ids are 16 bits

}  // namespace

ConvertResult convert_to_mcap(FormatInspector& inspector, const ConvertOptions& options, OutputSink& out, const ProgressFn& progress) {
  ConvertResult result;
  // The one place convert reaches the class (as bag_of() does for tests).
  auto* bag_inspector = dynamic_cast<Rosbag2Inspector*>(&inspector);
  if (!bag_inspector) {
    result.error = "not a rosbag2 bag";
    return result;
  }
  if (options.compression != "" && options.compression != "zstd" && options.compression != "lz4") {
    result.error = "compression is zstd, lz4 or none";
    return result;
  }
  Bag& bag = bag_inspector->bag();
  TopicDecoders& decoders = bag_inspector->decoders();
  mcap::WriterOptions wo;
  wo.profile = "ros2";
  wo.library = "logscope convert (rosbag2)";
  wo.compression = options.compression;
  wo.chunk_size = options.chunk_size;
  mcap::Writer writer(wo, &out);
  writer.keep_ledger(false);

  std::map<std::pair<std::string, std::string>, uint16_t> channels;  // (topic, type) -> channel
  std::map<std::string, uint16_t> schemas;                           // type -> schema (0: none)
  std::map<uint16_t, uint32_t> sequences;
  auto problem = [&](Problem p) {
    if (result.problems.size() < kMaxProblems) result.problems.push_back(std::move(p));
  };
  auto channel_of = [&](const Topic& t, uint16_t* id) {
    auto key = std::make_pair(t.name, t.type);
    auto it = channels.find(key);
    if (it != channels.end()) return *id = it->second, true;
    if (channels.size() >= kMaxChannels) return false;
    auto schema = schemas.find(t.type);
    if (schema == schemas.end()) {
      const TopicDecoder& d = decoders.get(t);
      uint16_t sid = 0;
      if (d.schema) {
        sid = writer.add_schema(t.type, d.encoding, d.text);
        ++result.schemas;
      }
      schema = schemas.emplace(t.type, sid).first;
    }
    if (schema->second == 0) result.schemaless.push_back(t.name + " (" + t.type + "): " + decoders.get(t).note);
    mcap::StringPairs metadata{{"offered_qos_profiles", t.offered_qos_profiles}};
    if (!t.type_description_hash.empty()) metadata.push_back({"type_description_hash", t.type_description_hash});
    *id = writer.add_channel(schema->second, t.name, "cdr", std::move(metadata));
    channels.emplace(key, *id);
    ++result.channels;
    return true;
  };

  uint64_t total = bag_totals(bag).messages, seen = 0;
  ProgressTicker ticker(progress, total, 256);
  std::string walk_error;
  std::string bytes;
  for_each_bag_message(bag, [&](const BagMessage& m) {
    if (!ticker.update(++seen)) return !(result.cancelled = true);
    std::string where = bag.files[m.file].name + " row " + std::to_string(m.stored.row_id);
    if (!m.topic) {
      ++result.skipped;
      problem(Problem{Severity::Warning, 0, "rosbag2.messages.orphan_topic",
                      where + " is left out: its topic_id " + std::to_string(m.stored.topic_id) + " has no row in topics"});
      return true;
    }
    if (!m.decode_error.empty()) {
      ++result.skipped;
      problem(Problem{Severity::Warning, 0, "rosbag2.messages.zstd_damaged", where + " is left out: " + m.decode_error});
      return true;
    }
    uint16_t id = 0;
    if (!channel_of(*m.topic, &id)) {
      ++result.skipped;
      problem(Problem{Severity::Warning, 0, "rosbag2.convert.channels", where + " is left out: more than 65535 channels"});
      return true;
    }
    uint64_t t = m.stored.timestamp_ns < 0 ? 0 : static_cast<uint64_t>(m.stored.timestamp_ns);
    bytes.assign(reinterpret_cast<const char*>(m.data), m.size);
    writer.write_message(id, ++sequences[id], t, t, bytes);
    ++result.messages;
    return writer.ok();
  }, &walk_error);
  if (!walk_error.empty())
    result.problems.push_back(Problem{Severity::Error, 0, "rosbag2.messages.unreadable", walk_error + " (the messages before it are written)"});
  writer.finish();
  if (!writer.ok()) {
    result.error = "the output could not be written: " + out.error();
    return result;
  }
  result.ok = true;
  return result;
}

}  // namespace logscope::rosbag2
