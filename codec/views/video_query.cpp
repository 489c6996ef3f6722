// The images query's CompressedVideo part (video_query.h): the keyframe index is one walk with
// whole bytes over the video topics (their frames are small next to raw images); the frame at a
// position is read with the frames from its keyframe, by one walk over their time span.
#include "views/video_query.h"

#include <algorithm>

#include "views/image_frames.h"
#include "views/view_support.h"

namespace logscope::views {
namespace {

constexpr uint64_t kMaxFrames = 12ull << 20;  // frames indexed per file (16 bytes each)
constexpr size_t kMaxListed = 100000;         // video_frames listed in one answer

struct VideoEntry {
  uint64_t time_ns;
  uint32_t size;   // the frame's bytes (capped at 4 GiB - 1)
  uint16_t rank;   // among the topic's frames at the same time, in the file's order
  bool key;
  bool ok;
};

class VideoCache : public WalkedCache {
 public:
  std::vector<std::vector<VideoEntry>> frames;  // per topic, sorted by time then rank
  uint64_t kept = 0;
  Frame frame;

  bool take(const SourceMessage& m, size_t topic_index) override {
    if (frames.size() < topics.size()) frames.resize(topics.size());
    if (kept >= kMaxFrames) {
      truncated = "the images view indexes " + std::to_string(kMaxFrames) + " video frames per file; the frames after " +
                  std::to_string(m.time_ns) + " ns are not listed";
      return false;
    }
    VideoEntry e{m.time_ns, 0, 0, false, false};
    if (m.message) {
      frame_from_message(m.type, *m.message, frame);
      e.ok = frame.ok;
      e.key = frame.ok && frame.key;
      e.size = uint32_t(std::min<uint64_t>(frame.bytes.size(), UINT32_MAX));
    } else {
      not_decoded(m, m.error);
    }
    frames[topic_index].push_back(e);
    ++kept;
    return true;
  }

  void finish() override {
    frames.resize(topics.size());
    for (auto& list : frames) {
      std::stable_sort(list.begin(), list.end(), [](const VideoEntry& a, const VideoEntry& b) { return a.time_ns < b.time_ns; });
      for (size_t i = 1; i < list.size(); ++i)
        if (list[i].time_ns == list[i - 1].time_ns) list[i].rank = uint16_t(std::min<int>(list[i - 1].rank + 1, UINT16_MAX));
    }
  }
};

Json error_frame(const Frame& f, uint64_t index, bool read) {
  Json j = Json::object();
  j["index"] = index;
  j["time_ns"] = std::to_string(f.time_ns);
  j["type"] = f.type;
  j["ok"] = false;
  j["code"] = f.code;
  j["message"] = f.message;
  j["encoding"] = f.encoding;
  j["place"] = read ? Json(frame_place(f)) : Json();  // a frame not read has no place said
  j["offset"] = f.offset == SourceMessage::kNoOffset ? Json() : Json(f.offset);
  j["in_chunk"] = f.in_chunk;
  j["bytes"] = 0;
  return j;
}

// The frames from (t0, rank0) to (t1, rank1) in time order, read by one walk over [t0, t1].
bool read_run(MessageSource& source, const std::string& topic, const VideoEntry& from, const VideoEntry& to, std::vector<Frame>& run,
              const ProgressFn& progress, std::string* stopped) {
  WalkOptions options;
  options.t0_ns = from.time_ns;
  options.t1_ns = to.time_ns;
  std::vector<Frame> all;
  const bool walked = walk_frames(source, topic, options, 1, [&](Frame& f) {
    all.push_back(std::move(f));
    return true;
  }, progress, stopped);
  if (!walked && stopped->empty()) return false;
  std::stable_sort(all.begin(), all.end(), [](const Frame& a, const Frame& b) { return a.time_ns < b.time_ns; });
  uint64_t at_from = 0, at_to = 0;
  for (Frame& f : all) {
    const uint64_t rank_from = f.time_ns == from.time_ns ? at_from++ : 0, rank_to = f.time_ns == to.time_ns ? at_to++ : 0;
    if (f.time_ns == from.time_ns && rank_from < from.rank) continue;
    if (f.time_ns == to.time_ns && rank_to > to.rank) break;
    run.push_back(std::move(f));
  }
  return true;
}

}  // namespace

bool is_video_type(std::string_view type) { return image_type(type) == ImageType::Video; }

bool video_answer(MessageSource& source, const std::string& topic, bool has_position, uint64_t position, bool list, Json& out,
                  std::string& bytes, const ProgressFn& progress) {
  bytes.clear();
  WalkOptions whole;
  whole.whole_bytes = true;
  auto* cache = view_cache<VideoCache>(source, "images.video", is_video_type, progress, whole);
  if (!cache) return false;
  size_t t = 0;
  while (t < cache->topics.size() && cache->topics[t].topic != topic) ++t;
  static const std::vector<VideoEntry> none;
  const std::vector<VideoEntry>& frames = t < cache->frames.size() ? cache->frames[t] : none;
  Json video = Json::object();
  uint64_t keys = 0;
  for (const VideoEntry& e : frames) keys += e.key;
  video["frames"] = static_cast<uint64_t>(frames.size());
  video["keyframes"] = keys;
  out["video"] = std::move(video);
  if (list) {
    Json listed = Json::array();
    for (size_t i = 0; i < frames.size() && i < kMaxListed; ++i) {
      Json e = Json::object();
      e["time_ns"] = std::to_string(frames[i].time_ns);
      e["key"] = frames[i].key;
      listed.push_back(std::move(e));
    }
    out["video_frames"] = std::move(listed);
  }
  if (!has_position || position >= frames.size()) return true;

  const VideoEntry& at = frames[position];
  Frame f;
  f.time_ns = at.time_ns;
  f.type = cache->topics[t].type;
  if (!at.ok) {  // the frame itself is damaged: read it alone for its reason
    std::vector<Frame> own;
    std::string stopped;
    if (!read_run(source, topic, at, at, own, progress, &stopped)) return false;
    if (!own.empty() && !own.back().ok) {
      f = own.back();
      f.message = "this frame is damaged (" + f.code + ": " + f.message + "): it cannot be decoded, nor can the frames after it until a keyframe";
      f.code = "image.video.damaged";
    } else {
      f.code = "image.frame.missing";
      f.message = "the frame was not found when read again" + (stopped.empty() ? std::string() : ": " + stopped);
    }
    out["frame"] = error_frame(f, position, true);
    return true;
  }
  // The keyframe at or before the frame, within the cap.
  uint64_t k = position, run_bytes = 0;
  bool found = false;
  for (;;) {
    run_bytes += frames[k].size;
    if (frames[k].key) {
      found = true;
      break;
    }
    if (k == 0 || position - k + 1 >= kMaxVideoRun || run_bytes > kMaxVideoRunBytes) break;
    --k;
  }
  if (!found) {
    f.code = k == 0 ? "image.video.no_keyframe" : "image.video.too_far";
    f.message = k == 0 ? "no keyframe at or before this frame: a decoder cannot start before it, so it cannot be shown"
                       : "the keyframe before this frame is more than " + std::to_string(position - k + 1) + " frames (or " +
                             std::to_string(kMaxVideoRunBytes >> 20) + " MiB) back: logscope hands over at most " +
                             std::to_string(kMaxVideoRun) + " frames from a keyframe";
    out["frame"] = error_frame(f, position, false);
    return true;
  }
  std::vector<Frame> run;
  std::string stopped;
  if (!read_run(source, topic, frames[k], at, run, progress, &stopped)) return false;
  const bool all_ok = std::all_of(run.begin(), run.end(), [](const Frame& r) { return r.ok; });
  if (run.size() != position - k + 1 || !all_ok || !run.front().key) {
    const Frame* bad = nullptr;
    for (const Frame& r : run)
      if (!r.ok) bad = bad ? bad : &r;
    if (bad) {
      f = *bad;
      f.message = "the frame at " + std::to_string(bad->time_ns) + " ns between the keyframe and this one is damaged (" + bad->code + ": " +
                  bad->message + "); a decoder cannot go past it";
      f.code = "image.video.damaged";
      f.time_ns = at.time_ns;
    } else {
      f.code = "image.frame.missing";
      f.message = "the video frames from the keyframe to this one were not all found when read again" +
                  (stopped.empty() ? std::string() : ": " + stopped);
    }
    out["frame"] = error_frame(f, position, true);
    return true;
  }
  const Frame& last = run.back();
  Json j = Json::object();
  j["index"] = position;
  j["time_ns"] = std::to_string(last.time_ns);
  j["type"] = last.type;
  j["ok"] = true;
  j["encoding"] = last.encoding;
  j["kind"] = "video";
  j["place"] = frame_place(last);
  j["offset"] = last.offset == SourceMessage::kNoOffset ? Json() : Json(last.offset);
  j["in_chunk"] = last.in_chunk;
  Json v = Json::object();
  v["key"] = last.key;
  v["first_index"] = k;
  v["codec_string"] = run.front().codec_string.empty() ? Json() : Json(run.front().codec_string);
  Json pieces = Json::array();
  for (Frame& r : run) {
    Json piece = Json::object();
    piece["time_ns"] = std::to_string(r.time_ns);
    piece["bytes"] = static_cast<uint64_t>(r.bytes.size());
    piece["key"] = r.key;
    pieces.push_back(std::move(piece));
    bytes += r.bytes;
  }
  v["run"] = std::move(pieces);
  j["video"] = std::move(v);
  j["bytes"] = static_cast<uint64_t>(bytes.size());
  out["frame"] = std::move(j);
  return true;
}

ResultUnits video_units() {
  return {{"video.frames", Unit::Count},          {"video.keyframes", Unit::Count},           {"video_frames.time_ns", Unit::TimeNs},
          {"video_frames.key", Unit::Flag},       {"frame.video.key", Unit::Flag},            {"frame.video.first_index", Unit::Id},
          {"frame.video.codec_string", Unit::Text}, {"frame.video.run.time_ns", Unit::TimeNs}, {"frame.video.run.bytes", Unit::Bytes},
          {"frame.video.run.key", Unit::Flag}};
}

}  // namespace logscope::views
