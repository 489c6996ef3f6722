// `logscope frames` (cli/frames_command.cpp over codec/views/image_frames.h) on files our writers
// make: every raw encoding at odd widths, padded rows and both byte orders in a bag, an MCAP
// (CDR and protobuf foxglove.RawImage) and a rosbag2 bag; the PNGs it writes, read by PIL, equal
// the pixels numpy and OpenCV compute from the same bytes (tests/reference/image_reference.py).
// JPEG and PNG frames are written as stored, or converted with --png; damaged frames are named
// with their time and place and the rest written. The real samples: every frame of each image
// topic, the first ones against python3-rosbag's reading.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/json.h"
#include "image_writers.h"
#include "test_support.h"
#include "views/image_convert.h"

using namespace logscope;
using namespace image_writers;

namespace {

std::string seconds_text(uint64_t ns) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return buffer;
}

bool have_tools() {
  bool ok = std::system("/usr/bin/python3 -c 'import cv2, numpy, PIL' 2>/dev/null") == 0;
  if (!ok) test_support::skip("/usr/bin/python3 with cv2, numpy and PIL (python3-opencv, python3-numpy, python3-pil) is missing: no reference");
  return ok;
}

void python(const std::string& script, const std::string& arguments) {
  std::string command = "/usr/bin/python3 '" + std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/" + script + "' " + arguments;
  REQUIRE(std::system(command.c_str()) == 0);
}

// Runs the CLI: stdout returned, stderr in `err`, the exit status in `status`.
std::string cli(const std::string& arguments, int* status, std::string* err) {
  const std::string err_path = test_support::scratch_dir("frames_stderr") + "/stderr.txt";
  std::string command = std::string(LOGSCOPE_CLI) + " " + arguments + " 2>'" + err_path + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  *status = WEXITSTATUS(::pclose(pipe));
  *err = test_support::read_text(err_path);
  return out;
}

// `frames` into a fresh folder; its --json summary.
Json frames(const std::string& file, const std::string& topic, const std::string& out, const std::string& more, int* status, std::string* err) {
  std::filesystem::remove_all(out);
  std::string text = cli("frames '" + file + "' --topic " + topic + " -o '" + out + "' --json " + more, status, err);
  auto j = Json::parse(text);
  REQUIRE_MESSAGE(j, "not JSON: " << text << " / " << *err);
  return *j;
}

// PIL's reading of each PNG against an RGBA file: the mismatches, "" when none.
std::string compare_pngs(const std::string& dir, const Json& list) {
  const std::string input = dir + ".compare.json", result = dir + ".compare.out";
  std::ofstream(input) << list.dump();
  python("image_frames_reference.py", "compare '" + input + "' > '" + result + "'");
  auto j = Json::parse(test_support::read_text(result));
  REQUIRE(j);
  return j->elements().empty() ? "" : j->dump();
}

Json compare_item(const std::string& png, const std::string& rgba, int tolerance = 0) {
  Json j = Json::object();
  j["png"] = png;
  j["rgba"] = rgba;
  j["tolerance"] = tolerance;
  return j;
}

unsigned bytes_per_pixel(const std::string& encoding) {
  if (encoding == "rgb8" || encoding == "bgr8" || encoding == "8UC3") return 3;
  if (encoding == "rgba8" || encoding == "bgra8" || encoding == "32FC1") return 4;
  if (encoding == "mono8" || encoding == "8UC1" || encoding.back() == '8') return 1;
  return 2;
}

// Every raw encoding at odd (yuv422: even) widths, rows padded or not, both byte orders; depth
// with holes. Written for image_reference.py's `convert` into `dir`.
std::vector<Case> raw_cases(const std::string& dir) {
  std::mt19937 rng(3535);
  std::vector<Case> cases;
  Json list = Json::array();
  for (const std::string& encoding : views::raw_image_encodings()) {
    const bool yuv = encoding == "yuv422" || encoding == "uyvy" || encoding == "yuv422_yuy2" || encoding == "yuyv";
    const std::vector<std::pair<uint32_t, uint32_t>> shapes = yuv ? std::vector<std::pair<uint32_t, uint32_t>>{{6, 5}, {2, 1}}
                                                                  : std::vector<std::pair<uint32_t, uint32_t>>{{7, 5}, {13, 3}, {1, 1}};
    for (auto [width, height] : shapes)
      for (uint32_t padding : {0u, 3u})
        for (bool big : {false, true}) {
          const uint32_t row_bytes = width * bytes_per_pixel(encoding), step = row_bytes + padding;
          std::string data(uint64_t(step) * height, '\0');
          for (char& b : data) b = static_cast<char>(rng());
          if (encoding == "32FC1")
            for (uint32_t y = 0; y < height; ++y)
              for (uint32_t x = 0; x < width; ++x) {
                float v = 0.25f + float(rng() % 4000) / 400.f;
                if (rng() % 7 == 0) v = NAN;
                uint32_t bits;
                std::memcpy(&bits, &v, 4);
                for (int k = 0; k < 4; ++k) data[uint64_t(y) * step + x * 4 + (big ? 3 - k : k)] = static_cast<char>(bits >> (8 * k));
              }
          if (encoding == "16UC1")
            for (uint32_t y = 0; y < height; ++y) data[uint64_t(y) * step] = data[uint64_t(y) * step + 1] = 0;  // holes
          Case c{encoding + "_" + std::to_string(width) + "x" + std::to_string(height) + "_s" + std::to_string(step) + (big ? "_be" : "_le"),
                 encoding, data, width, height, step, big};
          test_support::write_file(dir + "/" + c.name + ".bin", std::vector<uint8_t>(data.begin(), data.end()));
          Json j = Json::object();
          j["name"] = c.name;
          j["encoding"] = encoding;
          j["width"] = width;
          j["height"] = height;
          j["is_bigendian"] = big;
          j["step"] = step;
          j["data"] = c.name + ".bin";
          list.push_back(j);
          cases.push_back(std::move(c));
        }
  }
  std::ofstream(dir + "/cases.json") << list.dump();
  python("image_reference.py", "convert '" + dir + "'");
  return cases;
}

// Every case's PNG (named by its message's time) against the reference pixels.
void check_raw_frames(const std::string& file, const std::string& ref, const std::vector<Case>& cases, const std::vector<size_t>& which) {
  const std::string out = file + ".frames";
  int status = 0;
  std::string err;
  Json summary = frames(file, "/camera", out, "", &status, &err);
  CAPTURE(err);
  CHECK(status == 0);
  CHECK(summary.find("written")->as_uint() == which.size());
  CHECK(summary.find("skipped")->as_uint() == 0);
  Json list = Json::array();
  for (size_t i = 0; i < which.size(); ++i)
    list.push_back(compare_item(out + "/" + seconds_text(time_of(i)) + ".png", ref + "/" + cases[which[i]].name + ".rgba"));
  CHECK(std::distance(std::filesystem::directory_iterator(out), std::filesystem::directory_iterator()) == static_cast<long>(which.size()));
  CHECK(compare_pngs(out, list) == "");
}

}  // namespace

TEST_CASE("frames: every raw encoding, in a bag, an MCAP (CDR, protobuf) and a rosbag2 bag, equals OpenCV's pixels in PIL's reading") {
  if (!have_tools()) return;
  // Made once: doctest runs the case again for each subcase.
  static const std::string ref = test_support::scratch_dir("frames_raw_reference");
  static const std::vector<Case> cases = raw_cases(ref);
  const std::string dir = test_support::scratch_dir("frames_raw");
  REQUIRE(cases.size() > 200);
  std::vector<size_t> all, little;
  std::vector<std::string> ros1, ros2, proto;
  for (size_t i = 0; i < cases.size(); ++i) {
    all.push_back(i);
    ros1.push_back(ros1_image(i, cases[i]));
    ros2.push_back(ros2_image(i, cases[i]));
    if (!cases[i].big) {
      proto.push_back(protobuf_image(cases[i]));
      little.push_back(i);
    }
  }
  SUBCASE("bag (sensor_msgs/Image, lz4 chunks)") {
    save(dir + "/raw.bag", bag_of("sensor_msgs/Image", kRos1Image, ros1));
    check_raw_frames(dir + "/raw.bag", ref, cases, all);
  }
  SUBCASE("MCAP (sensor_msgs/msg/Image, CDR)") {
    save(dir + "/raw_cdr.mcap", mcap_of("sensor_msgs/msg/Image", "ros2msg", kRos2Image, "cdr", ros2));
    check_raw_frames(dir + "/raw_cdr.mcap", ref, cases, all);
  }
  SUBCASE("MCAP (sensor_msgs/Image, ros1msg)") {
    save(dir + "/raw_ros1.mcap", mcap_of("sensor_msgs/Image", "ros1msg", kRos1Image, "ros1", ros1));
    check_raw_frames(dir + "/raw_ros1.mcap", ref, cases, all);
  }
  SUBCASE("MCAP (foxglove.RawImage, protobuf; little-endian, it has no byte order field)") {
    save(dir + "/raw_protobuf.mcap", mcap_of("foxglove.RawImage", "protobuf", descriptor_set(dir, "RawImage"), "protobuf", proto));
    check_raw_frames(dir + "/raw_protobuf.mcap", ref, cases, little);
  }
  SUBCASE("rosbag2 (sensor_msgs/msg/Image)") {
    rosbag2_of(dir + "/raw_bag2", "sensor_msgs/msg/Image", kRos2Image, ros2);
    check_raw_frames(dir + "/raw_bag2", ref, cases, all);
  }
  SUBCASE("--from, --to and --every pick by time") {
    save(dir + "/range.bag", bag_of("sensor_msgs/Image", kRos1Image, ros1));
    int status = 0;
    std::string err;
    Json summary = frames(dir + "/range.bag", "/camera", dir + "/range", "--from " + seconds_text(time_of(10)) + " --to " + seconds_text(time_of(29)) + " --every 4",
                          &status, &err);
    CHECK(status == 0);
    CHECK(summary.find("written")->as_uint() == 5);  // 10, 14, 18, 22, 26
    for (size_t i : {10, 14, 18, 22, 26}) CHECK(std::filesystem::exists(dir + "/range/" + seconds_text(time_of(i)) + ".png"));
  }
}

TEST_CASE("frames: JPEG and PNG written as stored, or as PNG with --png, compressedDepth as PNG, damage named and the rest written") {
  if (!have_tools()) return;
  const std::string dir = test_support::scratch_dir("frames_compressed");
  python("image_frames_reference.py", "encode '" + dir + "'");
  python("image_reference.py", "compressed-depth '" + dir + "'");
  const std::string jpeg = test_support::read_text(dir + "/picture.jpg"), png = test_support::read_text(dir + "/picture.png");
  auto depth = Json::parse(test_support::read_text(dir + "/compressed.json"));
  REQUIRE(depth);
  REQUIRE(depth->elements().size() >= 2);
  // 0 JPEG, 1 PNG, 2 a JPEG labelled png (the data wins, a warning), 3 a JPEG cut in half,
  // 4 an unknown format, 5 PNG cut, 6 and 7 compressedDepth.
  std::vector<std::pair<std::string, std::string>> messages = {
      {"jpeg", jpeg}, {"png", png}, {"png", jpeg}, {"rgb8; jpeg compressed bgr8", jpeg.substr(0, jpeg.size() / 2)}, {"h264", std::string("\x00\x00\x00\x01gM", 6)},
      {"png", png.substr(0, png.size() - 20)}};
  for (size_t k = 0; k < 2; ++k) {
    const Json& d = depth->elements()[k];
    messages.push_back({d.find("format")->as_string(), test_support::read_text(dir + "/" + d.find("data")->as_string())});
  }
  std::vector<std::string> ros1, proto;
  for (size_t i = 0; i < messages.size(); ++i) {
    ros1.push_back(ros1_compressed(i, messages[i].first, messages[i].second));
    proto.push_back(protobuf_compressed(messages[i].first, messages[i].second));
  }
  save(dir + "/compressed.bag", bag_of("sensor_msgs/CompressedImage", kRos1Compressed, ros1));
  save(dir + "/compressed.mcap", mcap_of("foxglove.CompressedImage", "protobuf", descriptor_set(dir, "CompressedImage"), "protobuf", proto));
  for (const char* name : {"compressed.bag", "compressed.mcap"}) {
    CAPTURE(name);
    const std::string file = dir + "/" + name, out = file + ".frames", out_png = file + ".png";
    auto at = [&](const std::string& folder, size_t i, const char* ext) { return folder + "/" + seconds_text(time_of(i)) + "." + ext; };
    int status = 0;
    std::string err;
    Json summary = frames(file, "/camera", out, "", &status, &err);
    CAPTURE(err);
    CHECK(status == 1);
    CHECK(summary.find("written")->as_uint() == 5);
    CHECK(test_support::read_text(at(out, 0, "jpg")) == jpeg);
    CHECK(test_support::read_text(at(out, 1, "png")) == png);
    CHECK(test_support::read_text(at(out, 2, "jpg")) == jpeg);
    REQUIRE(summary.find("warnings")->elements().size() == 1);
    CHECK(summary.find("warnings")->elements()[0].as_string().find("taken as one") != std::string::npos);
    const auto& problems = summary.find("problems")->elements();
    REQUIRE(problems.size() == 3);
    CHECK(problems[0].find("index")->as_uint() == 3);
    CHECK(problems[0].find("code")->as_string().rfind("image.jpeg.", 0) == 0);
    CHECK(problems[0].find("time_ns")->as_string() == std::to_string(time_of(3)));
    CHECK(problems[0].find("offset")->is_number());
    CHECK(problems[1].find("code")->as_string() == "image.format.unknown");
    CHECK(problems[1].find("message")->as_string().find("\"h264\"") != std::string::npos);
    CHECK(problems[2].find("code")->as_string() == "image.png.damaged");
    // stderr names each with its time and place
    CHECK(err.find("frame at " + seconds_text(time_of(3)) + " s (") != std::string::npos);
    CHECK(err.find("image.format.unknown") != std::string::npos);
    Json list = Json::array();
    for (size_t k = 0; k < 2; ++k)
      list.push_back(compare_item(at(out, 6 + k, "png"), dir + "/" + depth->elements()[k].find("name")->as_string() + ".rgba"));
    CHECK(compare_pngs(out, list) == "");

    summary = frames(file, "/camera", out_png, "--png", &status, &err);
    CHECK(status == 1);
    CHECK(summary.find("written")->as_uint() == 5);
    list = Json::array();
    // libjpeg-turbo decodes here as in PIL (Debian builds Pillow on it): equal to the byte.
    list.push_back(compare_item(at(out_png, 0, "png"), dir + "/picture.jpg.rgba"));
    list.push_back(compare_item(at(out_png, 1, "png"), dir + "/picture.png.rgba"));
    list.push_back(compare_item(at(out_png, 2, "png"), dir + "/picture.jpg.rgba"));
    CHECK(compare_pngs(out_png, list) == "");
    CHECK(!std::filesystem::exists(at(out_png, 0, "jpg")));
  }
}

TEST_CASE("frames: damaged raw frames (short data, a lying step, an unknown encoding) are named and the rest written") {
  const std::string dir = test_support::scratch_dir("frames_damaged");
  Case good{"good", "rgb8", std::string(5 * 3 * 4, '\x40'), 5, 4, 15, false};
  Case short_data = good, lying_step = good, unknown = good, mono = good;
  short_data.data.resize(40);
  lying_step.step = 12;  // shorter than a row of 5 rgb8 pixels
  unknown.encoding = "rgb9";
  mono.encoding = "mono8";
  mono.step = 5;
  std::vector<std::string> ros1 = {ros1_image(0, good), ros1_image(1, short_data), ros1_image(2, lying_step), ros1_image(3, unknown), ros1_image(4, mono)};
  save(dir + "/damaged.bag", bag_of("sensor_msgs/Image", kRos1Image, ros1));
  int status = 0;
  std::string err;
  Json summary = frames(dir + "/damaged.bag", "/camera", dir + "/out", "", &status, &err);
  CAPTURE(err);
  CHECK(status == 1);
  CHECK(summary.find("written")->as_uint() == 2);
  CHECK(std::filesystem::exists(dir + "/out/" + seconds_text(time_of(0)) + ".png"));
  CHECK(std::filesystem::exists(dir + "/out/" + seconds_text(time_of(4)) + ".png"));
  const auto& problems = summary.find("problems")->elements();
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].find("code")->as_string() == "image.data.short");
  CHECK(problems[1].find("code")->as_string() == "image.step.too_small");
  CHECK(problems[2].find("code")->as_string() == "image.encoding.unknown");
  CHECK(problems[2].find("message")->as_string().find("\"rgb9\"") != std::string::npos);
  for (const Json& p : problems) {
    CHECK(p.find("offset")->is_number());  // the chunk's, with the record's offset in its data
    CHECK(p.find("place")->as_string().find("the chunk at byte ") == 0);
  }
  CHECK(err.find("frame at " + seconds_text(time_of(3)) + " s (the chunk at byte ") != std::string::npos);

  SUBCASE("arguments and topics that are not images name themselves") {
    std::string out = cli("frames '" + dir + "/damaged.bag' --topic /nothing -o '" + dir + "/x'", &status, &err);
    CHECK(status == 2);
    CHECK(err.find("its image topics: /camera (sensor_msgs/Image)") != std::string::npos);
    out = cli("frames '" + dir + "/damaged.bag' --topic /camera", &status, &err);
    CHECK(status == 2);
    CHECK(err.find("-o DIR") != std::string::npos);
    out = cli("frames '" + dir + "/damaged.bag' --topic /camera -o '" + dir + "/x' --every 0", &status, &err);
    CHECK(status == 2);
  }
}

TEST_CASE("frames: the real bags' image topics, every frame, the first against python3-rosbag and OpenCV") {
  if (!test_support::have_samples() || !have_tools()) return;
  if (std::system("/usr/bin/python3 -c 'import rosbag' 2>/dev/null") != 0) {
    test_support::skip("python3-rosbag is missing: the real frames were not read");
    return;
  }
  size_t topics = 0;
  for (const char* bag : {"IntelRealSense__librealsense__single_depth_color_640x480", "jsk-ros-pkg__jsk_demos__test-button-light",
                          "eric-wieser__ros_numpy__test"}) {
    CAPTURE(bag);
    const std::string path = test_support::sample(std::string("rosbag/real/") + bag + ".bag");
    if (!std::filesystem::exists(path)) {
      test_support::skip(path + " is missing");
      continue;
    }
    const std::string dir = test_support::scratch_dir(std::string("frames_real_") + bag);
    python("image_frames_reference.py", "bag '" + path + "' '" + dir + "'");
    auto reference = Json::parse(test_support::read_text(dir + "/bag.json"));
    REQUIRE(reference);
    for (const auto& [topic, info] : reference->find("topics")->items()) {
      CAPTURE(topic);
      const std::string out = dir + "/out" + std::to_string(topics++);
      int status = 0;
      std::string err;
      Json summary = frames(path, "'" + topic + "'", out, "", &status, &err);
      CAPTURE(err);
      CHECK(status == 0);
      CHECK(summary.find("written")->as_uint() == info.find("count")->as_uint());
      Json list = Json::array();
      for (const Json& c : reference->find("raw")->elements())
        if (c.find("topic")->as_string() == topic)
          list.push_back(compare_item(out + "/" + seconds_text(std::stoull(c.find("time_ns")->as_string())) + ".png",
                                      dir + "/" + c.find("name")->as_string() + ".rgba"));
      if (!list.elements().empty()) CHECK(compare_pngs(out, list) == "");
      for (const Json& c : reference->find("compressed")->elements()) {
        if (c.find("topic")->as_string() != topic) continue;
        const std::string stem = out + "/" + seconds_text(std::stoull(c.find("time_ns")->as_string()));
        const std::string stored = std::filesystem::exists(stem + ".png") ? stem + ".png" : stem + ".jpg";
        CHECK(test_support::read_text(stored) == test_support::read_text(dir + "/" + c.find("data")->as_string()));
      }
    }
  }
  CHECK(topics >= 5);  // RealSense depth and colour, jsk's camera, ros_numpy's raw and compressed
}

TEST_CASE("frames: the real ROS 2 MCAP's compressed camera, every frame as stored, with the definition it lacks") {
  const std::string path = test_support::sample("mcap/Kawwshall__specops-clip-review__sample.mcap");
  if (!test_support::have_samples() || !std::filesystem::exists(path)) {
    test_support::skip(path + " is missing");
    return;
  }
  const std::string dir = test_support::scratch_dir("frames_real_mcap");
  int status = 0;
  std::string err;
  // The file stores sensor_msgs/msg/CompressedImage's schema empty: said, not guessed.
  cli("frames '" + path + "' --topic /camera/image -o '" + dir + "/none'", &status, &err);
  CHECK(status == 2);
  CHECK(err.find("empty definition for sensor_msgs/msg/CompressedImage") != std::string::npos);
  // With ROS 2's definitions (common_interfaces), every frame as stored.
  for (const auto& [file, text] : std::vector<std::pair<std::string, std::string>>{
           {"sensor_msgs/msg/CompressedImage.msg", "std_msgs/Header header\nstring format\nuint8[] data\n"},
           {"std_msgs/msg/Header.msg", "builtin_interfaces/Time stamp\nstring frame_id\n"},
           {"builtin_interfaces/msg/Time.msg", "int32 sec\nuint32 nanosec\n"}}) {
    std::filesystem::create_directories(std::filesystem::path(dir + "/msgs/" + file).parent_path());
    std::ofstream(dir + "/msgs/" + file) << text;
  }
  Json summary = frames(path, "/camera/image", dir + "/out", "--msg-path '" + dir + "/msgs'", &status, &err);
  CAPTURE(err);
  CHECK(status == 0);
  CHECK(summary.find("written")->as_uint() == 3);  // the file's 3 messages (test_mcap_samples)
  // Its synthetic PNGs are damaged (Python's zlib agrees): the first's IDAT fails its CRC and its
  // zlib check, each inflates to a byte more than a 1 x 1 RGB image needs. Their pixels read (PIL
  // shows them too), so they are written as stored, each with its warning.
  REQUIRE(summary.find("warnings")->elements().size() == 3);
  for (const Json& w : summary.find("warnings")->elements()) CHECK(w.as_string().find("the PNG is damaged but reads: IDAT") != std::string::npos);
  // Each frame is a PNG that lies in the file as it is, and PIL reads it.
  const std::string whole = test_support::read_text(path);
  size_t frames_seen = 0;
  Json list = Json::array();
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/out")) {
    const std::string bytes = test_support::read_text(entry.path().string());
    CHECK(entry.path().extension() == ".png");
    CHECK(bytes.rfind("\x89PNG", 0) == 0);
    CHECK(whole.find(bytes) != std::string::npos);
    ++frames_seen;
  }
  CHECK(frames_seen == 3);
}
