// BDDF speed on one file, one operation per run (bench/run.mjs runs each in a fresh process):
//   bench_bddf FILE [--op open|checksum|check|sha1] [--source pread|mapped]
// open:     open + summary(), index first
// checksum: the file's SHA1 checked against its stored one (Verify checksum)
// check:    the doctor: checksum plus the walk over every block
// sha1:     Crypto++ SHA1 of the whole file in 8 MB reads and nothing else: the floor for checksum
// Prints one JSON line: seconds, bytes, reads, and status or problems.
#include <cstdio>
#include <string>
#include <vector>

#include "bddf/inspector.h"
#include "bddf/model.h"
#include "bench_util.h"
#include "core/sha1.h"

using namespace logscope;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_bddf FILE [--op open|checksum|check|sha1] [--source pread|mapped]\n");
    return 2;
  }
  auto options = bench::flags(argc, argv, 2);
  std::string op = options.count("--op") ? options["--op"] : "checksum";
  bench::OpenedFile file = bench::open_file(argv[1], options.count("--source") ? options["--source"] : "pread");
  CountingByteSource counting(*file.source);
  double t0 = bench::now(), cpu0 = bench::cpu_seconds();
  std::string result;
  if (op == "sha1") {
    Sha1 sha1;
    std::vector<uint8_t> buffer(8u << 20);
    for (uint64_t at = 0; at < counting.size();) {
      size_t n = counting.read(at, buffer.data(), buffer.size());
      if (n == 0) break;
      sha1.update(buffer.data(), n);
      at += n;
    }
    result = bench::field("sha1", Sha1::hex(sha1.finish()));
  } else {
    auto inspector = bddf::open_inspector(counting);
    if (op == "open") {
      Report summary = inspector->summary();
      result = bench::field("blocks", bddf::file_model(*inspector)->data_block_count());
    } else if (op == "checksum") {
      Json checksum = inspector->checksum(nullptr);
      result = bench::field("status", checksum.find("status")->as_string());
    } else if (op == "check") {
      Report report = inspector->check(nullptr);
      result = bench::field("problems", report.problems.size());
    } else {
      std::fprintf(stderr, "bench_bddf: unknown --op %s\n", op.c_str());
      return 2;
    }
  }
  double seconds = bench::now() - t0;
  bench::report(seconds, cpu0, bench::field("bytes", counting.size()) + ", " + bench::field("reads", counting.read_calls()) + ", " + result);
  return 0;
}
