#include "rosbag/extract.h"

#include <algorithm>
#include <map>
#include <set>

#include "rosbag/extract_v1.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "rosbag/writer.h"

namespace logscope::rosbag {
namespace {

std::string at(uint64_t offset) { return " (byte " + std::to_string(offset) + ")"; }

uint64_t bag_start_ns(const Bag& bag) {
  uint64_t start = UINT64_MAX;
  for (const Chunk& c : bag.chunks)
    if (c.message_count()) start = std::min(start, c.start.ns());
  return start == UINT64_MAX ? 0 : start;
}

std::string input_compression(ByteSource& source, Bag* bag) {
  for (size_t i = 0; i < bag->chunks.size(); ++i)
    if (read_chunk_header(source, bag, i) && !bag->chunks[i].compression.empty()) return bag->chunks[i].compression;
  return "none";
}

bool writable_compression(const std::string& compression, std::string* error) {
  if (compression == "none" || compression == "lz4" || compression == "bz2") return true;
  *error = "compression \"" + compression + "\" cannot be written (none, lz4 or bz2)";
  return false;
}

}  // namespace

ExtractResult extract_bag(ByteSource& source, Format format, OutputSink& out, const BagExtractOptions& options,
                          const ProgressFn& progress) {
  ExtractResult result;
  if (!out.can_patch()) {
    result.error = "the output must be seekable: the bag header's index position is written last";
    return result;
  }
  if (format == Format::RosbagV12 || format == Format::RosbagV11) {
    WriterOptions writer_options;
    writer_options.version = 200;
    writer_options.compression = options.compression.empty() ? "none" : options.compression;
    writer_options.chunk_threshold = options.chunk_threshold;
    if (!writable_compression(writer_options.compression, &result.error)) return result;
    return extract_v1(source, format, out, options, writer_options, progress);
  }
  Bag bag;
  open_bag(source, format, &bag, nullptr);
  if (bag.cancelled) {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  }
  if (!bag.has_header) {
    result.error = "no bag header could be read; nothing to recover";
    return result;
  }
  if (!bag.encryptor.empty()) {
    result.error = "the bag is encrypted (" + bag.encryptor + "); its messages cannot be read";
    return result;
  }

  WriterOptions writer_options;
  writer_options.version = 200;
  writer_options.compression = options.compression.empty() ? input_compression(source, &bag) : options.compression;
  if (!writable_compression(writer_options.compression, &result.error)) return result;
  writer_options.chunk_threshold = options.chunk_threshold;

  IterateOptions iterate;
  std::set<std::string> wanted(options.topics.begin(), options.topics.end()), found;
  for (const Connection& c : bag.connections) {
    if (wanted.empty() || wanted.count(c.topic)) {
      iterate.connections.push_back(c.id);
      found.insert(c.topic);
    }
  }
  for (const std::string& topic : wanted) {
    if (!found.count(topic)) {
      std::string known;
      for (const Connection& c : bag.connections) known += (known.empty() ? "" : ", ") + c.topic;
      result.error = "the bag has no topic \"" + topic + "\" (topics: " + (known.empty() ? "none" : known) + ")";
      return result;
    }
  }
  uint64_t start = bag_start_ns(bag);
  iterate.start_ns = options.from.resolve(start, 0);
  iterate.end_ns = options.to.resolve(start, UINT64_MAX);
  if (iterate.connections.empty()) iterate.connections.push_back(UINT32_MAX);  // no connection: nothing matches

  OutputSinkAdapter sink(out);
  BagWriter writer(sink, writer_options);
  std::map<uint32_t, uint32_t> out_id;                // input connection -> output connection
  std::map<std::string, uint64_t> per_topic;
  uint64_t no_connection = 0;
  bool write_failed = false;
  std::vector<Problem> problems;
  IterateResult iterated = for_each_message(
      source, bag, iterate,
      [&](const MessageView& m) {
        if (!m.connection || !m.connection->has_connection_header) {
          ++no_connection;
          return true;
        }
        auto it = out_id.find(m.conn);
        if (it == out_id.end()) {
          const Connection& c = *m.connection;
          it = out_id.emplace(m.conn, writer.add_connection(c.topic, c.type, c.md5, c.definition, c.callerid, c.latching)).first;
        }
        if (!writer.write(it->second, m.time, m.data)) {
          write_failed = true;
          return false;
        }
        ++per_topic[m.connection->topic];
        return true;
      },
      &problems, progress);
  if (iterated.cancelled) {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  }
  if (write_failed || !writer.close()) {
    result.error = "writing the new bag failed: " + (out.error().empty() ? writer.error() : out.error());
    return result;
  }

  // The account: what came from where, and what is not in the new bag.
  result.kept.push_back(std::to_string(writer.messages_written()) + " messages on " + std::to_string(per_topic.size()) +
                        " topic" + (per_topic.size() == 1 ? "" : "s") + ", written as " +
                        (writer_options.compression == "none" ? std::string("uncompressed") : writer_options.compression) +
                        " chunks with a complete index");
  for (const auto& [topic, count] : per_topic) result.kept.push_back("  " + topic + ": " + std::to_string(count));
  if (bag.recovery.performed) {
    result.kept.push_back("input read by scanning (" + bag.recovery.message + ")");
    if (bag.recovery.ends_at < bag.file_size)
      result.dropped.push_back(std::to_string(bag.file_size - bag.recovery.ends_at) + " bytes from byte " +
                               std::to_string(bag.recovery.ends_at) + " to the end: " + bag.recovery.reason);
  }
  if (no_connection)
    result.dropped.push_back(std::to_string(no_connection) + " messages whose connection record is missing or unreadable");
  for (const Problem& p : problems) result.dropped.push_back(p.message + at(p.offset) + " [" + p.code + "]");
  result.bytes_written = out.written();
  result.ok = true;
  return result;
}

}  // namespace logscope::rosbag
