// Scan messages to points (scan_points.h). Fields come as the formats' decoders give them:
// numbers, or decimal text (protobuf's 64-bit); byte arrays as {"length", "raw"} (ROS 1 and CDR)
// or as hex text (protobuf bytes); arrays whole (WalkOptions::whole_bytes), or {"length",
// "first"} when a decoder previewed them, which is an error here. Protobuf leaves proto3 defaults
// out, so Foxglove's types take a missing field as its default; ROS types need every field.
#include "views/scan_points.h"
#include "views/view_support.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace logscope::views {
namespace {

enum : int { kInt8 = 1, kUInt8, kInt16, kUInt16, kInt32, kUInt32, kFloat32, kFloat64 };  // sensor_msgs/PointField

uint64_t datatype_size(int datatype) {
  switch (datatype) {
    case kInt8: case kUInt8: return 1;
    case kInt16: case kUInt16: return 2;
    case kInt32: case kUInt32: case kFloat32: return 4;
    case kFloat64: return 8;
    default: return 0;
  }
}

const char* datatype_name(int datatype) {
  static const char* names[] = {"?", "INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "FLOAT32", "FLOAT64"};
  return datatype >= 1 && datatype <= 8 ? names[datatype] : "?";
}

uint64_t saturating_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }
uint64_t saturating_add(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

// A number as the decoders give it: a JSON number, or decimal text (protobuf's 64-bit integers).
bool number_of(const Json* j, double* out) {
  if (!j) return false;
  if (j->is_number()) return *out = j->as_double(), true;
  if (j->is_boolean()) return *out = j->as_bool() ? 1 : 0, true;
  if (j->is_string()) {
    const std::string& t = j->as_string();
    if (t.empty() || t.size() > 24 || t.find_first_not_of("-0123456789") != std::string::npos) return false;
    *out = std::strtod(t.c_str(), nullptr);
    return true;
  }
  return false;
}

// A field as a number: required (ROS), or 0 when missing (Foxglove's protobuf leaves defaults out).
bool number_field(const Json& m, const char* name, bool defaults, double* out, std::string* error) {
  const Json* j = m.find(name);
  if ((!j || j->is_null()) && defaults) return *out = 0, true;
  if (!j) return *error = std::string("no field \"") + name + "\"", false;
  if (!number_of(j, out)) return *error = std::string("field \"") + name + "\" is not a number", false;
  return true;
}

// A field as an unsigned count.
bool count_field(const Json& m, const char* name, bool defaults, uint64_t* out, std::string* error) {
  double v = 0;
  if (!number_field(m, name, defaults, &v, error)) return false;
  if (!(v >= 0) || v >= 18446744073709551616.0) return *error = std::string("field \"") + name + "\" is not a count", false;
  *out = static_cast<uint64_t>(v);
  return true;
}

bool text_field(const Json& m, const char* name, bool defaults, std::string* out, std::string* error) {
  const Json* j = m.find(name);
  if ((!j || j->is_null()) && defaults) return out->clear(), true;
  if (!j || !j->is_string()) return *error = std::string(j ? "field \"" : "no field \"") + name + (j ? "\" is not text" : "\""), false;
  *out = j->as_string();
  return true;
}

// An array field, whole: a previewed one ({"length", "first"}) cannot be read as points.
bool array_field(const Json& m, const char* name, bool defaults, const Json** out, std::string* error) {
  const Json* j = m.find(name);
  if ((!j || j->is_null()) && defaults) return *out = nullptr, true;
  if (j && j->is_object() && j->find("first")) return *error = std::string("field \"") + name + "\" came as a preview, not whole", false;
  if (!j || !j->is_array()) return *error = std::string(j ? "field \"" : "no field \"") + name + (j ? "\" is not a list" : "\""), false;
  *out = j;
  return true;
}

// A byte field, whole (view_support.h whole_bytes_of).
bool bytes_field(const Json& m, const char* name, bool defaults, std::string* out, std::string* error) {
  const Json* j = m.find(name);
  if ((!j || j->is_null()) && defaults) return out->clear(), true;
  switch (whole_bytes_of(j, out)) {
    case WholeBytes::Ok: return true;
    case WholeBytes::Missing: return *error = std::string("no field \"") + name + "\"", false;
    case WholeBytes::Preview: return *error = std::string("field \"") + name + "\" came as a preview, not whole: no point can be read from it", false;
    case WholeBytes::NotHex: return *error = std::string("field \"") + name + "\" is not hex text", false;
  }
  return false;
}

// The message's own stamp, in any of the decoders' spellings.
std::optional<uint64_t> stamp_of(const Json* stamp) {
  if (!stamp || !stamp->is_object()) return std::nullopt;
  static const char* const pairs[][2] = {{"secs", "nsecs"}, {"sec", "nanosec"}, {"sec", "nsec"}, {"seconds", "nanos"}};
  for (const auto& p : pairs) {
    const Json* s = stamp->find(p[0]);
    const Json* n = stamp->find(p[1]);
    if (!s && !n) continue;
    double sec = 0, nsec = 0;
    if ((s && !number_of(s, &sec)) || (n && !number_of(n, &nsec))) return std::nullopt;
    if (!(sec >= 0) || !(nsec >= 0) || sec > 1.8e10 || nsec >= 1e9) return std::nullopt;
    return static_cast<uint64_t>(sec) * 1000000000ull + static_cast<uint64_t>(nsec);
  }
  return std::nullopt;
}

double read_value(const unsigned char* p, int datatype, bool big_endian) {
  uint64_t size = datatype_size(datatype);
  unsigned char b[8];
  for (uint64_t i = 0; i < size; ++i) b[i] = big_endian ? p[size - 1 - i] : p[i];
  switch (datatype) {
    case kInt8: return static_cast<int8_t>(b[0]);
    case kUInt8: return b[0];
    case kInt16: { int16_t v; std::memcpy(&v, b, 2); return v; }
    case kUInt16: { uint16_t v; std::memcpy(&v, b, 2); return v; }
    case kInt32: { int32_t v; std::memcpy(&v, b, 4); return v; }
    case kUInt32: { uint32_t v; std::memcpy(&v, b, 4); return v; }
    case kFloat32: { float v; std::memcpy(&v, b, 4); return v; }
    case kFloat64: { double v; std::memcpy(&v, b, 8); return v; }
    default: return 0;
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Foxglove's NumericType (UINT8 = 1, INT8, UINT16, INT16, UINT32, INT32, FLOAT32, FLOAT64) as
// PointField's datatype; by number or by name. 0 when unknown.
int foxglove_datatype(const Json* j) {
  static const int by_number[] = {0, kUInt8, kInt8, kUInt16, kInt16, kUInt32, kInt32, kFloat32, kFloat64};
  static const char* const names[] = {"UNKNOWN", "UINT8", "INT8", "UINT16", "INT16", "UINT32", "INT32", "FLOAT32", "FLOAT64"};
  double v = 0;
  if (j && j->is_string() && !j->as_string().empty() && !std::isdigit(static_cast<unsigned char>(j->as_string()[0]))) {
    for (int i = 1; i <= 8; ++i)
      if (j->as_string() == names[i]) return by_number[i];
    return 0;
  }
  if (!j) return 0;
  if (!number_of(j, &v) || v < 1 || v > 8 || v != std::floor(v)) return 0;
  return by_number[static_cast<int>(v)];
}

enum class Type { None, LaserScan, FoxgloveLaserScan, PointCloud2, FoxglovePointCloud, PointCloud };

Type type_of(std::string_view type) {
  if (type == "sensor_msgs/LaserScan" || type == "sensor_msgs/msg/LaserScan") return Type::LaserScan;
  if (type == "sensor_msgs/PointCloud2" || type == "sensor_msgs/msg/PointCloud2") return Type::PointCloud2;
  if (type == "sensor_msgs/PointCloud" || type == "sensor_msgs/msg/PointCloud") return Type::PointCloud;
  if (type == "foxglove.LaserScan" || type == "foxglove_msgs/msg/LaserScan" || type == "foxglove_msgs/LaserScan") return Type::FoxgloveLaserScan;
  if (type == "foxglove.PointCloud" || type == "foxglove_msgs/msg/PointCloud" || type == "foxglove_msgs/PointCloud") return Type::FoxglovePointCloud;
  return Type::None;
}

}  // namespace

bool is_scan_type(std::string_view type) { return type_of(type) != Type::None; }

bool ScanMessage::read(std::string_view type, const Json& message, std::string* error) {
  error->clear();
  if (!message.is_object()) return *error = "the message is not a structure", false;
  message_ = &message;
  switch (type_of(type)) {
    case Type::LaserScan: return read_laser_scan(message, error);
    case Type::FoxgloveLaserScan: return read_foxglove_laser_scan(message, error);
    case Type::PointCloud2: return read_point_cloud2(message, error);
    case Type::FoxglovePointCloud: return read_foxglove_point_cloud(message, error);
    case Type::PointCloud: return read_point_cloud(message, error);
    case Type::None: break;
  }
  *error = "not a scan or point cloud type: " + std::string(type);
  return false;
}

namespace {

bool header_of(const Json& m, std::string* frame_id, std::optional<uint64_t>* stamp, std::string* error) {
  const Json* header = m.find("header");
  if (!header || !header->is_object()) return *error = "no field \"header\"", false;
  *stamp = stamp_of(header->find("stamp"));
  return text_field(*header, "frame_id", false, frame_id, error);
}

// Foxglove's pose: where the scan's origin lies in its frame (a missing one is the identity).
bool pose_of(const Json& m, double position[3], double orientation[4], std::string* error) {
  const Json* pose = m.find("pose");
  if (!pose || pose->is_null()) return true;
  if (!pose->is_object()) return *error = "field \"pose\" is not a structure", false;
  static const char* const xyzw[] = {"x", "y", "z", "w"};
  if (const Json* p = pose->find("position"); p && p->is_object())
    for (int i = 0; i < 3; ++i)
      if (!number_field(*p, xyzw[i], true, &position[i], error)) return false;
  if (const Json* q = pose->find("orientation"); q && q->is_object()) {
    for (int i = 0; i < 4; ++i)
      if (!number_field(*q, xyzw[i], true, &orientation[i], error)) return false;
    double n = std::sqrt(orientation[0] * orientation[0] + orientation[1] * orientation[1] + orientation[2] * orientation[2] +
                         orientation[3] * orientation[3]);
    if (!(n > 0) || !std::isfinite(n)) {  // all zero (proto3 leaves a zero w out too) or not finite: the identity
      orientation[0] = orientation[1] = orientation[2] = 0, orientation[3] = 1;
    } else {
      for (int i = 0; i < 4; ++i) orientation[i] /= n;
    }
  }
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(position[i])) return *error = "field \"pose.position\" is not finite", false;
  return true;
}

}  // namespace

bool ScanMessage::read_laser_scan(const Json& m, std::string* error) {
  kind_ = Kind::LaserScan;
  kind = "laser_scan";
  if (!header_of(m, &frame_id, &stamp_ns, error) || !number_field(m, "angle_min", false, &angle_min_, error) ||
      !number_field(m, "angle_increment", false, &angle_increment_, error) || !number_field(m, "range_min", false, &range_min_, error) ||
      !number_field(m, "range_max", false, &range_max_, error) || !array_field(m, "ranges", false, &ranges_, error) ||
      !array_field(m, "intensities", true, &intensities_, error))
    return false;
  if (!std::isfinite(angle_min_) || !std::isfinite(angle_increment_)) return *error = "angle_min or angle_increment is not finite", false;
  declared = ranges_->size();
  if (intensities_ && intensities_->size() && intensities_->size() != ranges_->size()) {
    problems.push_back({"scan.intensities.length", "the scan has " + std::to_string(ranges_->size()) + " ranges and " +
                                                       std::to_string(intensities_->size()) + " intensities: the intensities are left out"});
    intensities_ = nullptr;
  }
  if (intensities_ && intensities_->size()) value_name = "intensity";
  else intensities_ = nullptr;
  return true;
}

bool ScanMessage::read_foxglove_laser_scan(const Json& m, std::string* error) {
  kind_ = Kind::FoxgloveLaserScan;
  kind = "foxglove_laser_scan";
  posed_ = true;
  double end_angle = 0;
  stamp_ns = stamp_of(m.find("timestamp"));
  if (!text_field(m, "frame_id", true, &frame_id, error) || !pose_of(m, position_, orientation_, error) ||
      !number_field(m, "start_angle", true, &angle_min_, error) || !number_field(m, "end_angle", true, &end_angle, error) ||
      !array_field(m, "ranges", true, &ranges_, error) || !array_field(m, "intensities", true, &intensities_, error))
    return false;
  if (!std::isfinite(angle_min_) || !std::isfinite(end_angle)) return *error = "start_angle or end_angle is not finite", false;
  static const Json kNone = Json::array();
  if (!ranges_) ranges_ = &kNone;
  declared = ranges_->size();
  // The ranges lie at equal steps from start_angle to end_angle, both included.
  angle_increment_ = ranges_->size() > 1 ? (end_angle - angle_min_) / static_cast<double>(ranges_->size() - 1) : 0;
  range_min_ = 0;
  range_max_ = INFINITY;
  if (intensities_ && intensities_->size() && intensities_->size() != ranges_->size()) {
    problems.push_back({"scan.intensities.length", "the scan has " + std::to_string(ranges_->size()) + " ranges and " +
                                                       std::to_string(intensities_->size()) + " intensities: the intensities are left out"});
    intensities_ = nullptr;
  }
  if (intensities_ && intensities_->size()) value_name = "intensity";
  else intensities_ = nullptr;
  return true;
}

// The fields' layout: x and y must be there (z is 0 when absent); the value is "intensity", or
// the first other field that is not a packed colour.
bool ScanMessage::read_layout(const Json& list, bool foxglove, std::string* error) {
  std::vector<std::pair<std::string, Field>> found;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& f = list[i];
    if (!f.is_object()) return *error = "fields[" + std::to_string(i) + "] is not a structure", false;
    std::string name;
    Field field;
    double offset = 0;
    if (!text_field(f, "name", foxglove, &name, error) || !number_field(f, "offset", foxglove, &offset, error)) {
      *error = "fields[" + std::to_string(i) + "]: " + *error;
      return false;
    }
    if (!(offset >= 0) || offset > 4294967295.0) return *error = "fields[" + std::to_string(i) + "]: the offset is not a count", false;
    field.offset = static_cast<uint64_t>(offset);
    if (foxglove) {
      field.datatype = foxglove_datatype(f.find("type"));
    } else {
      double datatype = 0;
      if (!number_field(f, "datatype", false, &datatype, error)) return *error = "fields[" + std::to_string(i) + "]: " + *error, false;
      field.datatype = datatype >= 1 && datatype <= 8 && datatype == std::floor(datatype) ? static_cast<int>(datatype) : 0;
    }
    field.present = true;
    fields.push_back(name);
    found.push_back({name, field});
  }
  auto take = [&](const char* name, Field* out) {
    for (const auto& [n, f] : found)
      if (n == name) return *out = f, true;
    return false;
  };
  if (!take("x", &x_) || !take("y", &y_)) return *error = "the cloud has no field \"x\" and \"y\": its points have no place", false;
  take("z", &z_);
  for (const auto& [n, f] : found)
    if (lower(n) == "intensity" && f.datatype) {
      value_ = f, value_name = n;
      break;
    }
  if (value_name.empty())
    for (const auto& [n, f] : found)
      if (n != "x" && n != "y" && n != "z" && lower(n) != "rgb" && lower(n) != "rgba" && f.datatype) {
        value_ = f, value_name = n;
        break;
      }
  for (auto [name, f] : {std::pair<const char*, Field*>{"x", &x_}, {"y", &y_}, {"z", &z_}})
    if (f->present && !f->datatype)
      return *error = std::string("field \"") + name + "\" has no known datatype: its points cannot be read", false;
  return true;
}

bool ScanMessage::read_point_cloud2(const Json& m, std::string* error) {
  kind_ = Kind::PointCloud2;
  kind = "point_cloud2";
  uint64_t height = 0;
  const Json* list = nullptr;
  double bigendian = 0;
  if (!header_of(m, &frame_id, &stamp_ns, error) || !count_field(m, "height", false, &height, error) ||
      !count_field(m, "width", false, &width_, error) || !array_field(m, "fields", false, &list, error) ||
      !number_field(m, "is_bigendian", false, &bigendian, error) || !count_field(m, "point_step", false, &point_step_, error) ||
      !count_field(m, "row_step", false, &row_step_, error) || !read_layout(*list, false, error) || !bytes_field(m, "data", false, &data_, error))
    return false;
  big_endian_ = bigendian != 0;
  declared = saturating_mul(width_, height);
  rows_ = height;
  // Each field of the points read must lie inside point_step, or it reads into the next point.
  for (auto [name, f] : {std::pair<std::string, const Field*>{"x", &x_}, {"y", &y_}, {"z", &z_}, {value_name, &value_}}) {
    if (!f->present || !f->datatype) continue;
    uint64_t end = saturating_add(f->offset, datatype_size(f->datatype));
    if (end > point_step_)
      problems.push_back({"scan.field.past_point_step", "field \"" + name + "\" (" + datatype_name(f->datatype) + " at offset " +
                                                            std::to_string(f->offset) + ") ends at byte " + std::to_string(end) +
                                                            ", past point_step " + std::to_string(point_step_) +
                                                            ": each point reads into the next"});
  }
  if (declared == 0) return true;
  if (point_step_ == 0 && declared > 1) {
    problems.push_back({"scan.point_step.zero", "point_step is 0 for " + std::to_string(declared) +
                                                    " points: every point would be the same bytes, so none is read"});
    rows_ = 0;
    return true;
  }
  if (height > 1 && row_step_ < saturating_mul(width_, point_step_)) {
    problems.push_back({"scan.row_step.too_small", "row_step " + std::to_string(row_step_) + " is less than width " + std::to_string(width_) +
                                                       " x point_step " + std::to_string(point_step_) +
                                                       ": the rows would overlap, so only the first row is read"});
    rows_ = 1;
  }
  // The complete points: those whose every field read lies in the data.
  uint64_t complete = 0, size = data_.size(), need = 0;
  for (const Field* f : {&x_, &y_, &z_, &value_})
    if (f->present && f->datatype) need = std::max(need, saturating_add(f->offset, datatype_size(f->datatype)));
  for (uint64_t r = 0; r < rows_; ++r) {
    uint64_t start = saturating_mul(r, row_step_);
    if (start >= size || size - start < need) break;
    complete += point_step_ ? std::min(width_, (size - start - need) / point_step_ + 1) : std::min<uint64_t>(width_, 1);
  }
  uint64_t readable = rows_ == 1 && height > 1 ? width_ : declared;
  if (complete < readable) {
    uint64_t needed = saturating_add(saturating_add(saturating_mul(rows_ - 1, row_step_), saturating_mul(width_ - 1, point_step_)), need);
    problems.push_back({"scan.data.short", "the data is " + std::to_string(size) + " bytes and the points need " + std::to_string(needed) +
                                               " (row_step " + std::to_string(row_step_) + " x height " + std::to_string(height) +
                                               "): " + std::to_string(complete) + " of the " + std::to_string(readable) +
                                               " points are complete and read"});
  }
  return true;
}

bool ScanMessage::read_foxglove_point_cloud(const Json& m, std::string* error) {
  kind_ = Kind::FoxglovePointCloud;
  kind = "foxglove_point_cloud";
  posed_ = true;
  const Json* list = nullptr;
  stamp_ns = stamp_of(m.find("timestamp"));
  if (!text_field(m, "frame_id", true, &frame_id, error) || !pose_of(m, position_, orientation_, error) ||
      !count_field(m, "point_stride", true, &point_step_, error) || !array_field(m, "fields", true, &list, error))
    return false;
  static const Json kNone = Json::array();
  if (!read_layout(list ? *list : kNone, true, error) || !bytes_field(m, "data", true, &data_, error)) return false;
  rows_ = 1;
  uint64_t size = data_.size();
  if (size == 0) return true;
  if (point_step_ == 0) {
    problems.push_back({"scan.point_step.zero", "point_stride is 0 for " + std::to_string(size) + " bytes of data: no point is read"});
    rows_ = 0;
    return true;
  }
  declared = size / point_step_ + (size % point_step_ ? 1 : 0);
  width_ = size / point_step_;
  row_step_ = size;
  for (auto [name, f] : {std::pair<std::string, const Field*>{"x", &x_}, {"y", &y_}, {"z", &z_}, {value_name, &value_}}) {
    if (!f->present || !f->datatype) continue;
    uint64_t end = saturating_add(f->offset, datatype_size(f->datatype));
    if (end > point_step_)
      problems.push_back({"scan.field.past_point_step", "field \"" + name + "\" (" + datatype_name(f->datatype) + " at offset " +
                                                            std::to_string(f->offset) + ") ends at byte " + std::to_string(end) +
                                                            ", past point_stride " + std::to_string(point_step_) +
                                                            ": each point reads into the next"});
  }
  if (size % point_step_)
    problems.push_back({"scan.data.short", "the data is " + std::to_string(size) + " bytes, not a whole number of points of " +
                                               std::to_string(point_step_) + " bytes: the last " + std::to_string(size % point_step_) +
                                               " bytes are no complete point"});
  return true;
}

bool ScanMessage::read_point_cloud(const Json& m, std::string* error) {
  kind_ = Kind::PointCloud;
  kind = "point_cloud";
  const Json* channels = nullptr;
  if (!header_of(m, &frame_id, &stamp_ns, error) || !array_field(m, "points", false, &points_, error) ||
      !array_field(m, "channels", false, &channels, error))
    return false;
  declared = points_->size();
  const Json* chosen = nullptr;
  std::string chosen_name;
  for (const Json& c : channels->elements()) {
    const Json* name = c.find("name");
    const Json* values = c.find("values");
    if (!name || !name->is_string()) continue;
    fields.push_back(name->as_string());
    if (values && values->is_object() && values->find("first")) return *error = "the channel \"" + name->as_string() + "\" came as a preview", false;
    if (!values || !values->is_array()) continue;
    if ((!chosen || lower(chosen_name) != "intensity") && (lower(name->as_string()) == "intensity" || !chosen))
      chosen = values, chosen_name = name->as_string();
  }
  if (chosen && chosen->size() != points_->size()) {
    problems.push_back({"scan.channel.length", "the cloud has " + std::to_string(points_->size()) + " points and its channel \"" + chosen_name +
                                                   "\" " + std::to_string(chosen->size()) + " values: the values are left out"});
    chosen = nullptr;
  }
  if (chosen && chosen->size()) channel_ = chosen, value_name = chosen_name;
  return true;
}

bool ScanMessage::place(ScanPoint& p) const {
  if (!posed_) return true;
  // p' = q p q* + t
  const double* q = orientation_;
  double tx = 2 * (q[1] * p.z - q[2] * p.y), ty = 2 * (q[2] * p.x - q[0] * p.z), tz = 2 * (q[0] * p.y - q[1] * p.x);
  double x = p.x + q[3] * tx + (q[1] * tz - q[2] * ty);
  double y = p.y + q[3] * ty + (q[2] * tx - q[0] * tz);
  double z = p.z + q[3] * tz + (q[0] * ty - q[1] * tx);
  p.x = x + position_[0], p.y = y + position_[1], p.z = z + position_[2];
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

void ScanMessage::for_each(const std::function<void(const ScanPoint&, bool)>& visit) const {
  switch (kind_) {
    case Kind::LaserScan:
    case Kind::FoxgloveLaserScan: {
      const auto& ranges = ranges_->elements();
      for (size_t i = 0; i < ranges.size(); ++i) {
        ScanPoint p;
        double r = ranges[i].is_number() ? ranges[i].as_double() : NAN;
        // Finite angle_min and angle_increment can still step past the largest double.
        double angle = angle_min_ + static_cast<double>(i) * angle_increment_;
        bool valid = std::isfinite(r) && r >= range_min_ && r <= range_max_ && std::isfinite(angle);
        p.x = r * std::cos(angle);
        p.y = r * std::sin(angle);
        if (intensities_ && (*intensities_)[i].is_number()) {
          p.value = (*intensities_)[i].as_double();
          p.has_value = std::isfinite(p.value);
        }
        valid = valid && place(p);
        visit(p, valid);
      }
      return;
    }
    case Kind::PointCloud2:
    case Kind::FoxglovePointCloud: {
      const auto* bytes = reinterpret_cast<const unsigned char*>(data_.data());
      uint64_t size = data_.size(), need = 0;
      for (const Field* f : {&x_, &y_, &z_, &value_})
        if (f->present && f->datatype) need = std::max(need, f->offset + datatype_size(f->datatype));
      for (uint64_t r = 0; r < rows_; ++r) {
        uint64_t start = saturating_mul(r, row_step_);
        if (start >= size || size - start < need) return;
        for (uint64_t c = 0; c < width_; ++c) {
          uint64_t at = saturating_add(start, saturating_mul(c, point_step_));
          if (at > size || size - at < need) break;
          const unsigned char* p0 = bytes + at;
          ScanPoint p;
          p.x = read_value(p0 + x_.offset, x_.datatype, big_endian_);
          p.y = read_value(p0 + y_.offset, y_.datatype, big_endian_);
          if (z_.present) p.z = read_value(p0 + z_.offset, z_.datatype, big_endian_);
          if (value_.present && value_.datatype) {
            p.value = read_value(p0 + value_.offset, value_.datatype, big_endian_);
            p.has_value = std::isfinite(p.value);
          }
          bool valid = std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
          valid = valid && place(p);
          visit(p, valid);
          if (point_step_ == 0) break;  // one point (checked in read)
        }
      }
      return;
    }
    case Kind::PointCloud: {
      const auto& points = points_->elements();
      for (size_t i = 0; i < points.size(); ++i) {
        ScanPoint p;
        bool valid = points[i].is_object() && number_of(points[i].find("x"), &p.x) && number_of(points[i].find("y"), &p.y) &&
                     number_of(points[i].find("z"), &p.z) && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
        if (channel_ && (*channel_)[i].is_number()) {
          p.value = (*channel_)[i].as_double();
          p.has_value = std::isfinite(p.value);
        }
        visit(p, valid);
      }
      return;
    }
  }
}

}  // namespace logscope::views
