// Transforms, one view for every format (docs/views.md): tf2_msgs/TFMessage and tf/tfMessage
// (ROS 1 and ROS 2, on /tf and /tf_static) and foxglove.FrameTransform(s). After one walk over
// the transform topics, the frame tree at any time: each parent->child edge with its translation
// and rotation, its rate and the age of its last update; and the tree's findings: a frame with
// two parents, a cycle, an edge that stopped updating.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

// Whether the transforms view shows messages of this type.
bool is_transform_type(std::string_view type);

struct TransformUpdate {
  std::string parent, child;  // frame ids without tf's leading '/' ("/base_link" is "base_link")
  double translation[3] = {0, 0, 0};  // x, y, z in metres
  double rotation[4] = {0, 0, 0, 1};  // quaternion x, y, z, w
};

// The transforms one decoded message of `type` holds (a TFMessage holds a list). False with
// `error` when a field it needs is missing or of another kind (nothing is added then).
bool transform_updates(std::string_view type, const Json& message, std::vector<TransformUpdate>* out, std::string* error);

// Roll, pitch and yaw (rad) of a quaternion, as tf's Matrix3x3::getRPY gives them (fixed axes
// x, y, z; pitch in [-pi/2, pi/2]). A quaternion that is not of unit length is normalised first.
void roll_pitch_yaw(const double q[4], double rpy[3]);

// The `transforms` query: the frame tree at a time (at_ns; the last update when absent), the
// edges' rates and ages, and the findings (docs/views.md).
QuerySpec transforms_query(MessageSource& source);

}  // namespace logscope::views
