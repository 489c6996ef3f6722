// Image messages as our writers store them, for the image tests (test_frames.cpp, test_images.cpp):
// sensor_msgs/Image and CompressedImage in ROS 1 and CDR, foxglove.RawImage and CompressedImage in
// protobuf, and one-topic files of them (a bag, an MCAP, a rosbag2 bag).
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cdr/writer.h"
#include "mcap/writer.h"
#include "protobuf_support.h"
#include "rosbag/writer.h"
#include "rosbag2/writer.h"
#include "test_support.h"

namespace image_writers {

using namespace logscope;

constexpr uint64_t kStart = 1767225600000000000ull;
inline uint64_t time_of(size_t i) { return kStart + i * 10000000ull + 123; }

struct Case {
  std::string name, encoding, data;
  uint32_t width, height, step;
  bool big;
};

inline void put_u32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline void put_string(std::string* out, const std::string& s) {
  put_u32(out, static_cast<uint32_t>(s.size()));
  *out += s;
}
inline void put_varint(std::string* out, uint64_t v) { protobuf_support::append_varint(out, v); }
inline void put_bytes_field(std::string* out, int field, const std::string& s) {
  out->push_back(static_cast<char>(field << 3 | 2));
  put_varint(out, s.size());
  *out += s;
}
inline void put_fixed32_field(std::string* out, int field, uint32_t v) {
  out->push_back(static_cast<char>(field << 3 | 5));
  put_u32(out, v);
}

inline const char* kRos1Header = "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";
inline const std::string kRos1Image = std::string(
    "std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n"
    "================================================================================\n") + kRos1Header;
inline const std::string kRos1Compressed = std::string(
    "std_msgs/Header header\nstring format\nuint8[] data\n"
    "================================================================================\n") + kRos1Header;
inline const char* kRos2Header =
    "================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
inline const std::string kRos2Image =
    std::string("std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n") + kRos2Header;

inline std::string ros1_header(size_t i) {
  std::string out;
  put_u32(&out, static_cast<uint32_t>(i));
  put_u32(&out, static_cast<uint32_t>(time_of(i) / 1000000000u));
  put_u32(&out, static_cast<uint32_t>(time_of(i) % 1000000000u));
  put_string(&out, "camera");
  return out;
}

inline std::string ros1_image(size_t i, const Case& c) {
  std::string out = ros1_header(i);
  put_u32(&out, c.height);
  put_u32(&out, c.width);
  put_string(&out, c.encoding);
  out.push_back(c.big ? 1 : 0);
  put_u32(&out, c.step);
  put_string(&out, c.data);
  return out;
}

inline std::string ros1_compressed(size_t i, const std::string& format, const std::string& data) {
  std::string out = ros1_header(i);
  put_string(&out, format);
  put_string(&out, data);
  return out;
}

inline std::string ros2_image(size_t i, const Case& c) {
  cdr::CdrWriter w;
  w.put<int32_t>(static_cast<int32_t>(time_of(i) / 1000000000u));
  w.put<uint32_t>(static_cast<uint32_t>(time_of(i) % 1000000000u));
  w.string("camera");
  w.put<uint32_t>(c.height);
  w.put<uint32_t>(c.width);
  w.string(c.encoding);
  w.put<uint8_t>(c.big ? 1 : 0);
  w.put<uint32_t>(c.step);
  w.sequence_length(static_cast<uint32_t>(c.data.size()));
  w.octets(c.data);
  return w.bytes();
}

inline std::string protobuf_image(const Case& c) {
  std::string out;
  put_fixed32_field(&out, 2, c.width);
  put_fixed32_field(&out, 3, c.height);
  put_bytes_field(&out, 4, c.encoding);
  put_fixed32_field(&out, 5, c.step);
  put_bytes_field(&out, 6, c.data);
  put_bytes_field(&out, 7, "camera");  // after data, as field numbers order it
  return out;
}

inline std::string protobuf_compressed(const std::string& format, const std::string& data) {
  std::string out;
  put_bytes_field(&out, 2, data);
  put_bytes_field(&out, 3, format);
  put_bytes_field(&out, 4, "camera");
  return out;
}

inline std::string descriptor_set(const std::string& dir, const char* proto) {
  const std::string path = dir + "/" + proto + ".desc";
  int status = 0;
  protobuf_support::run("protoc -I '" + protobuf_support::proto_root() + "' --descriptor_set_out='" + path + "' --include_imports foxglove/" + proto + ".proto", "",
                        &status);
  REQUIRE(status == 0);
  return test_support::read_text(path);
}

inline void save(const std::string& path, const std::string& bytes) { test_support::write_file(path, std::vector<uint8_t>(bytes.begin(), bytes.end())); }

inline std::string bag_of(const std::string& type, const std::string& definition, const std::vector<std::string>& messages) {
  rosbag::MemorySink sink;
  rosbag::WriterOptions options;
  options.compression = "lz4";
  options.chunk_threshold = 4096;  // several chunks
  rosbag::BagWriter writer(sink, options);
  uint32_t camera = writer.add_connection("/camera", type, "*", definition);
  for (size_t i = 0; i < messages.size(); ++i) REQUIRE(writer.write(camera, rosbag::Time::from_ns(time_of(i)), messages[i]));
  REQUIRE(writer.close());
  return sink.bytes;
}

inline std::string mcap_of(const std::string& type, const std::string& schema_encoding, const std::string& schema, const std::string& encoding,
                    const std::vector<std::string>& messages) {
  mcap::WriterOptions options;
  options.chunk_size = 4096;
  mcap::Writer writer(options);
  uint16_t channel = writer.add_channel(writer.add_schema(type, schema_encoding, schema), "/camera", encoding);
  for (size_t i = 0; i < messages.size(); ++i) writer.write_message(channel, static_cast<uint32_t>(i), time_of(i), time_of(i), messages[i]);
  return writer.finish();
}

// A rosbag2 bag folder at `dir` of one topic.
inline void rosbag2_of(const std::string& dir, const std::string& type, const std::string& definition, const std::vector<std::string>& data) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<rosbag2::WriterTopic> topics = {{"/camera", type, definition}};
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/camera_0.db3").c_str(), &db) == SQLITE_OK);
  std::string error;
  REQUIRE_MESSAGE(rosbag2::create_tables(db, topics, &error), error);
  std::vector<rosbag2::WriterMessage> messages;
  rosbag2::YamlFacts facts;
  facts.file = "camera_0.db3";
  facts.counts = {data.size()};
  facts.start_ns = static_cast<int64_t>(time_of(0));
  facts.end_ns = static_cast<int64_t>(time_of(data.size() - 1));
  for (size_t i = 0; i < data.size(); ++i)
    messages.push_back({0, static_cast<int64_t>(time_of(i)), std::vector<uint8_t>(data[i].begin(), data[i].end())});
  REQUIRE_MESSAGE(rosbag2::insert_messages(db, messages, &error), error);
  sqlite3_close(db);
  std::ofstream(dir + "/metadata.yaml") << rosbag2::metadata_yaml(topics, facts);
}

}  // namespace image_writers
