// The images query's CompressedVideo part (image_query.h, docs/views.md "Images"): per video topic
// each frame's time and whether it is a keyframe (one walk with whole bytes over the video topics
// alone, kept in the source's caches: 16 bytes a frame), and the frame at a position as the
// encoded frames from the keyframe before it to it, which a decoder plays in order.
#pragma once

#include <cstdint>
#include <string>

#include "core/json.h"
#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

bool is_video_type(std::string_view type);

// The most frames (and bytes) handed over for one video frame: from the keyframe before it, at
// most this many; a frame further from its keyframe is an error that says so.
constexpr uint64_t kMaxVideoRun = 600;
constexpr uint64_t kMaxVideoRunBytes = 64ull << 20;

// Adds to `out` (the images answer for a video topic) "video": {format, frames, keyframes} and,
// with `list`, "video_frames": [{time_ns, key}] (at most 100000). At `position` (the frame's index
// in time order; or none when the topic is empty) adds "frame" and fills `bytes` with the encoded
// frames. False when cancelled.
bool video_answer(MessageSource& source, const std::string& topic, bool has_position, uint64_t position, bool list,
                  Json& out, std::string& bytes, const ProgressFn& progress);

// The units video_answer adds.
ResultUnits video_units();

}  // namespace logscope::views
