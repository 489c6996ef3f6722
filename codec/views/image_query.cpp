// The images query: one light walk per file keeps each image topic's frame times (sorted, with
// the rank of a frame among those at the same time); a frame is then read alone, by a walk over
// its own time with whole bytes, which the formats' indexes turn into a read of its chunk.
#include "views/image_query.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "views/image_frames.h"
#include "views/video_query.h"
#include "views/view_support.h"

namespace logscope::views {
namespace {

constexpr uint64_t kMaxFrames = 12ull << 20;  // frame times kept per file (16 bytes each: 192 MiB)

std::string& frame_bytes() {
  static std::string bytes;
  return bytes;
}

bool is_image_type(std::string_view type) { return image_type(type) != ImageType::None; }

struct FrameTime {
  uint64_t time_ns;
  uint32_t rank;  // among the topic's frames at the same time, in the file's order
};

constexpr size_t kMaxCameras = 64;  // cameras listed per topic of a type that holds cameras

class ImageCache : public WalkedCache {
 public:
  // Per image topic (after finish(): a topic's cameras each stand in its place, topics' order),
  // sorted by time then rank.
  std::vector<std::vector<FrameTime>> frames;
  std::vector<std::string> base;  // after finish(): each image topic's source topic
  uint64_t kept = 0;

  bool take(const SourceMessage& m, size_t topic_index) override {
    if (frames.size() < topics.size()) frames.resize(topics.size());
    if (kept >= kMaxFrames) {
      truncated = "the images view keeps the times of " + std::to_string(kMaxFrames) + " frames per file; the frames after " +
                  std::to_string(m.time_ns) + " ns are not listed";
      return false;
    }
    if (holds_cameras(m.type)) {  // a frame per camera the message holds
      if (!m.message) return not_decoded(m, m.error), true;
      for (const std::string& name : message_cameras(m.type, *m.message)) {
        auto [at, added] = camera_of_.emplace(std::make_pair(topic_index, name), cameras_.size());
        if (added) {
          if (++camera_count_[topic_index] > kMaxCameras) {
            camera_of_.erase(at);
            truncated = "the images view lists " + std::to_string(kMaxCameras) + " cameras of a topic; " + topics[topic_index].topic + " has more";
            continue;
          }
          cameras_.push_back({topic_index, name, {}});
        }
        cameras_[at->second].frames.push_back({m.time_ns, 0});
        ++kept;
      }
      return true;
    }
    // A frame that does not decode stays a frame: reading it names why (image.message.undecoded).
    // (Listed by time alone, no message is decoded: WalkOptions::times_only.)
    if (!m.message && !m.error.empty()) not_decoded(m, m.error);
    frames[topic_index].push_back({m.time_ns, 0});
    ++kept;
    return true;
  }

  void finish() override {
    frames.resize(topics.size());
    // A topic with cameras gives way to one image topic per camera, in the order they appeared.
    std::vector<ViewTopic> shown;
    std::vector<std::vector<FrameTime>> shown_frames;
    for (size_t t = 0; t < topics.size(); ++t) {
      bool split = false;
      for (Camera& c : cameras_) {
        if (c.topic != t) continue;
        split = true;
        shown.push_back({camera_topic(topics[t].topic, c.name), topics[t].type, topics[t].note, c.frames.size()});
        shown_frames.push_back(std::move(c.frames));
        base.push_back(topics[t].topic);
      }
      if (split) continue;
      shown.push_back(topics[t]);
      shown_frames.push_back(std::move(frames[t]));
      base.push_back(topics[t].topic);
    }
    topics = std::move(shown);
    frames = std::move(shown_frames);
    cameras_.clear();
    camera_of_.clear();
    for (auto& list : frames) {
      // The walk's order among equal times is the order a walk over that time gives them again.
      std::stable_sort(list.begin(), list.end(), [](const FrameTime& a, const FrameTime& b) { return a.time_ns < b.time_ns; });
      for (size_t i = 1; i < list.size(); ++i)
        if (list[i].time_ns == list[i - 1].time_ns) list[i].rank = list[i - 1].rank + 1;
    }
  }

 private:
  struct Camera {
    size_t topic;
    std::string name;
    std::vector<FrameTime> frames;
  };
  std::vector<Camera> cameras_;
  std::map<std::pair<size_t, std::string>, size_t> camera_of_;
  std::map<size_t, size_t> camera_count_;
};

// Reads the frame at `at` alone. False when cancelled.
bool read_frame(MessageSource& source, const std::string& topic, const FrameTime& at, Frame& frame, const ProgressFn& progress,
                std::string* stopped) {
  WalkOptions options;
  options.t0_ns = options.t1_ns = at.time_ns;
  options.read_ahead = false;  // the chunk(s) at one time
  bool found = false;
  bool walked = walk_frames(source, topic, options, 1, [&](Frame& f) {
    if (f.time_ns != at.time_ns || f.index < at.rank) return true;
    frame = std::move(f);
    found = true;
    return false;
  }, progress, stopped);
  if (found) return true;
  if (!walked && stopped->empty()) return false;
  frame.time_ns = at.time_ns;
  frame.ok = false;
  frame.code = "image.frame.missing";
  frame.message = "the frame listed at this time was not found when read again" + (stopped->empty() ? std::string() : ": " + *stopped);
  return true;
}

Json frame_json(const Frame& f, uint64_t index) {
  Json j = Json::object();
  j["index"] = index;
  j["time_ns"] = std::to_string(f.time_ns);
  j["type"] = f.type;
  j["ok"] = f.ok;
  j["code"] = f.code.empty() ? Json() : Json(f.code);
  j["message"] = f.message.empty() ? Json() : Json(f.message);
  j["warning"] = f.warning.empty() ? Json() : Json(f.warning);
  j["encoding"] = f.encoding;
  // What last_frame_bytes() holds: "rgba" pixels, a stored "jpeg", "png" or "webp", or nothing.
  const bool pixels = f.ok && f.container.empty();
  j["kind"] = !f.ok ? Json() : pixels ? Json("rgba") : Json(f.container);
  j["width"] = pixels ? Json(static_cast<uint64_t>(f.image.width)) : Json();
  j["height"] = pixels ? Json(static_cast<uint64_t>(f.image.height)) : Json();
  j["place"] = frame_place(f);
  j["offset"] = f.offset == SourceMessage::kNoOffset ? Json() : Json(f.offset);
  j["in_chunk"] = f.in_chunk;
  if (pixels && f.image.depth) {
    Json depth = Json::object();
    depth["unit"] = f.image.depth->unit;
    depth["low"] = f.image.depth->low;
    depth["high"] = f.image.depth->high;
    depth["map"] = f.image.depth->map;
    j["depth"] = std::move(depth);  // absent for other frames (every value present has a unit)
  }
  j["bytes"] = static_cast<uint64_t>(frame_bytes().size());
  return j;
}

// The frame's bytes for last_frame_bytes(): RGBA then depth values, or the stored bytes.
void keep_bytes(Frame& f) {
  std::string& out = frame_bytes();
  out.clear();
  if (!f.ok) return;
  if (!f.container.empty()) {
    out = std::move(f.bytes);
    return;
  }
  const std::vector<uint8_t>& rgba = f.image.rgba;
  const size_t depth = f.image.depth ? f.image.depth->values.size() * sizeof(float) : 0;
  out.resize(rgba.size() + depth);
  if (!rgba.empty()) std::memcpy(&out[0], rgba.data(), rgba.size());
  if (depth) std::memcpy(&out[rgba.size()], f.image.depth->values.data(), depth);  // wasm32 and x86 are little-endian
}

Json cancelled_json() {
  Json cancelled = Json::object();
  cancelled["cancelled"] = true;
  return cancelled;
}

// The error for a topic that is not an image topic, naming those there are (`names`, comma-separated).
Json no_image_topic(const std::string& topic, const std::string& names) {
  return QueryArgs::error_json("no image topic \"" + topic + "\"" + (names.empty() ? "; the file has none" : "; the image topics: " + names));
}

// A thumbnail: the first frame of `topic` the file holds in [from_ns, to_ns], read without
// listing the topic's frames, so that the formats' indexes read only the chunks (or pages) there,
// up to the first frame found. `frame` is null when the span holds none.
// `thumb_height` (0: none): raw pixels are shrunk by a whole factor to no less than this height,
// so a 640 x 480 frame crosses to the page as 160 x 120.
Json thumbnail_answer(MessageSource& source, const std::string& topic, uint64_t from_ns, uint64_t to_ns, uint64_t thumb_height,
                      const ProgressFn& progress) {
  const std::vector<SourceTopic> topics = source.topics();  // (a copy, in some formats)
  const SourceTopic* found = find_image_topic(topics, topic).source;
  if (!found) {
    std::string names;
    for (const SourceTopic& t : topics)
      if (is_image_type(t.type)) names += (names.empty() ? "" : ", ") + t.topic;
    return no_image_topic(topic, names);
  }
  if (from_ns > to_ns) return QueryArgs::error_json("from_ns is after to_ns");
  Json out = Json::object();
  out["topic"] = topic;
  out["type"] = found->type;
  if (is_video_type(found->type)) {  // a video frame needs the frames from its keyframe: the Images tab plays them
    out["frame"] = Json();
    out["unsupported"] = "a video topic has no thumbnails; the Images tab plays it";
    return out;
  }
  WalkOptions options;
  options.t0_ns = from_ns;
  options.t1_ns = to_ns;
  options.read_ahead = false;  // the walk stops at the first frame
  Frame frame;
  bool have = false;
  std::string stopped;
  bool walked = walk_frames(source, topic, options, 1, [&](Frame& f) {
    frame = std::move(f);
    have = true;
    return false;
  }, progress, &stopped);
  if (!walked && stopped.empty() && !have) return cancelled_json();
  out["stopped"] = stopped.empty() ? Json() : Json(stopped);
  if (!have) {
    out["frame"] = Json();
    return out;
  }
  if (frame.ok && !frame.container.empty()) check_stored(frame);
  if (frame.ok && frame.container.empty() && thumb_height > 0 && frame.image.height > thumb_height)
    shrink_image(frame.image, static_cast<uint32_t>(frame.image.height / thumb_height));
  keep_bytes(frame);
  Json j = frame_json(frame, 0);
  j["index"] = Json();  // its rank among the topic's frames is not known without listing them
  out["frame"] = std::move(j);
  return out;
}

Json images_answer(MessageSource& source, QueryArgs& args, const ProgressFn& progress) {
  std::string topic = args.str("topic");
  const bool has_at = args.has("at_ns"), has_index = args.has("index");
  const uint64_t at_ns = args.u64("at_ns", 0), index_asked = args.u64("index", 0);
  const bool has_span = args.has("from_ns") || args.has("to_ns");
  const uint64_t from_ns = args.u64("from_ns", 0), to_ns = args.u64("to_ns", UINT64_MAX);
  const bool list_video = args.flag("video_frames");
  const uint64_t thumb_height = args.u64("thumb_height", 0);
  if (!args.ok()) return QueryArgs::error_json(args.error());
  frame_bytes().clear();
  if (args.flag("topics_only")) return topics_only_answer(source, is_image_type);  // from the index, no message read
  if (has_span) {
    if (topic.empty()) return QueryArgs::error_json("from_ns and to_ns ask for a thumbnail of one topic: give topic");
    return thumbnail_answer(source, topic, from_ns, to_ns, thumb_height, progress);
  }
  // The frames' times from the formats' indexes where they have them (no message read), unless a
  // topic's messages each hold several cameras (then which ones is in the messages).
  WalkOptions listing;
  listing.times_only = true;
  for (const SourceTopic& t : source.topics())
    if (holds_cameras(t.type)) listing.times_only = false;
  auto* cache = view_cache<ImageCache>(source, "images", is_image_type, progress, listing);
  Json out = Json::object();
  if (!cache) {
    out["cancelled"] = true;
    return out;
  }
  out["topics"] = topics_json(*cache);
  // No topic asked: the first that has frames. A topic whose cameras are listed apart: its first.
  size_t t = cache->topics.size();
  for (size_t i = 0; i < cache->topics.size(); ++i)
    if (topic.empty() ? !cache->frames[i].empty() : cache->topics[i].topic == topic) {
      t = i;
      break;
    }
  for (size_t i = 0; t == cache->topics.size() && !topic.empty() && i < cache->topics.size(); ++i)
    if (cache->base[i] == topic) t = i;
  if (t == cache->topics.size()) {
    if (!topic.empty()) {
      std::string names;
      for (const ViewTopic& v : cache->topics) names += (names.empty() ? "" : ", ") + v.topic;
      return no_image_topic(topic, names);
    }
    out["topic"] = Json();
    out["type"] = Json();
    out["count"] = 0;
    add_walk_account(out, *cache);
    return out;
  }
  const ViewTopic& vt = cache->topics[t];
  const std::vector<FrameTime>& list = cache->frames[t];
  out["topic"] = vt.topic;
  out["type"] = vt.type;
  out["count"] = static_cast<uint64_t>(list.size());
  out["first_ns"] = list.empty() ? Json() : Json(std::to_string(list.front().time_ns));
  out["last_ns"] = list.empty() ? Json() : Json(std::to_string(list.back().time_ns));
  out["before_first"] = false;
  const bool video = is_video_type(vt.type);
  if (list.empty()) {
    if (video && !video_answer(source, vt.topic, false, 0, list_video, out, frame_bytes(), progress)) {
      Json cancelled = Json::object();
      cancelled["cancelled"] = true;
      return cancelled;
    }
    add_walk_account(out, *cache);
    return out;
  }
  size_t position = 0;
  if (has_index) {
    if (index_asked >= list.size())
      return QueryArgs::error_json("index " + std::to_string(index_asked) + " is past the " + std::to_string(list.size()) + " frames of " + vt.topic);
    position = static_cast<size_t>(index_asked);
  } else if (has_at) {
    // The last frame at or before at_ns (the first, said, when at_ns is before every frame).
    auto after = std::upper_bound(list.begin(), list.end(), at_ns, [](uint64_t v, const FrameTime& f) { return v < f.time_ns; });
    if (after == list.begin()) out["before_first"] = true;
    else position = static_cast<size_t>(after - list.begin()) - 1;
  }
  // When the next frame is due: a player waits for it instead of asking again for this one.
  out["next_ns"] = position + 1 < list.size() ? Json(std::to_string(list[position + 1].time_ns)) : Json();
  if (video) {  // the encoded frames from the keyframe before it (video_query.h)
    if (!video_answer(source, vt.topic, true, position, list_video, out, frame_bytes(), progress)) {
      Json cancelled = Json::object();
      cancelled["cancelled"] = true;
      return cancelled;
    }
    add_walk_account(out, *cache);
    return out;
  }
  Frame frame;
  std::string stopped;
  if (!read_frame(source, vt.topic, list[position], frame, progress, &stopped)) {
    Json cancelled = Json::object();
    cancelled["cancelled"] = true;
    return cancelled;
  }
  if (frame.ok && !frame.container.empty()) check_stored(frame);  // a cut JPEG or a damaged PNG is named
  keep_bytes(frame);
  out["frame"] = frame_json(frame, position);
  add_walk_account(out, *cache);
  return out;
}

}  // namespace

const std::string& last_frame_bytes() { return frame_bytes(); }

QuerySpec images_query(MessageSource& source) {
  return {"images",
          "camera frames (sensor_msgs/Image and CompressedImage, foxglove.RawImage, CompressedImage and CompressedVideo, Spot's "
          "bosdyn.api image responses, one topic per camera as TOPIC#CAMERA): the image topics, the count and span of a topic's frames, and one frame at a time or by index with its encoding, size, place in the "
          "file and depth range, or why it cannot be shown; its pixels (RGBA, then depth values) or stored bytes follow the answer "
          "apart (video: the encoded frames from the keyframe before it, in order)",
          {{"topic", ArgType::String, "the image topic (default: the first with frames)"},
           {"at_ns", ArgType::U64, "the frame at or before this time, ns since the epoch (default: the first frame)"},
           {"index", ArgType::U64, "the frame by its index in the topic's time order (instead of at_ns)"},
           {"topics_only", ArgType::Bool, "only the image topics, from the index (no message read)"},
           {"from_ns", ArgType::U64, "a thumbnail: the first frame of topic in [from_ns, to_ns], read alone (the topic's frames are not listed)"},
           {"to_ns", ArgType::U64, "a thumbnail's span ends here, ns since the epoch (default: the end)"},
           {"thumb_height", ArgType::U64, "a thumbnail's raw pixels shrunk by a whole factor to no less than this height (default: as stored)"},
           {"video_frames", ArgType::Bool, "a video topic: list each frame's time and whether it is a keyframe"}},
          with_walk_units(join_units({{"topic", Unit::Text}, {"type", Unit::Text}, {"count", Unit::Count}, {"first_ns", Unit::TimeNs},
                           {"last_ns", Unit::TimeNs}, {"next_ns", Unit::TimeNs}, {"before_first", Unit::Flag}, {"unsupported", Unit::Text}, {"frame.index", Unit::Id},
                           {"frame.time_ns", Unit::TimeNs}, {"frame.type", Unit::Text}, {"frame.ok", Unit::Flag},
                           {"frame.code", Unit::Text}, {"frame.message", Unit::Text}, {"frame.warning", Unit::Text},
                           {"frame.encoding", Unit::Text}, {"frame.kind", Unit::Text}, {"frame.width", Unit::Count},
                           {"frame.height", Unit::Count}, {"frame.place", Unit::Text}, {"frame.offset", Unit::Offset},
                           {"frame.in_chunk", Unit::Offset}, {"frame.depth.unit", Unit::Text}, {"frame.depth.low", Unit::Number},
                           {"frame.depth.high", Unit::Number},
                           {"frame.depth.map", Unit::Text}, {"frame.bytes", Unit::Bytes}}, video_units())),
          [&source](QueryArgs& args, const ProgressFn& progress) { return images_answer(source, args, progress); }};
}

}  // namespace logscope::views
