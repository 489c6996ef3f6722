// Replays files through a libFuzzer harness without libFuzzer: `replay_fuzz_X DIR...` calls
// LLVMFuzzerTestOneInput on every file below each DIR (a harness signals a finding by aborting).
// ctest runs it over tests/fuzz/regressions/<harness>/ and the seeds, so each fuzzer finding is
// replayed in every build. (The sanitizer build, which has libFuzzer, replays them with the
// harness itself: `fuzz_X -runs=0 DIR...`.)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<fs::path> files;
    if (!fs::is_directory(argv[i])) continue;  // e.g. a harness with no finding yet
    for (const auto& entry : fs::recursive_directory_iterator(argv[i]))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
      std::printf("replay %s (%zu bytes)\n", file.c_str(), bytes.size());
      std::fflush(stdout);
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++replayed;
    }
  }
  std::printf("%zu inputs replayed, none crashed\n", replayed);
  return replayed ? 0 : 1;
}
