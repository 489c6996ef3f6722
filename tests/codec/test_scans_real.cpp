// The scans view on the real bags (LaserScan: laser_ortho_projector, polar_scan_matching, embag;
// PointCloud2: ros_numpy, embag's lz4 chunks; PointCloud: point_cloud_filter_demo) against
// python3-rosbag's reading of the same messages, turned into points by Python's struct
// (tests/reference/scans_reference.py): message counts, and for the first, middle and last message
// of each topic the frame, counts, value field, the sums of x, y, z and the first 50 points.
// Skipped without ../shared/samples. (The MCAP and rosbag2 samples hold no scan or cloud topic.)
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/detect.h"
#include "inspector.h"
#include "open_log.h"
#include "rosbag_reference.h"
#include "test_support.h"

using namespace logscope;

namespace {

uint64_t ns_of(const Json* j) { return std::stoull(j->as_string()); }

// float32 values widened to double agree exactly; computed ones (a scan's cos and sin) to rounding.
bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(std::fabs(a), std::fabs(b))); }

}  // namespace

TEST_CASE("scans: the real bags' scans and clouds equal python3-rosbag's, read with Python's struct") {
  if (!test_support::have_samples()) return;
  const std::vector<std::string> paths = rosbag_reference::sample_bags();
  const std::optional<Json> reference = rosbag_reference::read("scans_reference.py", paths);
  std::set<std::string> kinds;
  size_t compared = 0;
  for (const std::string& path : paths) {
    CAPTURE(path);
    const Json* theirs = reference->find(path);
    REQUIRE(theirs);
    if (const Json* error = theirs->find("error")) {
      MESSAGE("python3-rosbag cannot read " << path << ": " << error->as_string() << " (not compared)");
      continue;
    }
    if (theirs->find("topics")->size() == 0) continue;
    test_support::OpenedLog log = test_support::open_log(path);
    FormatInspector* inspector = log.inspector.get();
    for (const Json& topic : theirs->find("topics")->elements()) {
      const std::string& name = topic.find("topic")->as_string();
      CAPTURE(name);
      for (const Json& sample : topic.find("samples")->elements()) {
        Json args = Json::object();
        args["topic"] = name;
        args["at_ns"] = sample.find("time_ns")->as_string();
        args["max_points"] = 1000000;
        Json answer = inspector->query("scan", args, nullptr);
        REQUIRE_MESSAGE(!answer.find("error"), answer.dump());
        CHECK(answer.find("messages")->as_uint() == topic.find("messages")->as_uint());
        CHECK(answer.find("undecoded")->as_uint() == 0);
        const Json& scan = *answer.find("scan");
        REQUIRE_MESSAGE(!scan.find("error"), scan.dump());
        CHECK(ns_of(scan.find("time_ns")) == ns_of(sample.find("time_ns")));
        CHECK(scan.find("frame_id")->as_string() == sample.find("frame_id")->as_string());
        CHECK(scan.find("declared")->as_uint() == sample.find("declared")->as_uint());
        CHECK(scan.find("count")->as_uint() == sample.find("count")->as_uint());
        CHECK(scan.find("invalid")->as_uint() == sample.find("invalid")->as_uint());
        CHECK(*scan.find("value") == *sample.find("value"));
        CHECK(scan.find("problems")->size() == 0);
        const Json& points = *scan.find("points");
        REQUIRE(points.size() == scan.find("count")->as_uint());
        double sum[3] = {0, 0, 0};
        for (const Json& p : points.elements())
          for (int i = 0; i < 3; ++i) sum[i] += p[i].as_double();
        for (int i = 0; i < 3; ++i) CHECK(std::fabs(sum[i] - (*sample.find("sum"))[i].as_double()) <= 1e-6 * std::max(1.0, std::fabs(sum[i])));
        const Json& first = *sample.find("first");
        for (size_t k = 0; k < first.size(); ++k) {
          CAPTURE(k);
          for (int i = 0; i < 3; ++i) CHECK(close(points[k][i].as_double(), first[k][i].as_double()));
          CHECK((first[k][3].is_null() ? points[k][3].is_null() : points[k][3].as_double() == first[k][3].as_double()));
        }
        ++compared;
      }
      kinds.insert(topic.find("type")->as_string());
    }
  }
  CHECK(compared >= 15);
  CHECK(kinds.size() == 3);  // LaserScan, PointCloud2 and PointCloud were all compared
}
