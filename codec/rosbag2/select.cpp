// The messages of one topic in a time range, for the decoded query, the export and the plots: SQL
// selects the rows in each file (`NOT INDEXED`: rowid order without a sort, so memory stays one
// message), and rows skipped for a later page are counted, never read, so their bodies in
// overflow pages stay unread. Per-message zstd as for_each_bag_message (bag.h) decodes it.
#include <sqlite3.h>

#include <algorithm>
#include <map>

#include "rosbag2/inspector_impl.h"

namespace logscope::rosbag2 {
namespace {

int64_t clamp_ns(uint64_t t) { return t > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(t); }

struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

}  // namespace

bool Rosbag2Inspector::for_each_selected(const std::set<std::string>& names, uint64_t t0, uint64_t t1, uint64_t skip, const ProgressFn& progress,
                                         const std::function<bool(const BagMessage&)>& visit, std::string* error, RowSelection how) {
  std::vector<uint8_t> decoded;
  ProgressTicker ticker(progress, bag_->files.size(), 1);
  for (size_t i = 0; i < bag_->files.size(); ++i) {
    if (!ticker.update(i)) return false;
    BagFile& file = bag_->files[i];
    if (!file.reader || !file.tables_read) continue;
    std::map<int64_t, const Topic*> topics;
    std::string ids;
    for (const Topic& t : file.tables.topics) {
      topics[t.id] = &t;
      if (names.count(t.name)) ids += (ids.empty() ? "" : ",") + std::to_string(t.id);
    }
    if (!names.empty() && ids.empty()) continue;
    const bool by_time = how.by_time && file.tables.has_timestamp_index;
    std::string where = std::string(" FROM messages ") + (by_time ? "INDEXED BY timestamp_idx" : "NOT INDEXED") +
                        " WHERE timestamp >= ?1 AND timestamp <= ?2" + (names.empty() ? "" : " AND topic_id IN (" + ids + ")");
    auto prepare = [&](const std::string& sql) {
      sqlite3_stmt* s = nullptr;
      if (sqlite3_prepare_v2(file.reader->handle(), sql.c_str(), -1, &s, nullptr) != SQLITE_OK) sqlite3_finalize(s), s = nullptr;
      // From 0: every time, a negative one too (the export writes it as 0).
      if (s) sqlite3_bind_int64(s, 1, t0 == 0 ? INT64_MIN : clamp_ns(t0)), sqlite3_bind_int64(s, 2, clamp_ns(t1));
      return Statement(s);
    };
    uint64_t offset = 0;
    if (skip > 0) {  // a later page: the rows before it in this file are counted, not read
      Statement count = prepare("SELECT count(*)" + where);
      if (!count || sqlite3_step(count.get()) != SQLITE_ROW) {
        if (error) *error = file.name + ": " + file.reader->last_error();
        return true;
      }
      uint64_t n = static_cast<uint64_t>(sqlite3_column_int64(count.get(), 0));
      if (n <= skip) {
        skip -= n;
        continue;
      }
      offset = skip, skip = 0;
    }
    // (timestamp_idx holds timestamp then rowid: ORDER BY timestamp, id needs no sort.)
    Statement rows = prepare(std::string("SELECT id, topic_id, timestamp") + (how.without_data ? "" : ", data") + where +
                             (by_time ? " ORDER BY timestamp, id" : " ORDER BY id") + " LIMIT -1 OFFSET " + std::to_string(offset));
    if (!rows) {
      if (error) *error = file.name + ": " + file.reader->last_error();
      return true;
    }
    int rc;
    while ((rc = sqlite3_step(rows.get())) == SQLITE_ROW) {
      BagMessage m;
      m.file = i;
      m.stored.row_id = sqlite3_column_int64(rows.get(), 0);
      m.stored.topic_id = sqlite3_column_int64(rows.get(), 1);
      m.stored.timestamp_ns = sqlite3_column_int64(rows.get(), 2);
      auto t = topics.find(m.stored.topic_id);
      m.topic = t == topics.end() ? nullptr : t->second;
      if (how.without_data) {
        if (!visit(m)) return true;
        continue;
      }
      m.stored.data = static_cast<const uint8_t*>(sqlite3_column_blob(rows.get(), 3));
      m.stored.size = static_cast<size_t>(sqlite3_column_bytes(rows.get(), 3));
      m.data = m.stored.data, m.size = m.stored.size;
      if (bag_->message_compression || is_zstd_frame(m.data, m.size)) {
        std::string why;
        if (zstd_decompress_message(m.data, m.size, &decoded, &why)) m.data = decoded.data(), m.size = decoded.size(), m.decompressed = true;
        else m.decode_error = why;
      }
      if (!visit(m)) return true;
    }
    if (rc != SQLITE_DONE) {
      if (error) *error = file.name + ": " + file.reader->last_error();
      return true;
    }
  }
  return true;
}

}  // namespace logscope::rosbag2
