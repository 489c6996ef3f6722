// The query table of a CARLA log (FormatInspector::queries) and its queries: the three official
// ones (show_recorder_file_info, show_recorder_collisions, show_recorder_actors_blocked) as
// CARLA-formatted text and as JSON, plus the actor table and per-actor trajectories (queries.cpp,
// info_text.cpp, actors.cpp; the plot queries: plot_queries.h). They stream over the complete
// frames of a scanned log.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "carla/model.h"
#include "carla/packet_table.h"
#include "core/byte_source.h"
#include "core/json.h"
#include "core/query.h"
#include "core/report.h"

namespace logscope::carla {

// The 3 header lines CARLA prints and a blank line ("Version", "Map", "Date").
std::string header_text(const LogHeader& header);
// "\nFrames: N\nDuration: D seconds\n" plus, for a damaged log, the line saying where it was cut.
// `sticky_fixed0`: CARLA's collision query leaves the stream in fixed/precision 0.
std::string footer_text(const ScanResult& scan, bool sticky_fixed0 = false);
std::string format_date(int64_t unix_seconds);  // strftime("%x %X", localtime)

// The wording of the release the file comes from (InfoWording: packet_table.h).
InfoWording info_wording(const ScanResult& scan);
const char* info_wording_name(InfoWording wording);  // "0.9.5-0.9.9", "0.9.10-0.9.14", "0.9.15+"

std::string file_info_text(ByteSource& source, const ScanResult& scan, bool show_all, const ProgressFn& progress = nullptr);
// The same facts as JSON: header, frames, duration, per-frame events (at most `max_event_frames`).
Json file_info_json(ByteSource& source, const ScanResult& scan, size_t max_event_frames = 100000);

struct CollisionRow {
  uint64_t frame = 0;
  double time = 0;
  char type1 = 'o', type2 = 'o';
  uint32_t id1 = 0, id2 = 0;
  std::string actor1, actor2;
  bool hero1 = false, hero2 = false;
};
struct CollisionResult {
  std::vector<CollisionRow> rows;
  bool cancelled = false;
  std::string error;  // bad arguments
};
// Categories: 'h' hero, 'v' vehicle, 'w' walker, 't' traffic light, 'o' other, 'a' any.
CollisionResult query_collisions(ByteSource& source, const ScanResult& scan, char category1, char category2, const ProgressFn& progress);
std::string collisions_text(const ScanResult& scan, const CollisionResult& result);
Json collisions_json(const ScanResult& scan, const CollisionResult& result);

struct BlockedRow {
  double time = 0;      // when the actor stopped
  uint32_t id = 0;
  std::string actor;
  double duration = 0;  // seconds without moving min_distance
  bool until_end = false;  // still blocked when the log ends (or destroyed while blocked)
};
struct BlockedResult {
  std::vector<BlockedRow> rows;  // sorted by duration, longest first
  bool cancelled = false;
};
BlockedResult query_blocked(ByteSource& source, const ScanResult& scan, double min_time, double min_distance, const ProgressFn& progress);
std::string blocked_text(const ScanResult& scan, const BlockedResult& result);
Json blocked_json(const ScanResult& scan, const BlockedResult& result);

struct ActorInfo {
  uint32_t id = 0;
  uint8_t type = 0;
  std::string blueprint;
  std::string role_name;
  std::vector<std::pair<std::string, std::string>> attributes;
  uint64_t spawn_frame = 0;
  double spawn_time = 0;
  uint64_t destroy_frame = 0;  // 0 = never destroyed
  double destroy_time = 0;
  uint32_t parent = 0;
  bool has_parent = false;
  uint64_t positions = 0;  // Position records seen
};
struct ActorsResult {
  std::vector<ActorInfo> actors;  // by id
  bool cancelled = false;
};
ActorsResult query_actors(ByteSource& source, const ScanResult& scan, const ProgressFn& progress);
Json actors_json(const ActorsResult& result);
Table actors_table(const ActorsResult& result);
std::string actors_text(const ActorsResult& result);

// Time, location, rotation (and velocity when Kinematics was recorded) of one actor, per frame,
// as column arrays ready for plotting. At most `max_points` points (evenly thinned beyond).
Json query_trajectory(ByteSource& source, const ScanResult& scan, uint32_t actor, const ProgressFn& progress, size_t max_points = 200000);

// Category letter of an actor type for the collision query (see queries.cpp for CARLA's bug).
char category_of_type(uint8_t type);

// The table: frames, file_info, collisions, blocked, actors, trajectory and the plot queries.
// Every query needs the frame index: `scan` gives the kept scan (scanning first if need be). The
// handlers hold `source` and a copy of `scan`; `source` must outlive them.
std::vector<QuerySpec> query_table(ByteSource& source, const std::function<const ScanResult&(const ProgressFn&)>& scan);

}  // namespace logscope::carla
