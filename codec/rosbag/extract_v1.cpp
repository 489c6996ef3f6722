// Extract and repair of V1.2 and V1.1 bags: the records are walked once in file order through a
// sequential read (reader_v1.cpp's walk), each complete message goes through a reorder window into
// the V2.0 writer. Memory: the window, one chunk and the connections; never a list of messages.
#include "rosbag/extract_v1.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/sequential.h"
#include "rosbag/v1_walk.h"

namespace logscope::rosbag {
namespace {

std::string at(uint64_t offset) { return " (byte " + std::to_string(offset) + ")"; }

// V2.0 keeps callerid and latching in the connection record, V1.2 in each message record: a
// message goes to the connection of its topic, type, md5sum, callerid and latching.
struct ConnectionKey {
  std::string topic, type, md5, callerid;
  bool latching = false;
  bool operator<(const ConnectionKey& o) const {
    return std::tie(topic, type, md5, callerid, latching) < std::tie(o.topic, o.type, o.md5, o.callerid, o.latching);
  }
};

// A topic's MSG_DEF record (the first one; a recorder writes one per topic).
struct TopicDefinition {
  std::string type, md5, text;
};

// Messages held back until `budget` bytes are waiting, then let go earliest first: an input in
// nearly time order (as a recorder writes it) comes out in time order, ties in file order.
class ReorderWindow {
 public:
  struct Held {
    uint64_t time_ns;
    uint64_t sequence;
    uint32_t connection;
    std::string data;
  };
  explicit ReorderWindow(size_t budget) : budget_(budget) {}
  void push(uint64_t time_ns, uint32_t connection, std::string_view data) {
    held_.push_back(Held{time_ns, sequence_++, connection, std::string(data)});
    bytes_ += data.size() + kPerMessage;
    std::push_heap(held_.begin(), held_.end(), later);
  }
  bool full() const { return bytes_ > budget_ && !held_.empty(); }
  bool empty() const { return held_.empty(); }
  Held pop() {
    std::pop_heap(held_.begin(), held_.end(), later);
    Held first = std::move(held_.back());
    held_.pop_back();
    bytes_ -= first.data.size() + kPerMessage;
    return first;
  }

 private:
  static constexpr size_t kPerMessage = 64;  // what holding one costs besides its bytes
  static bool later(const Held& a, const Held& b) {
    return a.time_ns != b.time_ns ? a.time_ns > b.time_ns : a.sequence > b.sequence;
  }
  size_t budget_;
  size_t bytes_ = 0;
  uint64_t sequence_ = 0;
  std::vector<Held> held_;
};

bool relative(const TimeBound& bound) { return bound.set && bound.relative; }

}  // namespace

ExtractResult extract_v1(ByteSource& source, Format format, OutputSink& out, const BagExtractOptions& options,
                         const WriterOptions& writer_options, const ProgressFn& progress) {
  ExtractResult result;
  bool v12 = format == Format::RosbagV12;
  uint64_t size = source.size();
  V12Start start;
  uint64_t first = kV1VersionLineLength;
  if (v12) {
    start = read_v12_start(source);
    first = start.first_record;
  }
  auto walk = [&](ByteSource& from, const V1RecordFn& fn) {
    return v12 ? walk_v12_records(from, first, fn, progress) : walk_v11_messages(from, first, fn, progress);
  };
  auto cancelled = [&] {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  };

  // Relative bounds count from the first timestamp, anywhere in the file: a first pass reads the
  // record headers for it.
  uint64_t start_ns = 0;
  if (relative(options.from) || relative(options.to)) {
    uint64_t earliest = UINT64_MAX;
    V1WalkEnd end = walk(source, [&](const V1Record& r) {
      if (r.op == kOpMessageData && r.has_time) earliest = std::min(earliest, r.time.ns());
      return true;
    });
    if (end.cancelled) return cancelled();
    start_ns = earliest == UINT64_MAX ? 0 : earliest;
  }
  uint64_t from_ns = options.from.resolve(start_ns, 0), to_ns = options.to.resolve(start_ns, UINT64_MAX);
  std::set<std::string> wanted(options.topics.begin(), options.topics.end()), seen;

  OutputSinkAdapter sink(out);
  BagWriter writer(sink, writer_options);
  std::map<std::string, TopicDefinition> definitions;
  std::map<ConnectionKey, uint32_t> connections;
  std::vector<std::string> connection_topic;  // by output connection id
  std::map<std::string, uint64_t> per_topic;
  ReorderWindow window(options.reorder_window);
  uint64_t records = 0, complete_messages = 0, last_written_ns = 0, out_of_order = 0;
  uint64_t no_time = 0, first_no_time = 0, other = 0, first_other = 0;
  bool write_failed = false;
  std::string read_error;
  uint64_t read_error_at = 0;

  auto emit = [&](ReorderWindow::Held held) {
    if (held.time_ns < last_written_ns) ++out_of_order;
    last_written_ns = std::max(last_written_ns, held.time_ns);
    if (!writer.write(held.connection, Time::from_ns(held.time_ns), held.data)) return false;
    ++per_topic[connection_topic[held.connection]];
    return true;
  };
  auto connection_for = [&](const V1Record& r) {
    ConnectionKey key{std::string(r.topic), std::string(r.type), std::string(r.md5), std::string(r.callerid), r.latching};
    auto found = connections.find(key);
    if (found != connections.end()) return found->second;
    // The topic's definition when the md5sums agree, else one written for the same type elsewhere.
    std::string text;
    auto own = definitions.find(key.topic);
    if (own != definitions.end() && (key.md5.empty() || own->second.md5 == key.md5)) {
      if (key.type.empty()) key.type = own->second.type;
      if (key.md5.empty()) key.md5 = own->second.md5;
      text = own->second.text;
    } else {
      for (const auto& [topic, d] : definitions)
        if (d.type == key.type && d.md5 == key.md5) {
          text = d.text;
          break;
        }
    }
    uint32_t id = writer.add_connection(key.topic, key.type, key.md5, text, key.callerid, key.latching);
    connection_topic.push_back(key.topic);
    connections.emplace(std::move(key), id);
    return id;
  };

  SequentialReader reader(source, first, size);
  SequentialByteSource pass(reader, source);
  V1WalkEnd end = walk(pass, [&](const V1Record& r) {
    ++records;
    if (r.op == kOpMessageDefinition) {
      seen.emplace(r.topic);
      definitions.emplace(std::string(r.topic), TopicDefinition{std::string(r.type), std::string(r.md5), std::string(r.definition)});
      return true;
    }
    if (r.op != kOpMessageData) {
      if (r.op != kOpIndexData && r.op != kOpBagHeader && !other++) first_other = r.offset;
      return true;
    }
    seen.emplace(r.topic);
    if (!r.has_time) {
      if (!no_time++) first_no_time = r.offset;
      return true;
    }
    ++complete_messages;
    uint64_t t = r.time.ns();
    if ((!wanted.empty() && !wanted.count(std::string(r.topic))) || t < from_ns || t > to_ns) return true;
    const uint8_t* data = reader.view(r.data_offset, r.data_len);
    if (!data) {
      read_error = "the message" + at(r.offset) + " could not be read: " + reader.error();
      read_error_at = r.offset;
      return false;
    }
    window.push(t, connection_for(r), std::string_view(reinterpret_cast<const char*>(data), r.data_len));
    while (window.full())
      if (!emit(window.pop())) {
        write_failed = true;
        return false;
      }
    return true;
  });
  if (end.cancelled) return cancelled();
  if (!read_error.empty()) {
    end.ends_at = read_error_at;
    end.reason = read_error;
    --complete_messages;
  }
  while (!write_failed && !window.empty())
    if (!emit(window.pop())) write_failed = true;

  if (records == 0 && !start.has_header && !end.reason.empty()) {
    result.error = "no complete record after the version line (" + end.reason + "); nothing to recover";
    return result;
  }
  for (const std::string& topic : wanted) {
    if (seen.count(topic)) continue;
    std::string known;
    for (const std::string& t : seen) known += (known.empty() ? "" : ", ") + t;
    result.error = "the bag has no topic \"" + topic + "\" (topics: " + (known.empty() ? "none" : known) + ")";
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
  result.kept.push_back("input read record by record in file order (V1." + std::string(v12 ? "2" : "1") + "): " +
                        std::to_string(complete_messages) + " complete messages" +
                        (end.reason.empty() ? "" : "; reading stopped at byte " + std::to_string(end.ends_at)));
  if (out_of_order)
    result.kept.push_back(std::to_string(out_of_order) + " messages lay further out of time order in the input than the " +
                          std::to_string(options.reorder_window >> 20) + " MB reorder window; their chunks overlap in time");
  if (!end.reason.empty()) {
    bool in_index = v12 && start.index_pos >= first && end.ends_at >= start.index_pos;
    result.dropped.push_back(std::to_string(size - end.ends_at) + " bytes from byte " + std::to_string(end.ends_at) +
                             " to the end: " + end.reason +
                             (in_index ? " (inside the input's index from byte " + std::to_string(start.index_pos) +
                                             ", which the new index replaces)"
                                       : ""));
  }
  if (no_time)
    result.dropped.push_back(std::to_string(no_time) + " message records without sec and nsec (the first" + at(first_no_time) + ")");
  if (other)
    result.dropped.push_back(std::to_string(other) + " records that are neither messages nor definitions (the first" +
                             at(first_other) + ")");
  result.bytes_written = out.written();
  result.ok = true;
  return result;
}

}  // namespace logscope::rosbag
