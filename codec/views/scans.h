// Scans and point clouds, one view for every format (docs/views.md, "Scans"): sensor_msgs/LaserScan,
// sensor_msgs/PointCloud2 and sensor_msgs/PointCloud (ROS 1 and ROS 2), foxglove.LaserScan and
// foxglove.PointCloud. One light walk keeps each scan topic's message times; then the scan at a
// time is read alone (only the chunk or page that holds it) and turned into points in the
// sensor's frame, decimated for a viewer.
#pragma once

#include "core/message_source.h"
#include "core/query.h"
#include "views/scan_points.h"

namespace logscope::views {

// The `scan` query: the scan topics, and a topic's message at or before a time as points
// (docs/views.md).
QuerySpec scan_query(MessageSource& source);

}  // namespace logscope::views
