// The doctor: every chunk decompressed and compared with its ChunkInfo and IndexData records,
// lz4 content checksums, connections, topics, overlap; V1.x index entries against the records.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "rosbag/inspector_impl.h"

namespace logscope::rosbag {
namespace {

std::string chunk_at(const Chunk& c) { return "chunk at byte " + std::to_string(c.pos); }

struct ChecksumTally {
  uint64_t checked = 0;
  uint64_t failed = 0;
  uint64_t lz4_chunks = 0;
  bool cancelled = false;
};

Json checksum_json(const ChecksumTally& t, const Bag& bag) {
  Json j = Json::object();
  if (t.cancelled) {
    j["status"] = "cancelled";
    j["message"] = "cancelled before every chunk was checked";
  } else if (!bag.encryptor.empty()) {
    j["status"] = "not_applicable";
    j["message"] = "the bag is encrypted; its lz4 checksums cannot be verified without the key";
  } else if (t.failed) {
    j["status"] = "mismatch";
    j["message"] = std::to_string(t.failed) + " of " + std::to_string(t.lz4_chunks) + " lz4 chunks fail their frame content checksum";
  } else if (t.checked) {
    j["status"] = "valid";
    j["message"] = "every lz4 chunk's frame content checksum (XXH32) matches (" + std::to_string(t.checked) + " chunks)";
  } else {
    j["status"] = "not_applicable";
    j["message"] = "ROS bags carry no file checksum; only lz4 chunks have frame checksums, and this bag has none";
  }
  j["chunks_checked"] = t.checked;
  return j;
}

}  // namespace

Json BagInspector::checksum(const ProgressFn& progress) {
  ChecksumTally tally;
  if (bag_.encryptor.empty())
    tally.cancelled = !for_each_chunk(source_, bag_, [&](LoadedChunk& loaded) {
      const Chunk& c = bag_.chunks[loaded.chunk_index];
      if (c.compression != "lz4") return;
      ++tally.lz4_chunks;
      if (loaded.status.checksum_verified) ++tally.checked;
      if (loaded.status.code == "rosbag.chunk.lz4_checksum") ++tally.failed, ++tally.checked;
    }, progress);
  return checksum_json(tally, bag_);
}

Report BagInspector::check(const ProgressFn& progress) {
  Report report = summary();
  auto add = [&](Severity s, uint64_t offset, std::string code, std::string message) {
    report.add_problem(s, offset, std::move(code), std::move(message));
  };
  ChecksumTally tally;
  std::set<uint32_t> decoded_once;
  auto try_decode = [&](const Connection* c, std::string_view data, uint64_t offset) {
    if (!c || !decoded_once.insert(c->id).second || c->definition.empty()) return;
    std::string error;
    decoder_.decode(c, data, &error);
    if (!error.empty())
      add(Severity::Warning, offset, "rosbag.message.undecodable",
          "the first message on " + c->topic + " (" + c->type + ") does not decode with its definition: " + error);
  };

  // Connections: definitions, and one topic with several types or md5s.
  std::map<std::string, std::set<std::pair<std::string, std::string>>> topic_types;
  for (const Connection& c : bag_.connections) {
    topic_types[c.topic].insert({c.type, c.md5});
    if (bag_.version != 101 && c.definition.empty() && bag_.encryptor.empty())
      add(Severity::Warning, c.record_offset, "rosbag.connection.no_definition",
          "connection " + std::to_string(c.id) + " (" + c.topic + ", " + c.type + ") has no message definition: its messages cannot be decoded");
  }
  if (bag_.version == 101 && !bag_.connections.empty())
    add(Severity::Info, bag_.first_record_offset, "rosbag.v11.no_definitions",
        "V1.1 bags carry no message definitions: messages are listed but cannot be decoded");
  for (const auto& t : topic_types)
    if (t.second.size() > 1) {
      std::string list;
      for (const auto& p : t.second) list += (list.empty() ? "" : ", ") + p.first + " [" + p.second + "]";
      add(Severity::Warning, 0, "rosbag.topic.conflicting_types", "topic " + t.first + " has connections of different types or md5sums: " + list);
    }

  if (bag_.version == 200 && bag_.encryptor.empty()) {
    std::vector<uint64_t> index_entries(bag_.chunks.size());
    bool completed = for_each_chunk(source_, bag_, [&](LoadedChunk& loaded) {
      const Chunk& c = bag_.chunks[loaded.chunk_index];
      if (c.compression == "lz4") {
        ++tally.lz4_chunks;
        if (loaded.status.checksum_verified) ++tally.checked;
      }
      if (!loaded.read_ok) {
        add(Severity::Error, c.pos, "rosbag.chunk.unreadable", chunk_at(c) + " is unreadable or runs past the end of the file");
        return;
      }
      if (!loaded.status.ok) {
        if (loaded.status.code == "rosbag.chunk.lz4_checksum") ++tally.failed, ++tally.checked;
        add(Severity::Error, c.pos, loaded.status.code, chunk_at(c) + ": " + loaded.status.message);
        return;
      }
      if (!loaded.records.complete)
        add(Severity::Error, c.data_offset(), "rosbag.chunk.malformed_record",
            chunk_at(c) + ": inner record at chunk offset " + std::to_string(loaded.records.stop_offset) + ": " + loaded.records.stop_reason);
      // Real contents against the ChunkInfo.
      std::map<uint32_t, uint32_t> real;
      uint64_t lo = UINT64_MAX, hi = 0;
      for (const ChunkMessage& m : loaded.records.messages) {
        ++real[m.conn];
        lo = std::min(lo, m.time_ns);
        hi = std::max(hi, m.time_ns);
        if (!bag_.connection(m.conn)) {
          add(Severity::Error, c.pos, "rosbag.connection.missing",
              chunk_at(c) + " has a message on connection " + std::to_string(m.conn) + ", which has no connection record");
        }
        try_decode(bag_.connection(m.conn), std::string_view(reinterpret_cast<const char*>(loaded.bytes.data() + m.data_offset), m.data_len), c.pos);
      }
      std::map<uint32_t, uint32_t> declared(c.counts.begin(), c.counts.end());
      uint64_t where = c.info_offset ? c.info_offset : c.pos;
      if (c.info_offset && real != declared) {
        uint64_t real_total = loaded.records.messages.size(), declared_total = c.message_count();
        add(Severity::Error, where, "rosbag.chunk_info.count_mismatch",
            "chunk info of the " + chunk_at(c) + " declares " + std::to_string(declared_total) + " messages over " +
                std::to_string(declared.size()) + " connections; the chunk holds " + std::to_string(real_total) + " over " + std::to_string(real.size()));
      }
      if (c.info_offset && !loaded.records.messages.empty() && (c.start.ns() != lo || c.end.ns() != hi))
        add(Severity::Error, where, "rosbag.chunk_info.time_mismatch",
            "chunk info of the " + chunk_at(c) + " says " + format_time(c.start) + " - " + format_time(c.end) + "; its messages span " +
                format_time(Time::from_ns(lo)) + " - " + format_time(Time::from_ns(hi)));
      if (bag_.indexed && c.record_end() > bag_.index_pos)
        add(Severity::Error, c.pos, "rosbag.chunk.past_index", chunk_at(c) + " runs past index_pos " + std::to_string(bag_.index_pos));
      // IndexData records after the chunk: every entry must name a real message at its offset.
      std::map<uint32_t, const ChunkMessage*> at_offset;
      for (const ChunkMessage& m : loaded.records.messages) at_offset[m.record_offset] = &m;
      auto index = chunk_index_records(loaded.chunk_index);
      uint64_t entries = 0, bad = 0, first_bad = 0;
      std::string header, why;
      HeaderFields fields;
      for (const auto& rec : index) {
        RecordFrame frame;
        if (read_record(source_, rec.first, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) continue;
        uint32_t conn = 0, count = 0;
        fields.u32("conn", &conn);
        fields.u32("count", &count);
        if (uint64_t{count} * 12 != frame.data_len)
          add(Severity::Error, rec.first, "rosbag.index_data.count_mismatch",
              "index data record at byte " + std::to_string(rec.first) + " declares " + std::to_string(count) + " entries in " + std::to_string(frame.data_len) + " bytes");
        std::vector<uint8_t> data = source_.read_vector(frame.data_offset(), frame.data_len);
        for (size_t e = 0; e + 12 <= data.size(); e += 12) {
          ++entries;
          Time t{load_u32(&data[e]), load_u32(&data[e + 4])};
          uint32_t off = load_u32(&data[e + 8]);
          auto it = at_offset.find(off);
          if (it == at_offset.end() || it->second->conn != conn || it->second->time_ns != t.ns()) {
            if (!bad++) first_bad = rec.first;
          }
        }
      }
      index_entries[loaded.chunk_index] = entries;
      if (bad)
        add(Severity::Error, first_bad, "rosbag.index_data.bad_entry",
            std::to_string(bad) + " index entries after the " + chunk_at(c) + " do not match a message at their offset, time and connection");
      if (entries != loaded.records.messages.size() && (bag_.indexed || !index.empty()))
        add(bag_.indexed ? Severity::Error : Severity::Warning, c.record_end(), "rosbag.index_data.count_mismatch",
            "the index data after the " + chunk_at(c) + " lists " + std::to_string(entries) + " messages; the chunk holds " +
                std::to_string(loaded.records.messages.size()));
    }, progress);
    tally.cancelled = !completed;
    // Overlapping chunks: messages must then be merged across chunks to play in time order.
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (const Chunk& c : bag_.chunks) ranges.emplace_back(c.start.ns(), c.end.ns());
    std::vector<size_t> by_start(ranges.size());
    for (size_t i = 0; i < by_start.size(); ++i) by_start[i] = i;
    std::sort(by_start.begin(), by_start.end(), [&](size_t a, size_t b) { return ranges[a] < ranges[b]; });
    std::vector<bool> overlapping(ranges.size(), false);
    uint64_t max_end = 0;
    size_t max_owner = SIZE_MAX;
    for (size_t k = 0; k < by_start.size(); ++k) {
      size_t i = by_start[k];
      if (max_owner != SIZE_MAX && ranges[i].first < max_end) overlapping[i] = overlapping[max_owner] = true;
      if (max_owner == SIZE_MAX || ranges[i].second > max_end) max_end = ranges[i].second, max_owner = i;
    }
    size_t n_overlap = std::count(overlapping.begin(), overlapping.end(), true);
    bool out_of_order = false;
    for (size_t i = 1; i < bag_.chunks.size(); ++i) out_of_order |= bag_.chunks[i].start < bag_.chunks[i - 1].start;
    if (n_overlap) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(n_overlap) / static_cast<double>(ranges.size()));
      add(n_overlap * 4 > ranges.size() ? Severity::Warning : Severity::Info, bag_.chunks.front().pos, "rosbag.chunks.overlap",
          std::to_string(n_overlap) + " of " + std::to_string(ranges.size()) + " chunks (" + buf + ") have time ranges overlapping another chunk");
    }
    if (out_of_order)
      add(Severity::Info, bag_.chunks.front().pos, "rosbag.chunks.unsorted",
          "chunks are not in time order in the file; `rosbag info` shows a wrong start, end and duration for such bags (logscope shows the true ones)");
    report.details["chunks_checked"] = bag_.chunks.size();
    report.details["chunks_overlapping"] = n_overlap;
  } else if (bag_.version != 200) {
    // V1.x: every message record must be where the index (or the scan) says.
    std::vector<Problem> problems;
    IterateResult r = for_each_message(source_, bag_, IterateOptions(), [&](const MessageView& view) {
      if (bag_.version == 102) try_decode(view.connection, view.data, view.record_offset);
      return true;
    }, &problems, progress);
    tally.cancelled = r.cancelled;
    for (Problem& p : problems) report.problems.push_back(std::move(p));
  }
  report.details["checksum"] = checksum_json(tally, bag_);
  if (tally.cancelled) add(Severity::Warning, 0, "rosbag.check.cancelled", "the check was cancelled before it read every chunk");
  return report;
}

}  // namespace logscope::rosbag
