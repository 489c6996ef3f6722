// A ULog topic as rows (core/export.h): the columns pyulog's ulog2csv writes, named and ordered as
// it does: `timestamp` first, then the fields in the format's order, arrays as name[i], nested
// types as a.b, char[N] as one text column, padding fields left out. Values as the file holds
// them (timestamp in µs).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/byte_source.h"
#include "core/export.h"
#include "ulog/format.h"
#include "ulog/model.h"

namespace logscope::ulog {

// The leaves of a subscription's format in ulog2csv's order (timestamp moved first). False with
// `error` when the topic has no usable format.
bool topic_leaves(const FileModel& model, const Subscription& subscription, std::vector<Leaf>* leaves, std::string* error);

// Every data message of `topic` with `multi_id` in file order (msg_ids followed through add and
// remove messages): `fn` gets the payload (after msg_id) and the message's offset and returns
// false to stop. False when cancelled.
using PayloadFn = std::function<bool(const uint8_t* payload, size_t size, uint64_t offset)>;
bool for_each_topic_message(ByteSource& source, const FileModel& model, const std::string& topic, uint8_t multi_id,
                            const ProgressFn& progress, const PayloadFn& fn);

// The rows of one topic whose timestamp (in ns) is in the request's range. `time_ns_first` adds a
// first column time_ns (the timestamp in ns) for plots, whose rows key on ns.
ExportResult export_topic(ByteSource& source, const FileModel& model, const std::string& topic, uint8_t multi_id,
                          const ExportRequest& request, ExportSink& sink, const ProgressFn& progress, bool time_ns_first = false);

}  // namespace logscope::ulog
