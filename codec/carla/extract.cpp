#include "carla/extract.h"

#include <algorithm>

#include "carla/format.h"
#include "carla/reader.h"
#include "core/sequential.h"

namespace logscope::carla {

ExtractResult repair_carla(ByteSource& source, OutputSink& out, const ProgressFn& progress) {
  ExtractResult result;
  ScanResult scan = scan_log(source, progress);
  if (scan.cancelled) {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  }
  if (!scan.header_ok) {
    result.error = "the info header is not whole; nothing to recover";
    return result;
  }
  uint64_t end = std::min(scan.data_end, source.size());
  // CARLA writes -1 as the last frame's duration (it back-patches a frame's duration only when
  // the next one starts); a log cut after a complete frame has that frame's real duration, which
  // the doctor flags. The copy writes -1 there instead: the one byte range that differs.
  uint64_t last_duration_at = UINT64_MAX;
  const double last_duration = -1.0;
  if (!scan.frames.empty() && scan.frames.back().duration != -1.0)
    last_duration_at = scan.frames.back().offset + kPacketHeaderSize + 8;
  SequentialReader reader(source, 0, end);
  ProgressTicker ticker(progress, end);
  for (uint64_t at = 0; at < end;) {
    if (at == last_duration_at) {
      if (!reader.skip_to(at + sizeof last_duration) || !out.write(&last_duration, sizeof last_duration)) {
        result.error = "writing the new log failed: " + out.error() + reader.error();
        return result;
      }
      at += sizeof last_duration;
      continue;
    }
    uint64_t stop = at < last_duration_at ? std::min(end, last_duration_at) : end;
    size_t length = static_cast<size_t>(std::min<uint64_t>(stop - at, 8u << 20));
    const uint8_t* bytes = reader.view(at, length);
    if (!bytes) {
      result.error = "reading byte " + std::to_string(at) + " failed: " + reader.error();
      return result;
    }
    if (!out.write(bytes, length)) {
      result.error = "writing the new log failed: " + out.error();
      return result;
    }
    at += length;
    if (!ticker.update(at)) {
      result.cancelled = true;
      result.error = "cancelled";
      return result;
    }
  }
  result.kept.push_back("the info header (" + std::to_string(scan.header.size) + " bytes) and " +
                        std::to_string(scan.frames.size()) + " complete frames, bytes [0, " + std::to_string(end) + ")");
  if (!scan.frames.empty())
    result.kept.push_back("last frame " + std::to_string(scan.frames.back().id) + " at byte " +
                          std::to_string(scan.frames.back().offset) + ", duration " +
                          std::to_string(scan.frames.back().elapsed) + " seconds");
  if (last_duration_at != UINT64_MAX)
    result.kept.push_back("the last frame's duration set to -1 at byte " + std::to_string(last_duration_at) +
                          " (was " + std::to_string(scan.frames.back().duration) + "), as CARLA ends a recording");
  if (end < source.size())
    result.dropped.push_back(std::to_string(source.size() - end) + " bytes from byte " + std::to_string(end) +
                             " to the end: " + (scan.recovery.message.empty() ? "not part of a complete frame" : scan.recovery.message));
  result.bytes_written = out.written();
  result.ok = true;
  return result;
}

}  // namespace logscope::carla
