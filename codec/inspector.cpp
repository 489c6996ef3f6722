#include "inspector.h"

#include "bddf/inspector.h"
#include "carla/inspector.h"
#include "rosbag/inspector.h"

namespace logscope {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source, const Detection& detection) {
  switch (detection.format) {
    case Format::Bddf: return bddf::open_inspector(source);
    case Format::RosbagV20:
    case Format::RosbagV12:
    case Format::RosbagV11: return rosbag::open_inspector(source, detection.format);
    case Format::Carla: return carla::open_inspector(source);
    case Format::Unknown: break;
  }
  return nullptr;
}

}  // namespace logscope
