// The FormatInspector of MCAP files. Members are split over inspector.cpp (summary, info, the
// record list and chunk cache), tree.cpp (tree, locate, spans), decode.cpp (decode),
// doctor.cpp (check, checksum), queries.cpp (the query table) and file_map.cpp (file_map).
#pragma once

#include <memory>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cdr/type_library.h"
#include "core/inspector.h"
#include "core/message_source.h"
#include "mcap/decompress.h"
#include "mcap/model.h"
#include "mcap/payload.h"
#include "mcap/reader.h"

namespace logscope {
class Timeline;
}

namespace logscope::mcap {

// A chunk's records, decompressed, with where each record starts in them.
struct LoadedChunk {
  uint64_t offset = 0;       // file offset of the Chunk record
  ChunkHeader header;
  bool header_ok = false;
  Decompressed data;
  std::vector<RecordFrame> inner;  // offsets within data.bytes
  std::string error;               // why there are no records (or fewer than the chunk holds)
  std::string_view bytes() const { return data.view(); }
};

class McapInspector : public FormatInspector, public MessageSourceOwner {
 public:
  explicit McapInspector(ByteSource& source);

  // The summary may come from the summary section without its chunk indexes (reader.h
  // kDeferChunkIndexesAbove); every other entry point reads the whole summary first
  // (read_whole_summary), and info_report() gives the facts that need it.
  Report summary() override;
  Report info_report(const ProgressFn& progress) override;
  Report check(const ProgressFn& progress) override;
  std::string info_text(const InfoOptions& options) override;
  Json checksum(const ProgressFn& progress) override;
  // The doctor with the file pushed in (doctor_feed.cpp).
  std::unique_ptr<ByteFeed> check_feed() override;
  std::unique_ptr<ByteFeed> checksum_feed() override;

  uint64_t child_count(const std::string& node_id) override;
  std::vector<TreeNode> children(const std::string& node_id, uint64_t first, uint64_t count) override;
  std::vector<std::string> locate(uint64_t offset) override;
  std::vector<Span> spans(uint64_t offset, uint64_t length) override;
  Json decode(const std::string& node_id) override;
  FileMap file_map(bool full_check, const ProgressFn& progress) override;
  std::vector<QuerySpec> queries() override;
  // The messages for the views (message_source.cpp).
  MessageSource* message_source() override;
  // Definitions for schemas the file stores empty (a ros2msg or ros1msg schema with no text).
  void set_message_definitions(std::shared_ptr<const cdr::TypeLibrary> definitions) override;
  ExportResult export_rows(const std::string& topic, const ExportRequest& request, ExportSink& sink,
                           const ProgressFn& progress) override;

  const FileModel& model() const { return model_; }

 private:
  // Reads the whole summary where the open left its ChunkIndex group unread: the model is
  // opened again, and what was made from the first one is dropped.
  void read_whole_summary(const ProgressFn& progress = nullptr);
  // Every top-level record in file order: the Header, the data section, the summary, the Footer.
  // From the scan when one ran, else listed from the framing on first use.
  const std::vector<RecordFrame>& records();
  // The decompressed chunk at records()[k] (the last one is kept); null when that record is no
  // chunk. Passes over every message skip an lz4 frame's XXH32 (`verify_lz4_checksum`), as a
  // bag's iteration does; the doctor checks it.
  const LoadedChunk* chunk_at(size_t k, bool verify_lz4_checksum = true);  // records()[k]
  const LoadedChunk* load_chunk(const RecordFrame& frame, bool verify_lz4_checksum = true);
  // The data section's top-level records in file order for a pass over messages, without listing
  // them all (records() reads every record's head: a request each, by URL): where the summary
  // indexes the chunks, the chunks from there and a walk of only what lies between them (the
  // schemas and channels before the first, messages outside chunks); else records(). `chunks`:
  // indexed_chunk_frames(), which the caller has already. `fn` returns false to stop; false when it did.
  bool for_each_data_record(const std::vector<RecordFrame>& chunks, const std::function<bool(const RecordFrame&)>& fn);
  // The chunks in file order from the index, where every chunk is indexed, in order and apart;
  // else none.
  std::vector<RecordFrame> indexed_chunk_frames() const;
  std::vector<RecordFrame> records_from_index(const std::vector<RecordFrame>& chunks, uint64_t end, bool* all);
  // The record's content, up to `limit` bytes (the start of it when longer).
  std::string content(const RecordFrame& frame, uint64_t limit);
  TreeNode record_node(size_t k);
  TreeNode inner_node(size_t k, size_t j);
  Json record_json(const RecordFrame& frame, std::string_view content, bool whole, uint64_t file_offset);
  Json messages_query(QueryArgs& args, const ProgressFn& progress);
  Json attachments_query(QueryArgs& args);
  Json metadata_query(QueryArgs& args);
  Json timeline_query(QueryArgs& args);
  bool add_message_indexes(const ChunkInfo& c, Timeline& timeline, const std::map<uint16_t, size_t>& rows);
  Json channels_query();
  // Every message, payloads viewed and not decoded (the iteration benchmark, `iterate_all`).
  Json iterate_query(QueryArgs& args, const ProgressFn& progress);
  // The decoder of a channel's payloads (payload.h), or null with `error`.
  const PayloadDecoder* payload_decoder(uint16_t channel_id, std::string* error);
  // Adds "message" (the decoded payload) or "decode_error" to a Message record's JSON.
  void add_decoded(Json& j, uint16_t channel_id, std::string_view payload, bool whole);
  // Every message of `channels` with log_time in [t0, t1], in file order (export.cpp): `fn` gets
  // its header, payload, the record's file offset (or its chunk's) and its offset in the chunk
  // (0 outside chunks) and returns false to stop. False when cancelled. `only_chunks`: read only
  // the indexed chunks at these offsets (a plot's sample, sample_chunks).
  using MessageFn = std::function<bool(const MessageHeader&, std::string_view payload, uint64_t offset, uint64_t in_chunk)>;
  // `sparse`, when given, reads an indexed chunk first (the caller stops after a message or few:
  // sparse_chunk_messages, which the message source passes where it is compiled in).
  // `read_ahead` false: the caller stops after a message or few, so the chunks it may read are not
  // announced (ByteSource::will_read_ranges: a remote file would fetch a window of them).
  enum class SparseChunk { Done, Stopped, Unusable };
  using SparseChunkFn = std::function<SparseChunk(const ChunkInfo&, uint64_t* delivered_through)>;
  bool for_each_message(const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1, const ProgressFn& progress,
                        const MessageFn& fn, std::vector<Problem>* problems, const std::set<uint64_t>* only_chunks = nullptr,
                        const SparseChunkFn* sparse = nullptr, bool read_ahead = true);
  // One indexed chunk's messages of `channels` in [t0, t1] in file order, each read alone. Unusable
  // when the chunk is compressed or its MessageIndex disagrees with its records (the doctor names
  // that; the records win); `delivered_through`: past the offset (in its records) of the last
  // message handed on, for the caller that reads the chunk whole after that. `times_only`: no
  // message is read (each payload empty, its header only channel and log time: the index's), and
  // a compressed chunk serves as well.
  SparseChunk sparse_chunk_messages(const ChunkInfo& info, const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1, const MessageFn& fn,
                                    uint64_t* delivered_through, bool times_only = false);
  // The indexed chunks that hold `channels` in [t0, t1] (their count in `in_range`); when more
  // than `max_chunks`, the offsets of `max_chunks` of them spread evenly in file order, else empty
  // (read them all).
  std::set<uint64_t> sample_chunks(const std::set<uint16_t>& channels, uint64_t t0, uint64_t t1, uint64_t max_chunks,
                                   uint64_t* in_range) const;
  bool topic_channels(const std::string& topic, std::set<uint16_t>* ids, std::string* error);
  const PayloadDecoder* topic_decoder(const std::string& topic, const std::set<uint16_t>& ids,
                                      std::map<uint16_t, const PayloadDecoder*>* per_channel, std::string* error);
  // The columns of a topic whose decoder takes them from the messages (protobuf): every numeric
  // leaf path of its channels' messages in [t0, t1]. False when cancelled.
  bool learn_columns(const std::map<uint16_t, const PayloadDecoder*>& decoders, uint64_t t0, uint64_t t1,
                     const ProgressFn& progress, protobuf::LeafColumns* out, const std::set<uint64_t>* only_chunks = nullptr);
  // The plot queries (plot_queries.cpp): a topic's columns and its numeric columns over time.
  Json columns_query(QueryArgs& args, const ProgressFn& progress);
  Json plot_query(QueryArgs& args, const ProgressFn& progress);
  // Messages with their payloads decoded (decoded.cpp).
  Json decoded_query(QueryArgs& args, const ProgressFn& progress);

  ByteSource& source_;
  FileModel model_;
  std::optional<std::vector<RecordFrame>> records_;
  bool records_complete_ = true;
  std::unique_ptr<LoadedChunk> chunk_cache_;
  std::string chunk_read_;  // the compressed chunk last read, its capacity kept from chunk to chunk
  PayloadDecoders decoders_;
  std::shared_ptr<const cdr::TypeLibrary> supplied_;
  std::map<uint16_t, Schema> filled_;  // schemas stored empty, by id, with the supplied definition
  std::unique_ptr<MessageSource> message_source_;
};

}  // namespace logscope::mcap
