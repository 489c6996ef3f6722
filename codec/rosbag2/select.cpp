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
    auto compile = [&](const std::string& sql) {
      sqlite3_stmt* s = nullptr;
      if (sqlite3_prepare_v2(file.reader->handle(), sql.c_str(), -1, &s, nullptr) != SQLITE_OK) sqlite3_finalize(s), s = nullptr;
      return Statement(s);
    };
    // A statement over the span: ?1 and ?2 its times.
    auto prepare = [&](const std::string& sql) {
      Statement s = compile(sql);
      // From 0: every time, a negative one too (the export writes it as 0).
      if (s) sqlite3_bind_int64(s.get(), 1, t0 == 0 ? INT64_MIN : clamp_ns(t0)), sqlite3_bind_int64(s.get(), 2, clamp_ns(t1));
      return s;
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
    // A few rows by time (a frame, a thumbnail): each body by its id, once its length is known, so
    // that the database's source fetches its overflow pages in one read (expect_run) rather than
    // in a run that doubles from one page (9 browser reads for a 0.9 MB camera frame, not 1). The
    // first statement has just read the row's b-tree pages: the second's first miss is its body.
    const bool body_by_id = by_time && !how.without_data;
    // (timestamp_idx holds timestamp then rowid: ORDER BY timestamp, id needs no sort.)
    // (length() of a blob reads the record's header alone, not its overflow pages.)
    Statement rows = prepare(std::string("SELECT id, topic_id, timestamp") + (how.without_data ? "" : body_by_id ? ", length(data)" : ", data") +
                             where + (by_time ? " ORDER BY timestamp, id" : " ORDER BY id") + " LIMIT -1 OFFSET " + std::to_string(offset));
    Statement body = body_by_id ? compile("SELECT data FROM messages WHERE id = ?1") : nullptr;
    if (!rows || (body_by_id && !body)) {
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
      if (body_by_id) {
        const int64_t length = sqlite3_column_int64(rows.get(), 3);
        // Its overflow pages: 4 bytes of each page are the next one's number (a page >= 512 bytes).
        if (file.source && length > 0) file.source->expect_run(static_cast<uint64_t>(length) + static_cast<uint64_t>(length) / 128 + 8192);
        sqlite3_reset(body.get());
        sqlite3_bind_int64(body.get(), 1, m.stored.row_id);
        const int got = sqlite3_step(body.get());
        if (file.source) file.source->expect_run(0);
        if (got != SQLITE_ROW) {
          if (error) *error = file.name + ": the body of row " + std::to_string(m.stored.row_id) + " could not be read" +
                              (got == SQLITE_DONE ? " (it is gone)" : ": " + file.reader->last_error());
          return true;
        }
        m.stored.data = static_cast<const uint8_t*>(sqlite3_column_blob(body.get(), 0));
        m.stored.size = static_cast<size_t>(sqlite3_column_bytes(body.get(), 0));
      } else {
        m.stored.data = static_cast<const uint8_t*>(sqlite3_column_blob(rows.get(), 3));
        m.stored.size = static_cast<size_t>(sqlite3_column_bytes(rows.get(), 3));
      }
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
