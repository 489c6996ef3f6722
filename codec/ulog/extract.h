// Repair of a ULog: a new, valid file with every complete message the reader can place, in file
// order. The flag bits are written fresh (compatible flags kept, no incompatible flag, no appended
// offsets): messages of appended sections (crash dumps) follow the data section as ordinary
// messages. Left out, and said so: the cut message at the end, unknown message types, data whose
// msg_id no subscription declares, and bytes between sections no message covers.
#pragma once

#include "core/byte_source.h"
#include "core/extract.h"

namespace logscope::ulog {

ExtractResult repair_ulog(ByteSource& source, OutputSink& out, const ProgressFn& progress = nullptr);

}  // namespace logscope::ulog
