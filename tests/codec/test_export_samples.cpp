// Every numeric field of every topic of the real sample bags (../shared/samples/rosbag, recursively)
// exported by `logscope export --format csv` against python3-rosbag through
// tests/reference/export_reference.py; JSON Lines of the same topics hold the same rows. Skipped
// without the samples or python3-rosbag.
#include <doctest/doctest.h>

#include <algorithm>
#include <dirent.h>

#include "core/json.h"
#include "export_support.h"
#include "test_support.h"

using namespace logscope;
using export_support::parse_csv;
using export_support::Row;

namespace {

void find_bags(const std::string& dir, std::vector<std::string>* out) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) find_bags(path, out);
    else if (name.size() > 4 && (name.substr(name.size() - 4) == ".bag" || name.find(".bag.active") != std::string::npos) &&
             name.find(".txt") == std::string::npos)
      out->push_back(path);
  }
  ::closedir(d);
  std::sort(out->begin(), out->end());
}

std::string run(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

bool have_rosbag() {
  bool present = std::system("/usr/bin/python3 -c 'import rosbag' 2>/dev/null") == 0;
  if (!present) test_support::skip("python3-rosbag is not installed: the export was not compared with it");
  return present;
}

// Our rows of one time against python3-rosbag's rows of that time, in any order: rosbag orders equal
// times by connection and plays unsorted chunks as its merge meets them; we play by time, ties in
// file order (rosbag/iterate.h). Returns the cells compared, or fails the test.
uint64_t compare_group(const std::vector<Row>& ours, size_t ours_begin, const std::vector<const Json*>& theirs,
                       size_t theirs_begin, size_t count, const Row& columns) {
  std::vector<bool> used(count, false);
  uint64_t cells = 0;
  for (size_t t = 0; t < count; ++t) {
    const Json& row = *theirs[theirs_begin + t];
    std::string first_why;
    bool matched = false;
    for (size_t o = 0; o < count && !matched; ++o) {
      if (used[o]) continue;
      const Row& mine = ours[ours_begin + o];
      REQUIRE(mine.size() == row.size());
      std::string why;
      size_t c = 0;
      while (c < row.size() && export_support::same_value(export_support::cell_value(mine[c]), row[c], &why)) ++c;
      if (c == row.size()) matched = used[o] = true;
      else if (first_why.empty()) first_why = "column " + columns[c] + ": " + why;
    }
    INFO("python3-rosbag's row " << theirs_begin + t << " has no equal among ours at its time; " << first_why);
    CHECK(matched);
    if (!matched) return cells;
    cells += row.size();
  }
  return cells;
}

void compare_bags(const std::vector<std::string>& bags, uint64_t minimum_topics, const std::string& scratch_name) {
  std::string scratch = test_support::scratch_dir(scratch_name);
  uint64_t compared_topics = 0, compared_cells = 0, reference_failed = 0;
  for (const std::string& bag : bags) {
    CAPTURE(bag);
    std::string script = std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/export_reference.py";
    std::string reference = run("/usr/bin/python3 " + script + " '" + bag + "' 2>/dev/null");
    for (size_t start = 0, end; (end = reference.find('\n', start)) != std::string::npos; start = end + 1) {
      std::string error;
      auto topic = Json::parse(reference.substr(start, end - start), &error);
      REQUIRE(topic);
      const std::string& name = topic->find("topic")->as_string();
      CAPTURE(name);
      if (topic->find("error")) {
        ++reference_failed;  // python3-rosbag cannot read it: nothing to compare with
        continue;
      }
      std::string out = scratch + "/topic.csv";
      std::remove(out.c_str());
      int status = std::system(("'" + std::string(LOGSCOPE_CLI) + "' export '" + bag + "' --topic '" + name + "' -o '" + out +
                                "' 2>/dev/null").c_str());
      CHECK(WEXITSTATUS(status) == 0);
      std::vector<Row> rows;
      REQUIRE(parse_csv(test_support::read_text(out), &rows));
      REQUIRE(!rows.empty());
      std::vector<const Json*> theirs;
      for (const Json& row : topic->find("rows")->elements()) theirs.push_back(&row);
      REQUIRE(rows.size() == theirs.size() + 1);
      if (const Json* columns = topic->find("columns"); columns && !columns->is_null()) {
        REQUIRE(rows[0].size() == columns->size());
        for (size_t c = 0; c < columns->size(); ++c) CHECK(rows[0][c] == (*columns)[c].as_string());
      }
      std::stable_sort(theirs.begin(), theirs.end(), [](const Json* a, const Json* b) { return (*a)[0].as_uint() < (*b)[0].as_uint(); });
      for (size_t r = 0; r < theirs.size();) {
        uint64_t time = (*theirs[r])[0].as_uint();
        size_t n = 1;
        while (r + n < theirs.size() && (*theirs[r + n])[0].as_uint() == time) ++n;
        for (size_t k = 0; k < n; ++k) REQUIRE(rows[r + 1 + k][0] == std::to_string(time));  // ours: in time order
        compared_cells += compare_group(rows, r + 1, theirs, r, n, rows[0]);
        r += n;
      }
      // The same rows as JSON Lines: each line one object with the CSV's columns and values.
      std::string lines_path = scratch + "/topic.jsonl";
      status = std::system(("'" + std::string(LOGSCOPE_CLI) + "' export '" + bag + "' --topic '" + name + "' --format jsonl -o '" +
                            lines_path + "' 2>/dev/null").c_str());
      CHECK(WEXITSTATUS(status) == 0);
      std::string lines = test_support::read_text(lines_path);
      size_t line_count = 0;
      for (size_t at = 0, next; (next = lines.find('\n', at)) != std::string::npos; at = next + 1, ++line_count) {
        auto object = Json::parse(lines.substr(at, next - at), &error);
        REQUIRE(object);
        REQUIRE(line_count + 1 < rows.size());
        const Row& row = rows[line_count + 1];
        REQUIRE(object->size() == row.size());
        std::string why;  // one check per row: doctest's per-check cost dominates otherwise
        bool same = true;
        for (size_t c = 0; c < row.size() && same; ++c) {
          const Json* value = object->find(rows[0][c]);
          same = value && (value->is_string() ? value->as_string() == row[c]
                                              : export_support::same_value(*value, export_support::cell_value(row[c]), &why));
          if (!same) why = "column " + rows[0][c] + ": " + why;
        }
        INFO("JSON line " << line_count << ": " << why);
        CHECK(same);
      }
      CHECK(line_count == theirs.size());
      ++compared_topics;
    }
  }
  MESSAGE(compared_topics << " topics, " << compared_cells << " cells compared; python3-rosbag could not read "
                          << reference_failed << " topics");
  CHECK(compared_topics >= minimum_topics);
}

}  // namespace

TEST_CASE("every numeric field of every topic of the sample bags equals python3-rosbag's, in time order") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  std::vector<std::string> bags;
  find_bags(test_support::sample("rosbag"), &bags);
  bags.erase(std::remove_if(bags.begin(), bags.end(), [](const std::string& b) { return b.find("/real/") != std::string::npos; }), bags.end());
  compare_bags(bags, 30, "export_samples");
}

TEST_CASE("every numeric field of every topic of the real bags (rosbag/real) equals python3-rosbag's, in time order") {
  if (!test_support::have_samples() || !have_rosbag()) return;
  std::vector<std::string> bags;
  find_bags(test_support::sample("rosbag/real"), &bags);
  compare_bags(bags, 150, "export_real");
}
