// MCAP speed on one file, one operation per run (bench/run.mjs runs each in a fresh process; its
// peer, @mcap/core under node, runs the same operations on the same file):
//   bench_mcap FILE [--op open|iterate|iterate-touch]
// open:          open + summary(), index first (magic, Header, Footer, DataEnd and the summary)
// iterate:       open, then every message in file order, each chunk decompressed once, each
//                payload viewed and none decoded (query iterate_all, the same code the wasm module runs)
// iterate-touch: the same, reading every byte of every payload (a checksum)
// The file is read as the CLI reads it (pread behind its block cache). Prints one JSON line:
// seconds, messages, bytes (payloads), reads and bytes_read (the file's, under the cache: whole
// 16 KiB blocks), codec_reads and codec_bytes (what the codec asked the cache for), and for open the
// summary section's size (issue 26's budget: 4 reads of no more than the summary section + 64 KiB).
#include <cstdio>
#include <string>

#include "bench_util.h"
#include "mcap/inspector.h"
#include "mcap/model.h"

using namespace logscope;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_mcap FILE [--op open|iterate|iterate-touch]\n");
    return 2;
  }
  auto options = bench::flags(argc, argv, 2);
  std::string op = options.count("--op") ? options["--op"] : "iterate";
  std::string error;
  auto file = FileByteSource::open(argv[1], &error);
  if (!file) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error.c_str());
    return 2;
  }
  CountingByteSource counting(*file);
  CachedByteSource cached(counting, CachedByteSource::for_local_file());  // as the CLI reads a local file (cli/command.cpp)
  CountingByteSource asked(cached);
  double t0 = bench::now(), cpu0 = bench::cpu_seconds();
  auto inspector = mcap::open_inspector(asked);
  const mcap::FileModel* model = mcap::file_model(*inspector);
  if (!model || !model->has_header) {
    std::fprintf(stderr, "bench_mcap: %s is not an MCAP file\n", argv[1]);
    return 2;
  }
  std::string result;
  if (op == "open") {
    Report summary = inspector->summary();
    const Count* messages = summary.file.count("messages");
    uint64_t start = model->footer.summary_start;
    uint64_t end = model->footer.summary_offset_start ? model->footer.summary_offset_start : model->footer_offset;
    result = bench::field("messages", messages ? messages->value : 0) + ", " +
             bench::field("summary_source", model->source == mcap::SummarySource::Index ? "summary" : "scan") + ", " +
             bench::field("summary_section_bytes", start && end > start ? end - start : 0);
  } else if (op == "iterate" || op == "iterate-touch") {
    Json args = Json::object();
    if (op == "iterate-touch") args["touch"] = true;
    Json answer = inspector->query("iterate_all", args, nullptr);
    if (const Json* failed = answer.find("error")) {
      std::fprintf(stderr, "bench_mcap: %s\n", failed->as_string().c_str());
      return 1;
    }
    result = bench::field("messages", answer.find("messages")->as_uint()) + ", " +
             bench::field("bytes", answer.find("message_bytes")->as_uint()) + ", " +
             bench::field("problems", answer.find("problems")->as_uint()) + ", " +
             bench::field("checksum", answer.find("checksum")->as_string());
  } else {
    std::fprintf(stderr, "bench_mcap: unknown --op %s\n", op.c_str());
    return 2;
  }
  double seconds = bench::now() - t0;
  bench::report(seconds, cpu0, result + ", " + bench::field("reads", counting.read_calls()) + ", " +
                                   bench::field("bytes_read", counting.bytes_read()) + ", " + bench::field("codec_reads", asked.read_calls()) +
                                   ", " + bench::field("codec_bytes", asked.bytes_read()));
  return 0;
}
