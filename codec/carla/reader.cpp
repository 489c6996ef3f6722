// The forward scan: header, frame index, packet statistics, layout-variant detection and the
// framing findings of the doctor, in one pass over the file.
#include "carla/reader.h"
#include "carla/scanner.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "carla/decode.h"
#include "carla/packet_table.h"
#include "carla/walker.h"
#include "core/cursor.h"

namespace logscope::carla {

void ProblemLog::add(Severity severity, uint64_t offset, const std::string& code, const std::string& message) {
  if (++counts_[code] <= per_code_) problems_.push_back(Problem{severity, offset, code, message});
}

std::vector<Problem> ProblemLog::finish() const {
  std::vector<Problem> out = problems_;
  for (const auto& [code, count] : counts_) {
    if (count <= per_code_) continue;
    Severity severity = Severity::Info;
    for (const Problem& p : problems_)
      if (p.code == code) severity = p.severity;
    out.push_back(Problem{severity, 0, code,
                          std::to_string(count - per_code_) + " more problems like this (" + std::to_string(count) + " in all); only the first " +
                              std::to_string(per_code_) + " are listed"});
  }
  return out;
}

bool read_header(ByteSource& source, LogHeader* header, Problem* problem) {
  std::vector<uint8_t> head = source.read_vector(0, 2 + 2 + 0xFFFF + 8 + 2 + 0xFFFF);
  Cursor c(head.data(), head.size());
  header->version = c.u16();
  uint16_t magic_length = c.u16();
  header->magic = c.string(magic_length);
  header->date = c.i64();
  uint16_t map_length = c.u16();
  header->map = c.string(map_length);
  header->size = c.position();
  if (c.ok() && header->magic == "CARLA_RECORDER") return true;
  static const char kMagicBytes[] = "\x0e\x00" "CARLA_RECORDER";
  bool magic_prefix = head.size() > 2 && std::memcmp(head.data() + 2, kMagicBytes, std::min<size_t>(16, head.size() - 2)) == 0;
  if (!c.ok() && (magic_prefix || head.size() <= 2)) {
    *problem = Problem{Severity::Error, 0, "carla.header.truncated",
                       "the file ends inside its info header (" + std::to_string(head.size()) + " bytes; a header needs at least 34)"};
  } else {
    *problem = Problem{Severity::Error, 0, "carla.header.bad_magic", "File is not a CARLA recorder"};
  }
  return false;
}

// Candidate layouts: vectors (float/double) x wheels (48/36) x numbering of ids >= 21.
Variant variant_candidate(int c) {
  Variant v;
  v.doubles = c >= 6;
  v.wheel_bytes = (c / 3) % 2 ? 36 : 48;
  v.order = static_cast<IdOrder>(c % 3);
  return v;
}

int variant_candidate_index(const Variant& variant) {
  for (int c = 0; c < kVariantCandidates; ++c) {
    Variant v = variant_candidate(c);
    if (v.doubles == variant.doubles && v.wheel_bytes == variant.wheel_bytes && v.order == variant.order) return c;
  }
  return -1;
}

namespace {

// Variable-size records are checked by reading them all, order-dependent ids under every
// numbering; Collision payloads are read for their non-actor sides.
// Event packets are kept whole for `info` (EventPackets): a prefix would leave a long EventDel
// or EventParent out of the kept list while the list still says it is complete.
bool needs_whole_payload(uint8_t id) { return variable_size_id(id) || order_dependent(id) || id == kCollision || event_id(id); }

std::string at(uint64_t offset) { return "byte " + std::to_string(offset); }
std::string plural(uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// Collects which candidate layouts each packet fits and picks the variant.
class VariantJudge {
 public:
  void add(const PacketRef& packet, const uint8_t* payload) {
    uint8_t id = packet.id;
    if (!known_in_any_order(id)) return;
    bool fit[kVariantCandidates];
    judge(id, payload, packet.size, fit, nullptr);  // no reasons: most packets fit every candidate
    ++seen_[id];
    bool want_reasons = false;
    for (int c = 0; c < kVariantCandidates; ++c) {
      if (fit[c]) {
        ++fits_[id][c];
        continue;
      }
      ++misfits_[c];
      want_reasons |= first_misfits_[c].size() < 20;
    }
    if (!want_reasons) return;
    std::string why[kVariantCandidates];
    judge(id, payload, packet.size, fit, why);
    for (int c = 0; c < kVariantCandidates; ++c)
      if (!fit[c] && first_misfits_[c].size() < 20) first_misfits_[c].push_back({packet.offset, id, why[c]});
  }

  uint32_t leading() const {
    uint64_t least = *std::min_element(misfits_.begin(), misfits_.end());
    uint32_t mask = 0;
    for (int c = 0; c < kVariantCandidates; ++c)
      if (misfits_[c] == least) mask |= 1u << c;
    return mask;
  }

  VariantDetection decide(ProblemLog& problems) const {
    int best = 0;
    for (int c = 1; c < kVariantCandidates; ++c)
      if (misfits_[c] < misfits_[best]) best = c;  // ties keep the earlier (preferred) candidate
    VariantDetection d;
    d.variant = variant_candidate(best);
    d.misfits = misfits_[best];
    Json evidence = Json::array();
    // Vectors: the packets whose size depends on the vector precision, fixed-size records first
    // (their sizes alone decide), then variable ones, each in id order.
    std::vector<uint8_t> vector_ids;
    for (bool variable : {false, true})
      for (int id = 0; id < kIds; ++id) {
        auto i = static_cast<uint8_t>(id);
        if (vector_sized_id(i) && variable_size_id(i) == variable) vector_ids.push_back(i);
      }
    for (uint8_t id : vector_ids) {
      if (!seen_[id]) continue;
      uint64_t f = fits_[id][best % 6], dbl = fits_[id][6 + best % 6];
      if (f != dbl) d.decisive_vectors = true;
      evidence.push_back(packet_name(id, d.variant) + ": " + std::to_string(f) + " of " + plural(seen_[id], "packet") +
                         " fit float vectors, " + std::to_string(dbl) + " fit double vectors");
    }
    if (!d.decisive_vectors) evidence.push_back("no packet tells float from double vectors; float (UE4) assumed");
    if (seen_[kPhysicsControl] && !d.variant.doubles) {
      int base = best - best % 6;
      uint64_t w48 = fits_[kPhysicsControl][base + best % 3], w36 = fits_[kPhysicsControl][base + 3 + best % 3];
      d.decisive_wheels = w48 != w36;
      evidence.push_back("PhysicsControl: " + std::to_string(w48) + " of " + plural(seen_[kPhysicsControl], "packet") + " fit 48-byte wheels, " +
                         std::to_string(w36) + " fit 36-byte wheels");
    }
    if (!d.decisive_wheels && !d.variant.doubles)
      evidence.push_back(seen_[kPhysicsControl] ? "PhysicsControl packets fit both wheel sizes; 48 bytes assumed"
                                                : "no PhysicsControl packet: the wheel size does not matter for this file (48 bytes assumed)");
    bool any_high = false;
    for (int id = 0; id < kIds; ++id) any_high |= order_dependent(static_cast<uint8_t>(id)) && seen_[id];
    if (any_high) {
      int base = best - best % 3;
      for (int id = 0; id < kIds; ++id) {
        if (!order_dependent(static_cast<uint8_t>(id)) || !seen_[id]) continue;
        std::string line = "id " + std::to_string(id) + " (" + plural(seen_[id], "packet") + "):";
        for (int o = 0; o < 3; ++o) {
          Variant v = variant_candidate(base + o);
          line += std::string(o ? "," : "") + " " + std::to_string(fits_[id][base + o]) + " fit " + packet_name(static_cast<uint8_t>(id), v) +
                  " in the " + (o == 0 ? "0.9.15" : o == 1 ? "dev-doors" : "0.9.16") + " order";
          if (fits_[id][base + o] != fits_[id][best]) d.decisive_order = true;
        }
        evidence.push_back(line);
      }
      if (!d.decisive_order) evidence.push_back("the numbering orders agree on this file; the 0.9.15 order is reported");
    } else {
      evidence.push_back("no packet with an id of " + order_dependent_range() + ": their numbering does not matter for this file");
    }
    for (const Misfit& m : first_misfits_[best])
      problems.add(Severity::Error, m.offset, "carla.packet.size_mismatch",
                   packet_name(m.id, d.variant) + " packet (id " + std::to_string(m.id) + "): " + m.why);
    if (misfits_[best] > first_misfits_[best].size())
      problems.add(Severity::Error, 0, "carla.packet.size_mismatch",
                   std::to_string(misfits_[best] - first_misfits_[best].size()) + " more packets whose declared size disagrees with their layout");
    Json j = Json::object();
    j["label"] = variant_label(d.variant);
    j["vectors"] = d.variant.doubles ? "float64" : "float32";
    j["wheel_physics_bytes"] = d.variant.doubles ? Json() : Json(d.variant.wheel_bytes);
    j["id_order"] = any_high ? Json(id_order_name(d.variant.order)) : Json("not needed (no id " + order_dependent_range() + ")");
    j["packets_not_fitting"] = d.misfits;
    j["evidence"] = std::move(evidence);
    d.json = std::move(j);
    return d;
  }

 private:
  struct Misfit {
    uint64_t offset;
    uint8_t id;
    std::string why;
  };

  // Which candidate layouts a packet of a known id fits; with `why`, also the reason for each misfit.
  static void judge(uint8_t id, const uint8_t* payload, uint32_t size, bool* fit, std::string* why) {
    auto reason = [&](int c) { return why ? &why[c] : nullptr; };
    if (vector_sized_id(id)) {
      bool f = layout_fits(id, payload, size, variant_candidate(0), reason(0));
      bool d = layout_fits(id, payload, size, variant_candidate(6), reason(6));
      for (int c = 0; c < kVariantCandidates; ++c) fit[c] = c < 6 ? f : d;
      if (why)
        for (int c = 0; c < kVariantCandidates; ++c) why[c] = why[c < 6 ? 0 : 6];
    } else if (id == kPhysicsControl) {
      bool w48 = layout_fits(id, payload, size, variant_candidate(0), reason(0));
      bool w36 = layout_fits(id, payload, size, variant_candidate(3), reason(3));
      for (int c = 0; c < kVariantCandidates; ++c) fit[c] = c >= 6 ? true : ((c / 3) % 2 ? w36 : w48);
      if (why)
        for (int c = 0; c < kVariantCandidates; ++c) why[c] = why[(c / 3) % 2 ? 3 : 0];
    } else if (order_dependent(id)) {
      for (int o = 0; o < 3; ++o) {
        // An id the candidate numbering does not use counts against it.
        bool known = packet_type(id, variant_candidate(o)) != nullptr;
        fit[o] = known && layout_fits(id, payload, size, variant_candidate(o), reason(o));
        if (!known && why) why[o] = "the " + std::string(id_order_name(variant_candidate(o).order)) + " numbering has no id " + std::to_string(id);
      }
      for (int c = 3; c < kVariantCandidates; ++c) fit[c] = fit[c % 3];
      if (why)
        for (int c = 3; c < kVariantCandidates; ++c) why[c] = why[c % 3];
    } else {
      bool f = layout_fits(id, payload, size, variant_candidate(0), reason(0));
      for (int c = 0; c < kVariantCandidates; ++c) fit[c] = f;
      if (why)
        for (int c = 1; c < kVariantCandidates; ++c) why[c] = why[0];
    }
  }
  static constexpr int kIds = 100;  // user packets (>= 100) are never judged
  std::array<uint64_t, kIds> seen_{};
  std::array<std::array<uint64_t, kVariantCandidates>, kIds> fits_{};
  std::array<uint64_t, kVariantCandidates> misfits_{};
  std::array<std::vector<Misfit>, kVariantCandidates> first_misfits_;
};

// CARLA version range the file's contents are consistent with: the latest release among the
// packets present (the table's `since`), refined by what records show.
std::string version_hint(const ScanResult& r) {
  if (r.variant.variant.doubles) return "CARLA 0.10.x (UE5)";
  Release latest = latest_release(r.packet_counts);
  auto or_later = [](Release release) { return std::string("CARLA ") + release_name(release) + " or later"; };
  if (latest >= Release::k0_9_15) return r.variant.variant.order == IdOrder::DevDoors ? "CARLA ue4-dev 2023-2025" : or_later(Release::k0_9_15);
  if (latest >= Release::k0_9_14) return or_later(latest);
  if (r.non_actor_collisions) return "CARLA 0.9.13 or later";
  if (r.packet_counts[kPhysicsControl]) return r.variant.variant.wheel_bytes == 36 ? "CARLA 0.9.10-0.9.11" : "CARLA 0.9.12 or later";
  return or_later(latest);
}

}  // namespace

Json VariantDetection::to_json() const { return json; }

// What the scan keeps between packets.
struct LogScanner::State {
  State(ScanResult& result, uint64_t size) : r(result), file_size(size) {}
  void on_packet(const PacketRef& packet, const uint8_t* payload);
  void finish(PacketWalker::Step step, const PacketRef& last, bool cancelled);
  void close_frame(uint64_t end);
  void keep_event(const PacketRef& packet, const uint8_t* payload);
  ScanResult& r;
  uint64_t file_size;
  ProblemLog problems;
  VariantJudge judge;
  bool in_frame = false;
  FrameEntry frame;
  FrameEntry previous;  // the last closed frame, when there is one
  bool has_previous = false;
};

LogScanner::LogScanner(ScanResult& result, uint64_t file_size, ScanRider* rider)
    : state_(std::make_unique<State>(result, file_size)), rider_(rider) {
  result.data_end = result.header.size;
}
LogScanner::~LogScanner() = default;
void LogScanner::on_packet(const PacketRef& packet, const uint8_t* payload) {
  state_->on_packet(packet, payload);
  if (rider_) rider_->on_packet(packet, payload, *this);
}
void LogScanner::finish(PacketWalker::Step step, const PacketRef& last, bool cancelled) { state_->finish(step, last, cancelled); }
uint32_t LogScanner::leading_candidates() const { return state_->judge.leading(); }

size_t LogScanner::payload_need(const PacketRef& packet) {
  return needs_whole_payload(packet.id) ? packet.size : std::min<uint32_t>(packet.size, 24);
}

size_t LogScanner::need(const PacketRef& packet) const {
  return rider_ ? std::max(payload_need(packet), rider_->payload_need(packet)) : payload_need(packet);
}

void LogScanner::State::keep_event(const PacketRef& packet, const uint8_t* payload) {
  EventPackets& events = r.events;
  if (!events.complete) return;
  size_t cost = packet.size + sizeof(EventPackets::Entry);
  if (cost > EventPackets::kBudget - std::min(EventPackets::kBudget, events.bytes.size() + events.packets.size() * sizeof(EventPackets::Entry))) {
    events = EventPackets();
    events.complete = false;
    return;
  }
  events.packets.push_back({packet.offset, packet.id, packet.size, events.bytes.size()});
  events.bytes.insert(events.bytes.end(), payload, payload + packet.size);
}

void LogScanner::State::close_frame(uint64_t end) {
  frame.end = end;
  if (has_previous) {
    if (frame.id != previous.id + 1)
      problems.add(Severity::Warning, frame.offset, "carla.frame.id_gap",
                   "frame id " + std::to_string(frame.id) + " follows frame " + std::to_string(previous.id) + " (ids should count up by one)");
    if (frame.elapsed < previous.elapsed)
      problems.add(Severity::Error, frame.offset, "carla.frame.time_backwards",
                   "frame " + std::to_string(frame.id) + " is at " + std::to_string(frame.elapsed) + " s, before frame " + std::to_string(previous.id) +
                       " at " + std::to_string(previous.elapsed) + " s");
    if (previous.duration == -1.0)
      problems.add(Severity::Error, previous.offset, "carla.frame.duration_missing",
                   "frame " + std::to_string(previous.id) + " keeps the duration -1 that only the last frame should have (its duration was never back-patched)");
    else if (std::fabs(previous.elapsed + previous.duration - frame.elapsed) > 1e-6 * std::max(1.0, std::fabs(frame.elapsed)))
      problems.add(Severity::Warning, frame.offset, "carla.frame.time_inconsistent",
                   "frame " + std::to_string(frame.id) + " starts at " + std::to_string(frame.elapsed) + " s, but the previous frame started at " +
                       std::to_string(previous.elapsed) + " s and lasted " + std::to_string(previous.duration) + " s");
  }
  r.frames.push_back(frame);
  previous = frame;
  has_previous = true;
  r.data_end = end;
  in_frame = false;
}

void LogScanner::State::on_packet(const PacketRef& packet, const uint8_t* payload) {
  uint8_t id = packet.id;
  ++r.packet_counts[id];
  r.packet_bytes[id] += 5 + uint64_t{packet.size};
  if (!payload) {
    problems.add(Severity::Error, packet.offset, "carla.packet.too_large",
                 packet_name(id, Variant()) + " packet declares " + std::to_string(packet.size) + " payload bytes: too large to check; skipped");
    return;
  }
  if (id == kFrameStart) {
    if (in_frame) {
      problems.add(Severity::Error, packet.offset, "carla.frame.missing_end",
                   "frame " + std::to_string(frame.id) + " (at " + at(frame.offset) + ") has no FrameEnd before the next FrameStart");
      close_frame(packet.offset);
    }
    if (packet.size != 24) {
      judge.add(packet, payload);
      return;
    }
    frame = FrameEntry();
    Cursor c(payload, 24);
    frame.id = c.u64();
    frame.duration = c.f64();
    frame.elapsed = c.f64();
    frame.offset = packet.offset;
    frame.packets = 1;
    in_frame = true;
    return;
  }
  judge.add(packet, payload);
  if (!in_frame) {
    ++r.packets_outside_frames;
    problems.add(Severity::Warning, packet.offset, "carla.packet.outside_frame",
                 packet_name(id, Variant()) + " packet (id " + std::to_string(id) + ") is outside any frame (not between FrameStart and FrameEnd)");
    return;
  }
  ++frame.packets;
  if (id == kFrameEnd) {
    close_frame(packet.end());
    return;
  }
  if (event_id(id) && packet.size >= 2 && (payload[0] | payload[1])) {
    frame.has_events = true;
    if (payload_need(packet) == packet.size) keep_event(packet, payload);
  }
  if (id == kCollision && packet.size >= 2) {
    Cursor c(payload, packet.size);
    uint16_t total = c.u16();
    for (uint16_t i = 0; i < total && c.remaining() >= 14; ++i) {
      c.u32();
      uint32_t a = c.u32(), b = c.u32();
      c.skip(2);
      r.non_actor_collisions += (a == kNoActor) + (b == kNoActor);
    }
  }
  if (id < 100 && !known_in_any_order(id))
    problems.add(Severity::Warning, packet.offset, "carla.packet.unknown_id",
                 "packet id " + std::to_string(id) + " is not a CARLA packet (ids 0-" + std::to_string(highest_known_id()) +
                     ", user packets from 100); skipped by its size (" +
                     std::to_string(packet.size) + " bytes)");
}

void LogScanner::State::finish(PacketWalker::Step step, const PacketRef& last, bool cancelled) {
  // Where and why reading stopped.
  Recovery& rec = r.recovery;
  r.cancelled = cancelled;
  if (r.cancelled) {
    rec.damaged = true;
    rec.reason = "cancelled";
    rec.ends_at = last.offset;
    rec.message = "cancelled at " + at(last.offset);
  } else if (step != PacketWalker::Step::End || in_frame) {
    rec.damaged = true;
    rec.ends_at = file_size;
    rec.incomplete_offset = in_frame ? frame.offset : last.offset;
    rec.incomplete_frame_id = in_frame ? frame.id : 0;
    std::string where;
    if (step == PacketWalker::Step::CutInHeader) {
      rec.reason = "cut_in_packet_header";
      where = "inside a packet header at " + at(last.offset) + " (" + plural(file_size - last.offset, "byte") + " of 5)";
    } else if (step == PacketWalker::Step::CutInPayload) {
      rec.reason = "cut_in_payload";
      where = "inside the payload of a " + packet_name(last.id, Variant()) + " packet (id " + std::to_string(last.id) + ") at " + at(last.offset) +
              " that declares " + plural(last.size, "byte") + " (" + std::to_string(file_size - last.payload()) + " present)";
    } else {
      rec.reason = "frame_without_end";
      where = "after the packet ending at " + at(file_size) + ", before the frame's FrameEnd";
    }
    rec.message = "the file ends at " + at(file_size) + " " + where + "; " + plural(r.frames.size(), "complete frame") + " recovered up to " +
                  at(r.data_end);
    if (in_frame)
      rec.message += "; frame " + std::to_string(frame.id) + " (from " + at(frame.offset) + ") is incomplete and not counted";
    problems.add(Severity::Error, last.offset, "carla.file.truncated", rec.message);
  } else if (!r.frames.empty() && r.frames.back().duration != -1.0) {
    problems.add(Severity::Warning, r.frames.back().offset, "carla.frame.last_duration",
                 "the last frame (" + std::to_string(r.frames.back().id) + ") has duration " + std::to_string(r.frames.back().duration) +
                     " instead of -1: the recording was probably cut at a frame boundary");
  }
  if (!r.frames.empty() && r.frames.back().duration == -1.0 && !rec.damaged)
    problems.add(Severity::Info, r.frames.back().offset, "carla.frame.last_duration",
                 "the last frame keeps duration -1, as CARLA writes it (expected)");
  r.variant = judge.decide(problems);
  r.variant.json["carla_version_hint"] = version_hint(r);
  r.problems = problems.finish();
}

ScanResult scan_log(ByteSource& source, const ProgressFn& progress, ScanRider* rider) {
  ScanResult r;
  uint64_t file_size = source.size();
  Problem header_problem;
  r.header_ok = read_header(source, &r.header, &header_problem);
  if (!r.header_ok) {
    r.problems.push_back(header_problem);
    r.recovery.damaged = true;
    r.recovery.reason = header_problem.code == "carla.header.truncated" ? "cut_in_header" : "not_carla";
    r.recovery.ends_at = file_size;
    r.recovery.message = header_problem.message;
    return r;
  }
  LogScanner scanner(r, file_size, rider);
  PacketStream walker(source, r.header.size, file_size);
  ProgressTicker ticker(progress, file_size);
  PacketRef packet;
  PacketWalker::Step step;
  bool cancelled = false;
  while ((step = walker.next(&packet)) == PacketWalker::Step::Packet) {
    if (!ticker.update(packet.offset)) {
      cancelled = true;
      break;
    }
    scanner.on_packet(packet, walker.payload(packet, scanner.need(packet)));
  }
  scanner.finish(step, packet, cancelled);
  return r;
}

}  // namespace logscope::carla
