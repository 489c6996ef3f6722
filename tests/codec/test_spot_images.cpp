// Spot's camera images in BDDF (docs/views.md, "Images"): the messages are made by libprotobuf
// itself from protobuf text with the test schemas (tests/fixtures/proto/bosdyn/api/image.proto,
// the SDK's field numbers), so the codec's reading is checked against protobuf's own encoding.
// Each camera of a GetImageResponse series is an image topic; every pixel and depth value equals
// what was written; damage and what logscope does not read are named; the CLI writes the frames.
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "bddf/inspector.h"
#include "bddf/writer.h"
#include "core/byte_source.h"
#include "protobuf/schemas.h"
#include "protobuf_support.h"
#include "views/image_convert.h"
#include "views/image_png.h"
#include "views/image_query.h"

using namespace logscope;
using protobuf_support::gpb::DescriptorPool;

namespace {

constexpr int64_t kStart = 1767225600000000000ll;
int64_t at(int i) { return kStart + i * 100000000ll; }

// Protobuf text's escape for bytes: every byte as \ooo.
std::string escaped(const std::string& bytes) {
  std::string out = "\"";
  char buffer[5];
  for (unsigned char c : bytes) {
    std::snprintf(buffer, sizeof buffer, "\\%03o", c);
    out += buffer;
  }
  return out + "\"";
}

std::string serialized(const DescriptorPool& pool, const std::string& type, const std::string& text) {
  google::protobuf::DynamicMessageFactory factory(&pool);
  const google::protobuf::Descriptor* descriptor = pool.FindMessageTypeByName(type);
  REQUIRE(descriptor);
  std::unique_ptr<google::protobuf::Message> message(factory.GetPrototype(descriptor)->New());
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, message.get()), text.substr(0, 200));
  return message->SerializeAsString();
}

std::string image_text(int cols, int rows, const std::string& data, const char* format, const char* pixel_format) {
  return "image { cols: " + std::to_string(cols) + " rows: " + std::to_string(rows) + " data: " + escaped(data) + " format: " + format +
         (pixel_format ? std::string(" pixel_format: ") + pixel_format : std::string()) + " }";
}

std::string response_text(const std::string& camera, const std::string& image, double depth_scale = 0, const char* status = "STATUS_OK") {
  std::string source = "source { name: \"" + camera + "\"" + (depth_scale ? " depth_scale: " + std::to_string(depth_scale) : "") + " }";
  return (image.empty() ? "" : "shot { " + image + " frame_name_image_sensor: \"" + camera + "_sensor\" } ") + source + " status: " + status;
}

std::string bytes_by(size_t n, const std::function<uint8_t(size_t)>& f) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(f(i));
  return s;
}

std::string u16_le(const std::vector<uint16_t>& values) {
  std::string s;
  for (uint16_t v : values) s += std::string{static_cast<char>(v & 0xff), static_cast<char>(v >> 8)};
  return s;
}

struct Written {
  std::string grey, rgb, rgba, jpeg;
  std::vector<uint16_t> depth, far, grey16;
};

constexpr int kGreyCols = 33, kGreyRows = 17;  // odd, so no row is a multiple of 4 bytes

// A BDDF of Spot's image messages: "spot/images" (GetImageResponse, cameras left, depth, rgb and
// far) and "camera/back" (ImageResponse, one image a message: each a case), and a POD series.
std::vector<uint8_t> spot_file(const DescriptorPool& pool, Written* w) {
  w->grey = bytes_by(kGreyCols * kGreyRows, [](size_t i) { return static_cast<uint8_t>((i % kGreyCols) * 7 + (i / kGreyCols) * 13); });
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 9; ++x) w->depth.push_back(x == 0 && y == 0 ? 0 : static_cast<uint16_t>((x + 1) * 100 + y));
  w->rgb = bytes_by(7 * 3 * 3, [](size_t i) { return static_cast<uint8_t>(i * 5); });
  for (int i = 0; i < 12; ++i) w->far.push_back(i == 5 ? 0 : static_cast<uint16_t>((i + 1) * 400));
  w->rgba = bytes_by(5 * 4 * 4, [](size_t i) { return static_cast<uint8_t>(255 - i * 3); });
  w->jpeg = std::string("\xff\xd8\xff\xe0", 4) + std::string(40, 'j') + std::string("\xff\xd9", 2);
  w->grey16 = {0, 1000, 40000, 65535};

  std::vector<uint8_t> bytes;
  bddf::Writer writer([&](const void* d, size_t n) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(d), static_cast<const uint8_t*>(d) + n);
    return true;
  }, bddf::Writer::Options{});
  const int images = writer.add_message_channel("spot/images", "bosdyn.api.GetImageResponse");
  const int back = writer.add_message_channel("camera/back", "bosdyn.api.ImageResponse");
  const int captures = writer.add_message_channel("camera/hand", "bosdyn.api.ImageCaptureAndSource");
  const int shots = writer.add_message_channel("camera/shot", "bosdyn.api.ImageCapture");
  const int voltage = writer.add_pod_channel("power/battery_voltage", 10);
  const std::string left = image_text(kGreyCols, kGreyRows, w->grey, "FORMAT_RAW", "PIXEL_FORMAT_GREYSCALE_U8");
  const std::vector<std::string> get_image = {
      "image_responses { " + response_text("left", left) + " } image_responses { " +
          response_text("depth", image_text(9, 5, u16_le(w->depth), "FORMAT_RAW", "PIXEL_FORMAT_DEPTH_U16"), 1000) + " }",
      "image_responses { " + response_text("left", left) + " } image_responses { " +
          response_text("rgb", image_text(7, 3, w->rgb, "FORMAT_RAW", "PIXEL_FORMAT_RGB_U8")) + " } image_responses { " +
          response_text("far", image_text(4, 3, u16_le(w->far), "FORMAT_RAW", "PIXEL_FORMAT_DEPTH_U16"), 4000) + " }",
      // Its data is a byte short of its rows.
      "image_responses { " + response_text("left", image_text(kGreyCols, kGreyRows, w->grey.substr(1), "FORMAT_RAW", "PIXEL_FORMAT_GREYSCALE_U8")) + " }",
  };
  const std::vector<std::string> responses = {
      response_text("back", image_text(5, 4, w->rgba, "FORMAT_RAW", "PIXEL_FORMAT_RGBA_U8")),
      response_text("back", image_text(5, 4, std::string(9, 'r'), "FORMAT_RLE", "PIXEL_FORMAT_DEPTH_U16")),
      response_text("back", "", 0, "STATUS_IMAGE_DATA_ERROR"),
      response_text("back", image_text(640, 480, w->jpeg.substr(0, 30), "FORMAT_JPEG", "PIXEL_FORMAT_GREYSCALE_U8")),
      response_text("back", image_text(640, 480, w->jpeg, "FORMAT_JPEG", "PIXEL_FORMAT_GREYSCALE_U8")),
      response_text("back", image_text(2, 2, u16_le(w->grey16), "FORMAT_RAW", "PIXEL_FORMAT_GREYSCALE_U16")),
  };
  for (size_t i = 0; i < get_image.size(); ++i) {
    std::string payload = serialized(pool, "bosdyn.api.GetImageResponse", get_image[i]);
    REQUIRE(writer.write_block(images, at(static_cast<int>(i)), payload.data(), payload.size()));
  }
  for (size_t i = 0; i < responses.size(); ++i) {
    std::string payload = serialized(pool, "bosdyn.api.ImageResponse", responses[i]);
    REQUIRE(writer.write_block(back, at(static_cast<int>(i)) + 5, payload.data(), payload.size()));
    double v = 50.0 + static_cast<double>(i);
    writer.write_pod_sample(voltage, at(static_cast<int>(i)), &v);
  }
  // A capture and its source without a depth_scale (taken as mm, with a warning); a bare capture.
  std::string payload = serialized(pool, "bosdyn.api.ImageCaptureAndSource",
                                   "shot { " + image_text(9, 5, u16_le(w->depth), "FORMAT_RAW", "PIXEL_FORMAT_DEPTH_U16") + " } source { name: \"hand\" }");
  REQUIRE(writer.write_block(captures, at(0), payload.data(), payload.size()));
  payload = serialized(pool, "bosdyn.api.ImageCapture", image_text(640, 480, w->jpeg, "FORMAT_JPEG", nullptr));
  REQUIRE(writer.write_block(shots, at(0), payload.data(), payload.size()));
  REQUIRE(writer.finish());
  return bytes;
}

Json ask(FormatInspector& inspector, const std::string& topic, const char* key = nullptr, uint64_t value = 0) {
  Json args = Json::object();
  if (!topic.empty()) args["topic"] = topic;
  if (key) args[key] = std::to_string(value);
  Json answer = inspector.query("images", args, nullptr);
  const Json* error = answer.find("error");
  REQUIRE_MESSAGE(!error, (error ? error->as_string() : ""));
  return answer;
}

std::string text(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_string() ? v->as_string() : "";
}

// The RGBA of the frame last answered, as grey values, RGB triples or RGBA as written.
void check_pixels(const std::string& rgba, const std::string& written, int channels) {
  const size_t pixels = written.size() / static_cast<size_t>(channels);
  REQUIRE(rgba.size() >= pixels * 4);
  for (size_t p = 0; p < pixels; ++p)
    for (int c = 0; c < 4; ++c) {
      const uint8_t want = channels == 1 ? (c == 3 ? 255 : static_cast<uint8_t>(written[p])) :
                           c == 3 && channels == 3 ? 255 : static_cast<uint8_t>(written[p * static_cast<size_t>(channels) + static_cast<size_t>(c)]);
      REQUIRE_MESSAGE(static_cast<uint8_t>(rgba[p * 4 + static_cast<size_t>(c)]) == want, "pixel " << p << " channel " << c);
    }
}

// The depth values that follow the RGBA: NaN where 0 was written, else value / per_unit.
void check_depth(const std::string& bytes, size_t pixels, const std::vector<uint16_t>& written, double per_unit) {
  REQUIRE(bytes.size() == pixels * 4 + pixels * 4);
  for (size_t p = 0; p < pixels; ++p) {
    float v;
    std::memcpy(&v, &bytes[pixels * 4 + p * 4], 4);
    if (written[p] == 0) CHECK_MESSAGE(std::isnan(v), "pixel " << p);
    else CHECK_MESSAGE(v == static_cast<float>(written[p] / per_unit), "pixel " << p << ": " << v);
  }
}

}  // namespace

TEST_CASE("Spot images in BDDF: each camera of a GetImageResponse is an image topic, every pixel as written") {
  const std::string dir = test_support::scratch_dir("spot_images");
  const std::string descriptors = protobuf_support::build_descriptor_set(dir);
  auto pool = protobuf_support::pool_of(descriptors);
  Written w;
  std::vector<uint8_t> bytes = spot_file(*pool, &w);
  MemoryByteSource source(bytes.data(), bytes.size());
  auto inspector = bddf::open_inspector(source);

  // Without a schema: the topics, each saying how to give one; no frame.
  Json bare = ask(*inspector, "");
  const Json& bare_topics = bare["topics"];
  REQUIRE(bare_topics.size() == 4);
  CHECK(text(bare_topics[size_t{0}], "topic") == "spot/images");
  CHECK(text(bare_topics[size_t{0}], "note").find("BDDF stores no schema") != std::string::npos);
  CHECK(bare["count"].as_uint() == 0);

  std::string error;
  auto schemas = protobuf::load_descriptor_set(test_support::read_text(descriptors), &error);
  REQUIRE_MESSAGE(schemas, error);
  inspector->set_message_schemas(schemas);

  Json first = ask(*inspector, "spot/images");  // the topic itself: its first camera
  CHECK(text(first, "topic") == "spot/images#left");
  std::vector<std::pair<std::string, uint64_t>> topics;
  const Json& listed = first["topics"];
  for (size_t i = 0; i < listed.size(); ++i) topics.emplace_back(text(listed[i], "topic"), listed[i].find("messages")->as_uint());
  CHECK(topics == std::vector<std::pair<std::string, uint64_t>>{
                      {"spot/images#left", 3}, {"spot/images#depth", 1}, {"spot/images#rgb", 1}, {"spot/images#far", 1}, {"camera/back", 6},
                      {"camera/hand", 1}, {"camera/shot", 1}});
  CHECK(first["undecoded"].as_uint() == 0);

  SUBCASE("grey, RGB and RGBA pixels") {
    Json grey = ask(*inspector, "spot/images#left", "index", 1);
    CHECK(grey["frame"]["ok"].as_bool());
    CHECK(grey["frame"]["width"].as_uint() == kGreyCols);
    CHECK(text(grey["frame"], "encoding") == "FORMAT_RAW PIXEL_FORMAT_GREYSCALE_U8");
    CHECK(text(grey["frame"], "time_ns") == std::to_string(at(1)));
    check_pixels(views::last_frame_bytes(), w.grey, 1);
    ask(*inspector, "spot/images#rgb", "at_ns", static_cast<uint64_t>(at(2)));
    check_pixels(views::last_frame_bytes(), w.rgb, 3);
    Json rgba = ask(*inspector, "camera/back", "index", 0);
    CHECK(rgba["frame"]["height"].as_uint() == 4);
    check_pixels(views::last_frame_bytes(), w.rgba, 4);
  }
  SUBCASE("depth in millimetres, and at another scale in metres; 16-bit grey keeps its values") {
    Json depth = ask(*inspector, "spot/images#depth", "index", 0);
    CHECK(text(depth["frame"]["depth"], "unit") == "mm");
    check_depth(views::last_frame_bytes(), 45, w.depth, 1);
    Json far = ask(*inspector, "spot/images#far", "index", 0);
    CHECK(text(far["frame"]["depth"], "unit") == "m");
    check_depth(views::last_frame_bytes(), 12, w.far, 4000);
    Json grey16 = ask(*inspector, "camera/back", "index", 5);
    CHECK(text(grey16["frame"]["depth"], "unit") == "raw");
    const std::string& b = views::last_frame_bytes();
    for (size_t p = 0; p < 4; ++p) {
      float v;
      std::memcpy(&v, &b[16 + 4 * p], 4);
      CHECK(v == static_cast<float>(w.grey16[p]));
    }
  }
  SUBCASE("a capture with its source, and a bare capture") {
    Json hand = ask(*inspector, "camera/hand", "index", 0);
    CHECK(text(hand["frame"]["depth"], "unit") == "mm");
    CHECK(text(hand["frame"], "warning").find("no depth_scale") != std::string::npos);
    check_depth(views::last_frame_bytes(), 45, w.depth, 1);
    Json shot = ask(*inspector, "camera/shot", "index", 0);
    CHECK(text(shot["frame"], "kind") == "jpeg");
    CHECK(views::last_frame_bytes() == w.jpeg);
  }
  SUBCASE("JPEG as stored; damage and what logscope does not read are named") {
    Json jpeg = ask(*inspector, "camera/back", "index", 4);
    CHECK(text(jpeg["frame"], "kind") == "jpeg");
    CHECK(views::last_frame_bytes() == w.jpeg);
    struct Named {
      std::string topic;
      uint64_t index;
      const char* code;
      const char* words;
    };
    for (const Named& n : {Named{"spot/images#left", 2, "image.data.short", "bytes"}, Named{"camera/back", 1, "image.format.unknown", "FORMAT_RLE"},
                           Named{"camera/back", 2, "image.service.status", "STATUS_IMAGE_DATA_ERROR"},
                           Named{"camera/back", 3, "image.jpeg.cut", "end marker"}}) {
      CAPTURE(n.topic);
      CAPTURE(n.index);
      Json answer = ask(*inspector, n.topic, "index", n.index);
      CHECK_FALSE(answer["frame"]["ok"].as_bool());
      CHECK(text(answer["frame"], "code") == n.code);
      CHECK(text(answer["frame"], "message").find(n.words) != std::string::npos);
      CHECK(text(answer["frame"], "place").find("byte") != std::string::npos);
      CHECK(views::last_frame_bytes().empty());
    }
  }
  SUBCASE("a thumbnail of one camera reads its span alone") {
    Json args = Json::object();
    args["topic"] = "spot/images#far";
    args["from_ns"] = std::to_string(at(0));
    args["to_ns"] = std::to_string(at(3));
    Json thumb = inspector->query("images", args, nullptr);
    CHECK(thumb["frame"]["ok"].as_bool());
    CHECK(text(thumb["frame"], "time_ns") == std::to_string(at(1)));
  }

  SUBCASE("the CLI writes one camera's frames as PNG, and names the one it cannot") {
    const std::string file = dir + "/spot.bddf", out = dir + "/frames";
    test_support::write_file(file, bytes);
    int status = 0;
    std::string json = test_support::run_cli("frames '" + file + "' --topic 'spot/images#left' -o '" + out + "' --descriptors '" + descriptors +
                                             "' --json", &status);
    CHECK(status == 1);  // one frame skipped
    std::optional<Json> answer = Json::parse(json.substr(json.find("\n{") + 1), &error);  // after stderr's line
    REQUIRE_MESSAGE(answer, json);
    CHECK((*answer)["written"].as_uint() == 2);
    size_t pngs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
      views::RgbaImage image;
      std::string code, words;
      REQUIRE(views::decode_png_rgba(test_support::read_text(entry.path().string()), image, code, words, nullptr));
      CHECK(image.width == kGreyCols);
      check_pixels(std::string(image.rgba.begin(), image.rgba.end()), w.grey, 1);
      ++pngs;
    }
    CHECK(pngs == 2);
    std::string none = test_support::run_cli("frames '" + file + "' --topic 'spot/images' -o '" + out + "' 2>&1", &status);
    CHECK(status == 2);
    CHECK(none.find("BDDF stores no schema") != std::string::npos);
  }
}
