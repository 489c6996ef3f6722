// Message payloads decoded by their channel's encodings: one decoder per channel, made once from
// its schema by the first entry of payload_codecs() whose message and schema encodings match.
// The record view shows a decoder's JSON; the export and the plots write its flat columns.
// A new encoding is one entry in payload_codecs() (payload.cpp; protobuf's in payload_protobuf.cpp).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/export.h"
#include "core/json.h"
#include "mcap/records.h"
#include "protobuf/leaves.h"

namespace logscope::mcap {

class PayloadDecoder {
 public:
  virtual ~PayloadDecoder() = default;
  // The message as JSON for the record view (long arrays shortened); `error` says why it does not
  // fit, with what was decoded before. `whole`: every array whole and byte arrays as their bytes,
  // for a view that reads them (camera images; WalkOptions::whole_bytes).
  virtual Json to_json(std::string_view payload, bool whole, std::string* error) const = 0;
  // Whether the schema fixes the export's columns (false for json, whose fields are the data's).
  virtual bool has_columns() const { return false; }
  // The export's columns after time_ns, decided by the schema alone (an empty type has none).
  // kinds() has one entry per column.
  virtual const std::vector<std::string>& columns() const { return none_; }
  virtual const std::vector<TableWriter::Kind>& kinds() const { return no_kinds_; }
  virtual const std::vector<std::string>& json_columns() const { return none_; }
  // One cell per column; false with `error` when the payload does not fit (the row is dropped).
  virtual bool write_row(std::string_view payload, TableWriter& out, std::string* error) const {
    (void)payload, (void)out;
    *error = "this encoding has no columns";
    return false;
  }
  // Columns the messages decide, not the schema (JSON; protobuf: a repeated field has a column per
  // element, a field no message sets has none). columns() is then empty: the export reads its
  // range twice, first every message's leaves() for the columns (protobuf::LeafColumns), then
  // the rows (protobuf::LeafRowWriter).
  virtual bool columns_from_messages() const { return false; }
  // One message's numeric leaves, each with its path; false with `error` when it does not parse.
  virtual bool leaves(std::string_view payload, std::vector<protobuf::Leaf>* out, std::string* error) const {
    (void)payload, (void)out;
    *error = "this encoding has no leaves";
    return false;
  }
  // The type its messages are (protobuf's full name), when columns() cannot tell two apart:
  // channels of one topic with another type than the first are left out of its export.
  virtual std::string message_type() const { return ""; }

 private:
  std::vector<std::string> none_;
  std::vector<TableWriter::Kind> no_kinds_;
};

// `schema` is null for a channel without one (schema_id 0).
using MakeDecoder = std::function<std::unique_ptr<PayloadDecoder>(const Schema* schema, std::string* error)>;

struct PayloadCodec {
  std::string message_encoding;  // the channel's ("cdr", "ros1", "json", "protobuf")
  std::string schema_encoding;   // the schema's ("ros2msg", "ros1msg", "protobuf"); "*" any, "" none
  MakeDecoder make;
};

// The table, in the order matching tries it.
const std::vector<PayloadCodec>& payload_codecs();

// Protobuf (payload_protobuf.cpp): the schema's data is a FileDescriptorSet and its name the
// message's full type name (the MCAP registry, "protobuf"). Decoding by name needs the full
// libprotobuf, which the page's view module leaves out: there it is null with a note.
std::unique_ptr<PayloadDecoder> make_protobuf_decoder(const Schema* schema, std::string* error);

// Per channel, made on first use and kept (with the reason when there is none).
class PayloadDecoders {
 public:
  // The channel's decoder, or null with `error`: no codec for its encodings (the record view then
  // shows hex only), or a schema that cannot be used.
  const PayloadDecoder* get(const Channel& channel, const Schema* schema, std::string* error);

 private:
  struct Entry {
    std::unique_ptr<PayloadDecoder> decoder;
    std::string error;
  };
  std::map<uint16_t, Entry> entries_;
};

}  // namespace logscope::mcap
