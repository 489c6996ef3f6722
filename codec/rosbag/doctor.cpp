// The doctor (doctor.h): every chunk decompressed and compared with its ChunkInfo and IndexData
// records, lz4 content checksums, connections, topics, overlap; V1.x index entries against the
// records. The steps are CheckRun's (check_run.h), shared with the check feed (chunk_feeds.cpp).
#include "rosbag/doctor.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "rosbag/check_run.h"
#include "rosbag/iterate.h"
#include "rosbag/reader.h"
#include "rosbag/summary.h"

namespace logscope::rosbag {
namespace {

std::string chunk_at(const Chunk& c) { return "chunk at byte " + std::to_string(c.pos); }

// The summary from the index and the chunk headers read so far (none is read here).
Report summary_now(ByteSource& source, Bag& bag) { return summary_report(compute_stats(source, bag, false, false), bag); }

}  // namespace

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

Json compute_checksum(ByteSource& source, Bag& bag, const ProgressFn& progress) {
  ChecksumTally tally;
  if (bag.encryptor.empty())
    tally.cancelled = !for_each_chunk(
        source, bag, [&](LoadedChunk& loaded) { tally.count(bag.chunks[loaded.chunk_index], loaded); }, progress,
        ChunkWalk::Lz4Checksums);
  return checksum_json(tally, bag);
}

Report run_doctor(ByteSource& source, Bag& bag, const ProgressFn& progress) {
  CheckRun run(source, bag);
  bool cancelled = false;
  if (bag.version == 200 && bag.encryptor.empty()) {
    cancelled = !for_each_chunk(source, bag, [&](LoadedChunk& loaded) { run.chunk(loaded); }, progress);
  } else if (bag.version != 200) {
    // V1.x: every message record must be where the index (or the scan) says.
    std::vector<Problem> problems;
    IterateResult r = for_each_message(source, bag, IterateOptions(), [&](const MessageView& view) {
      if (bag.version == 102) run.validate(view.conn, view.data, view.record_offset, [&] { return "at byte " + std::to_string(view.record_offset); });
      return true;
    }, &problems, progress);
    cancelled = r.cancelled;
    for (Problem& p : problems) run.report().problems.push_back(std::move(p));
  }
  return run.finish(cancelled);
}

// Every message is validated against its connection's definition (no JSON is built); the
// first failures of each connection are reported with where they are, then a count.
constexpr uint64_t kReportedPerConnection = 3;

CheckRun::CheckRun(ByteSource& source, Bag& bag) : source_(source), bag_(bag), report_(summary_now(source, bag)) {
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
}

CheckRun::Validation& CheckRun::validation_of(uint32_t id) {
  Validation& v = id < 65536 ? (id >= validations_.size() ? (validations_.resize(size_t{id} + 1), validations_[id]) : validations_[id]) : sparse_[id];
  if (!v.ready) {
    v.ready = true;
    v.connection = bag_.connection(id);
    if (v.connection && !v.connection->definition.empty()) {
      std::string error;
      v.schema = decoder_.schema(*v.connection, &error);
      if (!v.schema)
        add(Severity::Warning, v.connection->record_offset, "rosbag.message.undecodable",
            "messages on " + v.connection->topic + " (" + v.connection->type + ") cannot be decoded: " + error);
    }
  }
  return v;
}

void CheckRun::validate(uint32_t conn, std::string_view data, uint64_t offset, const std::function<std::string()>& where) {
  Validation& v = validation_of(conn);
  if (!v.schema) return;
  ++v.checked;
  ++messages_validated_;
  if (v.schema->validate(reinterpret_cast<const uint8_t*>(data.data()), data.size())) return;
  ++messages_failed_;
  if (v.failed++ == 0) v.first_offset = offset;
  if (v.failed > kReportedPerConnection) return;
  std::string error;
  decoder_.decode(v.connection, data, &error);
  add(Severity::Warning, offset, "rosbag.message.undecodable",
      "message " + std::to_string(v.checked) + " on " + v.connection->topic + " (" + v.connection->type + ", " + where() +
          ") does not decode with its definition: " + error);
}

void CheckRun::chunk(LoadedChunk& loaded) {
  const Chunk& c = bag_.chunks[loaded.chunk_index];
  tally_.count(c, loaded);
  if (!loaded.read_ok) {
    add(Severity::Error, c.pos, loaded.read_code,
        loaded.read_error.empty() ? chunk_at(c) + " is unreadable or runs past the end of the file" : loaded.read_error);
    return;
  }
  if (!loaded.status.ok) {
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
  }
  for (const ChunkMessage& m : loaded.records.messages) {
    bool in_place = c.compression == "none";
    validate(m.conn, loaded.message_data(m), in_place ? c.data_offset() + m.record_offset : c.pos, [&] {
      return in_place ? "at byte " + std::to_string(c.data_offset() + m.record_offset)
                      : chunk_at(c) + ", chunk offset " + std::to_string(m.record_offset);
    });
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
  // Messages are in record order here (the doctor's walk does not sort them by time).
  const auto& in_order = loaded.records.messages;
  auto message_at = [&](uint32_t off) -> const ChunkMessage* {
    auto it = std::lower_bound(in_order.begin(), in_order.end(), off, [](const ChunkMessage& m, uint32_t o) { return m.record_offset < o; });
    return it != in_order.end() && it->record_offset == off ? &*it : nullptr;
  };
  // The IndexData records came along in the same read as the chunk (up to the next chunk);
  // a chunk read on its own has them read here.
  struct IndexRecord {
    uint64_t offset;
    uint32_t conn, count, data_len;
    const uint8_t* data;
  };
  std::vector<IndexRecord> index;
  std::vector<std::vector<uint8_t>> storage;
  size_t expected_records = c.counts.size() + 1;  // +1: tolerate one unexpected record count
  if (loaded.trailer_complete) {
    size_t pos = 0;
    while (pos < loaded.trailer_size && index.size() < expected_records) {
      RecordFrame frame;
      std::string_view header;
      std::string why;
      HeaderFields fields;
      if (parse_record(loaded.trailer, loaded.trailer_size, pos, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header) ||
          fields.op() != kOpIndexData)
        break;
      IndexRecord rec{loaded.trailer_offset + pos, 0, 0, frame.data_len, loaded.trailer + frame.data_offset()};
      fields.u32("conn", &rec.conn);
      fields.u32("count", &rec.count);
      index.push_back(rec);
      pos = static_cast<size_t>(frame.end());
    }
  } else {
    std::string header, why;
    HeaderFields fields;
    for (const auto& at : chunk_index_records(source_, &bag_, loaded.chunk_index)) {
      RecordFrame frame;
      if (read_record(source_, at.first, &frame, &header, &why) != FrameStatus::Ok || !fields.parse(header)) continue;
      storage.push_back(source_.read_vector(frame.data_offset(), frame.data_len));
      IndexRecord rec{at.first, 0, 0, static_cast<uint32_t>(storage.back().size()), storage.back().data()};
      fields.u32("conn", &rec.conn);
      fields.u32("count", &rec.count);
      index.push_back(rec);
    }
  }
  uint64_t entries = 0, bad = 0, first_bad = 0;
  for (const IndexRecord& rec : index) {
    if (uint64_t{rec.count} * 12 != rec.data_len)
      add(Severity::Error, rec.offset, "rosbag.index_data.count_mismatch",
          "index data record at byte " + std::to_string(rec.offset) + " declares " + std::to_string(rec.count) + " entries in " +
              std::to_string(rec.data_len) + " bytes");
    for (size_t e = 0; e + 12 <= rec.data_len; e += 12) {
      ++entries;
      Time t{load_u32(rec.data + e), load_u32(rec.data + e + 4)};
      uint32_t off = load_u32(rec.data + e + 8);
      const ChunkMessage* m = message_at(off);
      if (!m || m->conn != rec.conn || m->time_ns != t.ns()) {
        if (!bad++) first_bad = rec.offset;
      }
    }
  }
  if (bad)
    add(Severity::Error, first_bad, "rosbag.index_data.bad_entry",
        std::to_string(bad) + " index entries after the " + chunk_at(c) + " do not match a message at their offset, time and connection");
  if (entries != loaded.records.messages.size() && (bag_.indexed || !index.empty()))
    add(bag_.indexed ? Severity::Error : Severity::Warning, c.record_end(), "rosbag.index_data.count_mismatch",
        "the index data after the " + chunk_at(c) + " lists " + std::to_string(entries) + " messages; the chunk holds " +
            std::to_string(loaded.records.messages.size()));
}

Report CheckRun::finish(bool cancelled) {
  tally_.cancelled = cancelled;
  if (bag_.version == 200 && bag_.encryptor.empty()) {
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
  report_.details["chunks_checked"] = bag_.chunks.size();
  report_.details["chunks_overlapping"] = n_overlap;
  }
  // Connections with more failures than were listed: one line with the count.
  auto summarize = [&](const Validation& v) {
    if (v.failed > kReportedPerConnection)
      add(Severity::Warning, v.first_offset, "rosbag.message.undecodable",
          std::to_string(v.failed) + " of " + std::to_string(v.checked) + " messages on " + v.connection->topic + " (" + v.connection->type +
              ") do not decode with its definition (the first " + std::to_string(kReportedPerConnection) + " are listed)");
  };
  for (const Validation& v : validations_) summarize(v);
  for (const auto& entry : sparse_) summarize(entry.second);
  report_.details["messages_validated"] = messages_validated_;
  report_.details["messages_undecodable"] = messages_failed_;
  // The walk has read every chunk header: the summary part now has the compression facts.
  Report refreshed = summary_now(source_, bag_);
  report_.facts = refreshed.facts;
  report_.tables = refreshed.tables;
  for (const auto& item : refreshed.details.items()) report_.details[item.first] = item.second;
  report_.details["checksum"] = checksum_json(tally_, bag_);
  if (tally_.cancelled) add(Severity::Warning, 0, "rosbag.check.cancelled", "the check was cancelled before it read every chunk");
  return std::move(report_);
}

}  // namespace logscope::rosbag
