// The doctor (doctor.h): the scan's framing findings, then a second pass over the packets for
// references between actors, pulled or with the log pushed in.
#include "carla/doctor.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "carla/decode.h"
#include "carla/packets_frame.h"
#include "carla/packet_table.h"
#include "carla/reader.h"
#include "carla/scanner.h"
#include "carla/stream.h"
#include "carla/summary.h"
#include "carla/walker.h"
#include "core/sequential.h"

namespace logscope::carla {
namespace {

// Actor lives as the packets tell them; the table's check hooks (packets_*.h) call it.
class ActorLives : public ActorCheck {
 public:
  explicit ActorLives(ProblemLog& log) : log_(log) {}
  // A copy that writes to `log` (a branch of ActorReferencesAlongside).
  ActorLives(const ActorLives& other, ProblemLog& log)
      : log_(log),
        actors_(other.actors_),
        frame_(other.frame_),
        offset_(other.offset_),
        non_actor_sides_(other.non_actor_sides_),
        first_non_actor_(other.first_non_actor_) {}

  void at(const FrameStartRecord& frame, const PacketRef& packet) { frame_ = frame.id, offset_ = packet.offset; }

  void created(uint32_t id, const std::string& blueprint) override {
    if (actors_.life(id) == Life::Alive)
      warn("carla.actor.created_twice", "actor " + std::to_string(id) + " (" + blueprint + ") is created again" + in_frame() + " while it still exists");
    actors_.set(id, Life::Alive);
  }
  void destroyed(uint32_t id) override {
    Life life = actors_.life(id);
    if (life == Life::Never)
      warn("carla.actor.destroy_unknown", "actor " + std::to_string(id) + " is destroyed" + in_frame() + " but was never created");
    else if (life == Life::Destroyed)
      warn("carla.actor.destroyed_twice", "actor " + std::to_string(id) + " is destroyed again" + in_frame());
    else
      actors_.set(id, Life::Destroyed);
  }
  bool known(uint32_t id) const override { return actors_.life(id) != Life::Never; }
  void not_an_actor() override {
    if (!non_actor_sides_++) first_non_actor_ = offset_;
  }
  void warn(const char* code, const std::string& message) override { log_.add(Severity::Warning, offset_, code, message); }
  std::string in_frame() const override { return " in frame " + std::to_string(frame_); }

  void finish() {
    if (non_actor_sides_)
      log_.add(Severity::Info, first_non_actor_, "carla.collision.non_actor",
               std::to_string(non_actor_sides_) +
                   " collision sides are not actors (id 0xFFFFFFFF: static geometry such as walls or poles; written since CARLA 0.9.13)");
  }

 private:
  enum class Life : uint8_t { Never, Alive, Destroyed };
  // Every position of every frame asks for its actor: ids are small counters in CARLA, so the
  // first 64 Ki are a flat table (grown to the largest seen), the rest a map.
  class Book {
   public:
    Life life(uint32_t id) const {
      if (id < dense_.size()) return dense_[id];
      if (id < kDense) return Life::Never;
      auto it = sparse_.find(id);
      return it == sparse_.end() ? Life::Never : it->second;
    }
    void set(uint32_t id, Life life) {
      if (id >= kDense) {
        sparse_[id] = life;
        return;
      }
      if (id >= dense_.size()) dense_.resize(id + 1, Life::Never);
      dense_[id] = life;
    }

   private:
    static constexpr uint32_t kDense = 1u << 16;
    std::vector<Life> dense_;
    std::unordered_map<uint32_t, Life> sparse_;
  };
  ProblemLog& log_;
  Book actors_;
  uint64_t frame_ = 0, offset_ = 0;
  uint64_t non_actor_sides_ = 0, first_non_actor_ = 0;
};

// The steps of the doctor's second pass, which the pulled pass (check_actor_references) and the
// pushed one (ActorReferenceFeed) both drive: references between actors (destroy, parent, position,
// collision) that point at actors the log never created.
class ActorReferenceCheck {
 public:
  explicit ActorReferenceCheck(const Variant& variant) : variant_(variant), lives_(log_) {}
  ActorReferenceCheck(const ActorReferenceCheck& other) : variant_(other.variant_), log_(other.log_), lives_(other.lives_, log_) {}
  ActorReferenceCheck& operator=(const ActorReferenceCheck&) = delete;
  // Candidates that read every packet so far alike share a check; the next packet is read under
  // the variant of the candidates it goes to.
  void set_variant(const Variant& variant) { variant_ = variant; }

  // Whether packets of this id are checked (their payload is needed).
  bool wants(uint8_t id) const {
    const PacketType* type = packet_type(id, variant_);
    return type && type->has_check();
  }
  // A wanted packet, with its whole payload, in the frame that holds it.
  void packet(const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    lives_.at(frame, packet);
    check_packet(packet.id, payload, packet.size, variant_, lives_);
  }
  std::vector<Problem> finish() {
    lives_.finish();
    return log_.finish();
  }

 private:
  Variant variant_;
  ProblemLog log_;
  ActorLives lives_;  // after log_, which it writes to
};

std::vector<Problem> check_actor_references(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, bool* cancelled) {
  ActorReferenceCheck check(scan.variant.variant);
  *cancelled = !stream_packets(source, scan, progress, [&](uint8_t id) { return check.wants(id); },
                               [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) { check.packet(frame, packet, payload); });
  return check.finish();
}

// stream_packets with the bytes pushed: the frame start packets set the frame, wanted packets
// are checked with their whole payload (none beyond the walker's largest view, as pulled).
class ActorReferenceFeed : public ByteFeed {
 public:
  ActorReferenceFeed(const ScanResult& scan, std::function<Json(std::vector<Problem>&&)> answer)
      : begin_(scan.header.size),
        end_(std::max(scan.data_end, scan.header.size)),
        check_(scan.variant.variant),
        packets_(begin_, end_, SequentialReader::Options().max_view,
                 [this](const PacketRef& packet) -> size_t { return check_.wants(packet.id) ? packet.size : is_frame_start(packet) ? 24 : 0; },
                 [this](const PacketRef& packet, const uint8_t* payload) { visit(packet, payload); }),
        answer_(std::move(answer)) {}

  uint64_t begin() const override { return begin_; }
  uint64_t end() const override { return end_; }
  void update(const uint8_t* data, size_t size) override { packets_.push(data, size); }

  Json finish(const std::string& error, bool cancelled) override {
    PacketWalker::Step step;
    PacketRef last;
    if (auto early = unless_complete(packets_.ended(&step, &last), cancelled, error)) return *early;
    return answer_(check_.finish());
  }

 private:
  void visit(const PacketRef& packet, const uint8_t* payload) {
    if (is_frame_start(packet)) {
      if (!payload) return;
      frame_ = frame_start_record(payload);
    }
    if (payload && check_.wants(packet.id)) check_.packet(frame_, packet, payload);
  }

  uint64_t begin_, end_;
  ActorReferenceCheck check_;
  FrameStartRecord frame_;
  PacketFeed packets_;
  std::function<Json(std::vector<Problem>&&)> answer_;
};

// The second pass riding along the scan (scanner.h), under every layout variant still in the lead:
// the scan decides the variant only at its end. Candidates that read every packet so far alike
// share one check, split when a packet reads differently under them; a candidate that falls
// behind is dropped. At the end, the check of the decided candidate has seen exactly what the
// second pass would have, unless that candidate was dropped on the way, or packets after the
// log's complete part were read (a file cut inside a frame).
class ActorReferencesAlongside : public ScanRider {
 public:
  ActorReferencesAlongside() {
    branches_.push_back({(1u << kVariantCandidates) - 1, std::make_unique<ActorReferenceCheck>(variant_candidate(0))});
    for (int id = 0; id < 256; ++id)
      for (int c = 0; c < kVariantCandidates; ++c) {
        const PacketType* type = packet_type(static_cast<uint8_t>(id), variant_candidate(c));
        if (type && type->has_check()) wanted_[id] = true;
        int same = 0;  // the first candidate that reads `id` as c does
        while (!(reading(static_cast<uint8_t>(id), same) == reading(static_cast<uint8_t>(id), c))) ++same;
        reads_as_[id][c] = static_cast<uint8_t>(same);
      }
  }

  size_t payload_need(const PacketRef& packet) const override {
    if (is_frame_start(packet)) return 24;
    return wanted_[packet.id] && fits_one_view(packet.size, SequentialReader::Options().max_view) ? packet.size : 0;
  }

  void on_packet(const PacketRef& packet, const uint8_t* payload, const LogScanner& scanner) override {
    if (branches_.empty()) return;
    if (is_frame_start(packet) && payload) frame_ = frame_start_record(payload);
    if (!wanted_[packet.id]) return;
    read_end_ = packet.end();
    // More than a pass holds: the second pass skips it too (the scanner may still have its first bytes).
    if (!payload || payload_need(packet) != packet.size) return;
    split(packet.id, scanner.leading_candidates());
    for (Branch& branch : branches_) {
      Variant variant = variant_candidate(lowest(branch.candidates));
      const PacketType* type = packet_type(packet.id, variant);
      if (!type || !type->has_check()) continue;
      branch.check->set_variant(variant);
      branch.check->packet(frame_, packet, payload);
    }
  }

  // The second pass's findings, or nothing when the second pass must run (`why` says why).
  std::optional<std::vector<Problem>> findings(const ScanResult& scan, std::string* why) {
    if (scan.cancelled) return none(why, "the scan was cancelled");
    if (read_end_ > scan.data_end) return none(why, "the log ends inside a frame, after the packets that were checked with the scan");
    int decided = variant_candidate_index(scan.variant.variant);
    for (Branch& branch : branches_)
      if (decided >= 0 && branch.candidates & (1u << decided)) return branch.check->finish();
    return none(why, "the layout variant decided at the end of the scan fell behind on the way");
  }

 private:
  struct Branch {
    uint32_t candidates;  // bit c: variant_candidate(c)
    std::unique_ptr<ActorReferenceCheck> check;
  };
  // What decides how a packet of `id` reads under candidate c.
  struct Reading {
    const PacketType* type;
    bool doubles;
    int wheel_bytes;
    bool operator==(const Reading& o) const { return type == o.type && doubles == o.doubles && wheel_bytes == o.wheel_bytes; }
  };
  static Reading reading(uint8_t id, int c) {
    Variant v = variant_candidate(c);
    return {packet_type(id, v), v.doubles, id == kPhysicsControl ? v.wheel_bytes : 0};
  }
  static int lowest(uint32_t mask) { return __builtin_ctz(mask); }
  static std::nullopt_t none(std::string* why, const char* text) {
    if (why) *why = text;
    return std::nullopt;
  }

  // Whether every candidate of `mask` reads `id` alike.
  bool alike(uint8_t id, uint32_t mask) const {
    uint8_t first = reads_as_[id][lowest(mask)];
    for (uint32_t rest = mask; rest; rest &= rest - 1)
      if (reads_as_[id][lowest(rest)] != first) return false;
    return true;
  }

  // Drops the candidates out of the lead, and splits each branch by how its candidates read `id`.
  void split(uint8_t id, uint32_t leading) {
    bool same = true;  // nearly always, after the first packets: nothing to rebuild
    for (const Branch& branch : branches_) same = same && (branch.candidates & leading) == branch.candidates && alike(id, branch.candidates);
    if (same) return;
    std::vector<Branch> next;
    for (Branch& branch : branches_) {
      uint32_t left = branch.candidates & leading;
      while (left) {
        Reading first = reading(id, lowest(left));
        uint32_t group = 0;
        for (uint32_t rest = left; rest; rest &= rest - 1)
          if (reading(id, lowest(rest)) == first) group |= 1u << lowest(rest);
        left &= ~group;
        // The last group takes the branch's check; the others take copies of it.
        auto check = left ? std::make_unique<ActorReferenceCheck>(*branch.check) : std::move(branch.check);
        next.push_back({group, std::move(check)});
      }
    }
    branches_ = std::move(next);
  }

  std::vector<Branch> branches_;
  bool wanted_[256] = {};  // a check reads this id under some candidate
  uint8_t reads_as_[256][kVariantCandidates] = {};  // the first candidate that reads the id alike
  FrameStartRecord frame_;
  uint64_t read_end_ = 0;  // the end of the last wanted packet
};

// The check's report: the summary with the second pass's findings.
Report finish_check(Report report, std::vector<Problem> problems, bool cancelled) {
  for (Problem& p : problems) report.problems.push_back(std::move(p));
  if (cancelled) report.details["cancelled"] = true;
  report.details["checksum"] = checksum_json();
  return report;
}

}  // namespace

Json checksum_json() {
  Json j = Json::object();
  j["status"] = "not_applicable";
  j["message"] = "CARLA recorder logs carry no checksum";
  return j;
}

Report run_doctor(ByteSource& source, const ScanResult& scan, const ProgressFn& progress) {
  Report report = summary_report(scan, source.size());
  if (scan.cancelled) {
    report.details["cancelled"] = true;
    return report;
  }
  bool cancelled = false;
  std::vector<Problem> problems = check_actor_references(source, scan, progress, &cancelled);
  return finish_check(std::move(report), std::move(problems), cancelled);
}

Report run_check(ByteSource& source, std::optional<ScanResult>& kept, const ProgressFn& progress) {
  if (kept && !kept->cancelled) return run_doctor(source, *kept, progress);
  ActorReferencesAlongside alongside;
  kept = scan_log(source, progress, &alongside);
  std::optional<std::vector<Problem>> found = alongside.findings(*kept, nullptr);
  if (!found) return run_doctor(source, *kept, progress);
  return finish_check(summary_report(*kept, source.size()), std::move(*found), false);
}

std::unique_ptr<ByteFeed> scan_and_check_feed(ByteSource& source, std::function<void(ScanResult&&)> keep) {
  auto rider = std::make_unique<ActorReferencesAlongside>();
  ActorReferencesAlongside* alongside = rider.get();  // owned by the feed, which calls the answer
  uint64_t size = source.size();
  return scan_feed(source, std::move(keep), std::move(rider), [alongside, size](const ScanResult& scan) {
    std::string why;
    std::optional<std::vector<Problem>> found = alongside->findings(scan, &why);
    if (found) return finish_check(summary_report(scan, size), std::move(*found), false).to_json();
    Json answer = Json::object();
    answer["status"] = "incomplete";
    answer["error"] = "the actor references need a second read: " + why;
    return answer;
  });
}

std::unique_ptr<ByteFeed> doctor_feed(ByteSource& source, const ScanResult& scan) {
  if (!scan.header_ok) return nullptr;  // stream_packets reads nothing then
  uint64_t size = source.size();
  return std::make_unique<ActorReferenceFeed>(scan, [&scan, size](std::vector<Problem>&& problems) {
    return finish_check(summary_report(scan, size), std::move(problems), false).to_json();
  });
}

}  // namespace logscope::carla
