#include "carla/export.h"

#include <cmath>
#include <optional>

#include "carla/decode.h"
#include "carla/packets.h"
#include "carla/queries.h"
#include "carla/reader.h"
#include "carla/stream.h"

namespace logscope::carla {

namespace {

struct PendingRow {
  uint64_t time_ns = 0;
  uint64_t frame = 0;
  double elapsed = 0;
  PositionRecord position;
  std::optional<KinematicsRecord> kinematics;
};

}  // namespace

ExportResult export_actor(ByteSource& source, uint32_t actor, const ExportRequest& request, ExportSink& sink,
                          const ProgressFn& progress) {
  ScanResult scan = scan_log(source, progress);
  if (scan.cancelled) {
    ExportResult result;
    result.cancelled = true;
    return result;
  }
  return export_actor(source, scan, actor, request, sink, progress);
}

const std::vector<std::string>& actor_columns() {
  static const std::vector<std::string> columns{"frame", "elapsed", "x", "y", "z", "pitch", "yaw", "roll", "vx", "vy", "vz", "speed"};
  return columns;
}

ExportResult export_actor(ByteSource& source, const ScanResult& scan, uint32_t actor, const ExportRequest& request, ExportSink& sink,
                          const ProgressFn& progress) {
  ExportResult result;
  if (!scan.header_ok) {
    result.error = "the log header cannot be read";
    return result;
  }
  result.problems = scan.problems;
  // As the summary: the recording starts at the header's date (whole seconds), when it is sane.
  uint64_t start_ns = scan.header.date >= 0 && scan.header.date < 9000000000LL ? static_cast<uint64_t>(scan.header.date) * 1000000000ULL : 0;
  const Variant& variant = scan.variant.variant;
  bool floats = variant.vector_bytes() == 12;  // the recorder's own precision: print float32 as float32
  TableWriter table(sink, request);
  std::vector<std::string> columns{"time_ns"};
  columns.insert(columns.end(), actor_columns().begin(), actor_columns().end());
  if (!table.start(columns, &result.error)) {
    result.sink_failed = table.failed();
    return result;
  }
  auto component = [&](double v) {
    if (floats) table.f32(static_cast<float>(v));
    else table.f64(v);
  };
  std::optional<PendingRow> pending;
  auto flush = [&]() {
    if (!pending) return;
    const PendingRow& row = *pending;
    table.begin_row();
    table.unsigned_integer(row.time_ns);
    table.unsigned_integer(row.frame);
    table.f64(row.elapsed);
    component(row.position.location.x), component(row.position.location.y), component(row.position.location.z);
    // CARLA's rotation vector is (roll, pitch, yaw); the columns follow the order.
    component(row.position.rotation.y), component(row.position.rotation.z), component(row.position.rotation.x);
    if (row.kinematics) {
      const Vec3& v = row.kinematics->linear;
      component(v.x), component(v.y), component(v.z);
      table.f64(std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
    }
    if (table.end_row()) ++result.rows;
    pending.reset();
  };
  bool in_range = false;
  uint64_t frame_ns = 0;
  auto visit = [&](const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload) {
    if (table.failed()) return;
    if (packet.id == kFrameStart) {
      flush();
      frame_ns = frame.elapsed >= 0 && frame.elapsed < 1e9 ? start_ns + static_cast<uint64_t>(std::llround(frame.elapsed * 1e9)) : start_ns;
      in_range = frame_ns >= request.from_ns && frame_ns <= request.to_ns;
      return;
    }
    if (!in_range) return;
    DecodedPacket p;
    decode_packet(packet.id, payload, packet.size, variant, &p);
    if (p.is(packets::Position)) {
      for (const PositionRecord& r : p.records(packets::Position)) {
        if (r.id != actor) continue;
        flush();  // a second Position of the actor in one frame is a row of its own
        pending = PendingRow{frame_ns, frame.id, frame.elapsed, r, std::nullopt};
        break;
      }
    } else if (p.is(packets::Kinematics) && pending && pending->frame == frame.id) {
      for (const KinematicsRecord& r : p.records(packets::Kinematics))
        if (r.id == actor) {
          pending->kinematics = r;
          break;
        }
    }
  };
  auto wanted = [](uint8_t id) { return id == kFrameStart || id == kPosition || id == kKinematics; };
  result.cancelled = !stream_packets(source, scan, progress, wanted, visit);
  if (!result.cancelled) flush();
  result.sink_failed = table.failed();
  return result;
}

}  // namespace logscope::carla
