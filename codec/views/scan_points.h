// Scans and point clouds as points, whatever the format (docs/views.md, "Scans"): a decoded
// sensor_msgs/LaserScan, sensor_msgs/PointCloud2, sensor_msgs/PointCloud (ROS 1's old one) or
// Foxglove's LaserScan and PointCloud (protobuf, or their foxglove_msgs spellings) as any
// MessageSource hands it, read as points (x, y, z in metres in the message's frame, and a value:
// intensity or another field). No format is named here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace logscope::views {

// Whether the scans view shows messages of this type.
bool is_scan_type(std::string_view type);

struct ScanPoint {
  double x = 0, y = 0, z = 0;
  double value = 0;
  bool has_value = false;  // the message holds a value for it (and it is finite)
};

struct ScanProblem {
  std::string code, message;  // a stable "scan.area.what" code and a sentence with the values at fault
};

// One decoded scan message, its points read on demand (twice if need be: to count, then to keep
// some). Byte fields must be whole (WalkOptions::whole_bytes), as must arrays: a preview is an
// error. The message must outlive the ScanMessage.
class ScanMessage {
 public:
  // Reads what the points need. False with `error` when the message cannot be read as a scan at
  // all (a field missing or of another kind); damage that leaves some points readable (data
  // shorter than the rows, a field past point_step) is a problem in `problems`, and the complete
  // points are kept.
  bool read(std::string_view type, const Json& message, std::string* error);

  std::string kind;         // "laser_scan", "point_cloud2", "point_cloud", "foxglove_laser_scan", "foxglove_point_cloud"
  std::string frame_id;     // as the message states it
  std::optional<uint64_t> stamp_ns;  // the message's own stamp
  std::string value_name;   // "intensity", or the cloud's field or channel the values come from; empty: none
  std::vector<std::string> fields;  // a cloud's fields (or channels), in the message's order
  uint64_t declared = 0;    // the points the message says it holds (ranges, width * height, points)
  std::vector<ScanProblem> problems;

  // Every point the message holds, in its order; `valid` false for a point that is not one: a
  // range outside [range_min, range_max] or not finite, a coordinate that is not finite.
  void for_each(const std::function<void(const ScanPoint& point, bool valid)>& visit) const;

 private:
  enum class Kind { LaserScan, FoxgloveLaserScan, PointCloud2, FoxglovePointCloud, PointCloud };
  struct Field {
    uint64_t offset = 0;
    int datatype = 0;  // sensor_msgs/PointField's: INT8 = 1 ... FLOAT64 = 8
    bool present = false;
  };
  Kind kind_ = Kind::LaserScan;
  const Json* message_ = nullptr;
  // Laser scans.
  const Json* ranges_ = nullptr;
  const Json* intensities_ = nullptr;
  double angle_min_ = 0, angle_increment_ = 0, range_min_ = 0, range_max_ = 0;
  // Clouds: the data, the layout, and x, y, z and the value's field.
  std::string data_;
  bool big_endian_ = false;
  uint64_t point_step_ = 0, row_step_ = 0, width_ = 0, rows_ = 0;  // rows_: the rows to read
  Field x_, y_, z_, value_;
  // The old PointCloud: its points and the value channel's values.
  const Json* points_ = nullptr;
  const Json* channel_ = nullptr;
  // Foxglove's pose of the scan or cloud in its frame (translation, rotation quaternion).
  double position_[3] = {0, 0, 0};
  double orientation_[4] = {0, 0, 0, 1};
  bool posed_ = false;

  bool read_laser_scan(const Json& m, std::string* error);
  bool read_foxglove_laser_scan(const Json& m, std::string* error);
  bool read_point_cloud2(const Json& m, std::string* error);
  bool read_foxglove_point_cloud(const Json& m, std::string* error);
  bool read_point_cloud(const Json& m, std::string* error);
  bool read_layout(const Json& fields, bool foxglove, std::string* error);
  // Moves a point by the message's pose; false when that leaves it not finite (a huge
  // coordinate that overflows), so it counts as invalid.
  bool place(ScanPoint& p) const;
};

}  // namespace logscope::views
