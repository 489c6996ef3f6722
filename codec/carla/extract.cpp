#include "carla/extract.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "carla/decode.h"
#include "carla/extract_span.h"
#include "carla/format.h"
#include "carla/reader.h"
#include "carla/stream.h"
#include "carla/walker.h"
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

namespace {

std::string bytes_range(uint64_t begin, uint64_t end) { return "bytes [" + std::to_string(begin) + ", " + std::to_string(end) + ")"; }
std::string seconds_text(double seconds, const char* format = "%.6g") {
  char text[40];
  std::snprintf(text, sizeof text, format, seconds);
  return text;
}

// A ProgressFn that reports a pass's progress as part of the whole job's.
ProgressFn part_of(const ProgressFn& progress, const uint64_t& base, const uint64_t& all) {
  if (!progress) return nullptr;
  return [&progress, &base, &all](uint64_t done, uint64_t) { return progress(base + done, all); };
}

std::string id_list(const std::set<uint32_t>& ids) {
  std::string text;
  for (uint32_t id : ids) text += (text.empty() ? "" : ", ") + std::to_string(id);
  return text;
}

}  // namespace

ExtractResult extract_carla(ByteSource& source, OutputSink& out, const CarlaExtractOptions& options, const ProgressFn& progress) {
  ExtractResult result;
  auto cancelled = [&result]() {
    result.cancelled = true;
    result.error = "cancelled";
    return result;
  };
  // Progress over every pass: the scan, the actors' parents in the span (with --actors), the copy.
  uint64_t size = source.size(), base = 0, all = size * (options.actors.empty() ? 2 : 3);
  ProgressFn pass_progress = part_of(progress, base, all);
  ScanResult scan = scan_log(source, pass_progress);
  if (scan.cancelled) return cancelled();
  if (!scan.header_ok) {
    result.error = "the info header is not whole; nothing to extract";
    return result;
  }
  if (scan.frames.empty()) {
    result.error = "the log has no complete frame; nothing to extract";
    return result;
  }
  const FrameList& frames = scan.frames;

  // The span: frames whose time (the header's date plus their elapsed time) is in [from, to],
  // compared in nanoseconds after the date: exact, where absolute nanoseconds (~1.7e18) would
  // lose their last digits to a double.
  int64_t date = scan.header.date;
  bool dated = date >= 0 && date < 9000000000LL;  // as the summary's start_ns
  long double start_ns = dated ? static_cast<long double>(date) * 1e9L : 0;
  auto clamp_ns = [](long double ns) -> int64_t {
    if (!(ns > -9e18L)) return -INT64_MAX;  // also NaN
    return ns >= 9e18L ? INT64_MAX : static_cast<int64_t>(std::llroundl(ns));
  };
  auto bound_ns = [&](const TimeBound& b, int64_t unset) {
    if (!b.set) return unset;
    long double ns = static_cast<long double>(b.seconds) * 1e9L;
    return clamp_ns(b.relative ? ns : ns - start_ns);
  };
  int64_t from = bound_ns(options.from, -INT64_MAX), to = bound_ns(options.to, INT64_MAX);
  auto frame_ns = [&](const FrameEntry& f) { return clamp_ns(static_cast<long double>(f.elapsed) * 1e9L); };
  // The first frame not before `from`, and one past the last frame not after `to` (times may go
  // backwards in a damaged log): one pass, in order, as the list decodes best.
  size_t first = frames.size(), last = 0;
  for (auto it = frames.begin(); it != frames.end(); ++it) {
    int64_t ns = frame_ns(*it);
    if (first == frames.size() && ns >= from) first = it.index();
    if (ns <= to) last = it.index() + 1;
  }
  if (first >= last) {
    auto bound = [&](const TimeBound& b, const char* none) {
      if (!b.set) return std::string(none);
      return b.relative ? "+" + seconds_text(b.seconds) + " s" : seconds_text(b.seconds, "%.12g") + " (Unix seconds)";
    };
    result.error = "no complete frame lies between " + bound(options.from, "the start") + " and " + bound(options.to, "the end") + " (the log's " +
                   std::to_string(frames.size()) + " complete frames run from " + seconds_text(frames.front().elapsed) + " to " +
                   seconds_text(frames.back().elapsed) + " s after its start); nothing written";
    return result;
  }
  --last;  // the index of the span's last frame
  uint64_t cut = frames[first].offset, span_end = frames[last].end;

  // --actors: the actors created in the span and the parents named in it, before anything is
  // written (a parent attached in the span must be in the cut from its first frame on).
  ActorSelection selection;
  selection.choose(options.actors);
  std::set<uint32_t> created_in_span;
  std::set<std::pair<uint32_t, uint32_t>> links;
  const Variant& variant = scan.variant.variant;
  if (!selection.all()) {
    base = size;
    auto wanted = [](uint8_t id) { return id == kEventAdd || id == kEventParent; };
    auto visit = [&](const FrameStartRecord&, const PacketRef& packet, const uint8_t* payload) {
      DecodedPacket p;
      decode_packet(packet.id, payload, packet.size, variant, &p);
      for (const EventAddRecord& r : p.records(packets::EventAdd)) created_in_span.insert(r.id);
      for (const ParentRecord& r : p.records(packets::EventParent)) links.insert({r.id, r.parent});
    };
    if (!stream_packets(source, scan, pass_progress, wanted, visit, cut, span_end)) return cancelled();
    base = 2 * size;
  } else {
    base = size;
  }

  // One pass from the header to the span's end: the actors' lives up to the cut, then the span.
  std::vector<uint8_t> header = source.read_vector(0, scan.header.size);
  if (header.size() != scan.header.size) {
    result.error = "reading the info header failed";
    return result;
  }
  PacketOut writer(out);
  ActorLives lives(variant);
  CutCounts counts;
  SpanWriter span(writer, scan, first, last, selection, counts);
  bool started = false;
  uint64_t date_shift = 0;
  ProgressTicker ticker(progress, all);
  PacketStream stream(source, scan.header.size, span_end);
  PacketRef packet;
  while (stream.next(&packet) == PacketWalker::Step::Packet) {
    if (!ticker.update(base + packet.offset)) return cancelled();
    if (packet.offset < cut) {
      if (!ActorLives::wants(packet.id)) continue;
      const uint8_t* payload = stream.payload(packet, packet.size);
      if (payload) lives.packet(packet, payload);
      else ++counts.too_large;
      continue;
    }
    if (!started) {
      started = true;
      if (!selection.all()) {
        for (uint32_t id : options.actors)
          if (!lives.alive().count(id) && !created_in_span.count(id)) {
            result.error = "actor " + std::to_string(id) + " does not exist in frames " + std::to_string(frames[first].id) + "-" +
                           std::to_string(frames[last].id) + " (it is neither alive at the first nor created in them); nothing written";
            return result;
          }
        for (const auto& [id, life] : lives.alive()) {
          uint32_t parent = 0;
          if (ActorLives::parent_of(life, &parent)) links.insert({id, parent});
        }
        selection.close_over(links);
      }
      // The header as the source's, its date moved forward by the whole seconds cut away, so that
      // frame times (date + elapsed) stay within a second of the source's.
      double skipped = frames[first].elapsed;
      if (dated && skipped >= 1 && skipped < 1e9) date_shift = static_cast<uint64_t>(skipped);
      int64_t new_date = date + static_cast<int64_t>(date_shift);
      size_t date_at = 2 + 2 + scan.header.magic.size();
      std::memcpy(header.data() + date_at, &new_date, 8);
      writer.bytes(header.data(), header.size());
      span.recreate(lives);
    }
    span.packet(packet, stream.payload(packet, packet.size));
    if (!writer.ok()) break;
  }
  if (!writer.flush()) {
    result.error = "writing the new log failed: " + out.error();
    return result;
  }
  if (!span.finished()) {
    result.error = "the log changed or could not be read while extracting (the span ends early at byte " + std::to_string(stream.position()) + ")";
    return result;
  }

  const FrameEntry begin = frames[first], end = frames[last];
  result.kept.push_back("frames " + std::to_string(begin.id) + "-" + std::to_string(end.id) + " (" + std::to_string(counts.frames) +
                        " frames at " + seconds_text(begin.elapsed) + "-" + seconds_text(end.elapsed) + " s, " + bytes_range(cut, span_end) +
                        "), renumbered 1-" + std::to_string(counts.frames) + " from elapsed 0; the last frame's duration is -1");
  result.kept.push_back("the info header (" + std::to_string(scan.header.size) + " bytes), its date moved forward by " +
                        std::to_string(date_shift) + " s (the whole seconds before the first frame kept)");
  if (!selection.all()) {
    std::set<uint32_t> chosen(options.actors.begin(), options.actors.end()), parents;
    for (uint32_t id : selection.kept())
      if (!chosen.count(id)) parents.insert(id);
    result.kept.push_back(std::string("the records of actor") + (chosen.size() == 1 ? " " : "s ") + id_list(chosen) + (parents.empty() ? "" : " and of the parents they are attached to, " + id_list(parents)) +
                          "; records of no actor (frame clocks, scene lights, user packets) whole");
  }
  result.kept.push_back(std::to_string(counts.recreated) + (counts.recreated == 1 ? " actor" : " actors") + " alive at frame " + std::to_string(begin.id) +
                        " created again in frame 1 (EventAdd), " + std::to_string(counts.parents_recreated) + " attached to their parent (EventParent), " +
                        std::to_string(counts.spawn_records) + " spawn-time records carried with them (bounding boxes, trigger volumes, physics, traffic light times)");
  if (first > 0)
    result.dropped.push_back(std::to_string(first) + " frames before frame " + std::to_string(begin.id) + ", " + bytes_range(scan.header.size, cut));
  if (last + 1 < frames.size())
    result.dropped.push_back(std::to_string(frames.size() - last - 1) + " frames after frame " + std::to_string(end.id) + ", " +
                             bytes_range(span_end, scan.data_end));
  for (const auto& [kind, n] : counts.records_dropped)
    result.dropped.push_back(std::to_string(n) + " " + kind + " records of other actors");
  if (counts.mixed_collisions)
    result.dropped.push_back(std::to_string(counts.mixed_collisions) + " of those collisions involve a kept actor and a dropped one (give both to keep them)");
  for (const auto& [kind, n] : counts.packets_unsplit)
    result.dropped.push_back(std::to_string(n) + " " + kind + " packets whole: their records cannot be told apart by actor (layout unknown or not fitting)");
  if (counts.dangling_parents)
    result.dropped.push_back(std::to_string(counts.dangling_parents) + " attachments of re-created actors to parents destroyed before the cut");
  if (counts.packets_outside)
    result.dropped.push_back(std::to_string(counts.packets_outside) + " packets between frames (outside FrameStart ... FrameEnd)");
  if (counts.too_large)
    result.dropped.push_back(std::to_string(counts.too_large) + " packets too large to read (over " + format_bytes(SequentialReader::Options().max_view) + ")");
  if (counts.frame_ends_added)
    result.kept.push_back(std::to_string(counts.frame_ends_added) + " frames without a FrameEnd closed with one");
  if (scan.recovery.damaged)
    result.dropped.push_back(std::to_string(size - std::min(size, scan.data_end)) + " bytes from byte " + std::to_string(scan.data_end) +
                             " to the end: " + scan.recovery.message);
  result.bytes_written = out.written();
  result.ok = true;
  return result;
}

}  // namespace logscope::carla
