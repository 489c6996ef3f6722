// The codec's one chunk decompressor (core/decompress.h) with zstd, which MCAP's chunks use
// (codec/mcap/decompress.cpp only adds MCAP's cap and statuses): format-neutral codes.
#include <string>

#include "core/decompress.h"
#include "mcap/decompress.h"
#include "test_support.h"

TEST_CASE("chunk decompression: zstd frames into the declared size, with format-neutral codes") {
  std::string records(70000, 'b');
  for (size_t i = 0; i < records.size(); i += 7) records[i] = static_cast<char>('a' + i % 26);
  std::string z = logscope::mcap::compress_chunk("zstd", records);
  logscope::ChunkDecompressor decompressor;
  logscope::ByteBuffer out;
  auto bytes = [](const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); };
  logscope::DecompressStatus ok = decompressor.decompress("zstd", bytes(z), z.size(), static_cast<uint32_t>(records.size()), &out);
  REQUIRE(ok.ok);
  CHECK(std::string(reinterpret_cast<const char*>(out.data()), out.size()) == records);
  CHECK(decompressor.decompress("zstd", bytes(z), z.size(), static_cast<uint32_t>(records.size() - 1), &out).code == "chunk.size_mismatch");
  std::string cut = z.substr(0, z.size() / 2);
  logscope::DecompressStatus bad = decompressor.decompress("zstd", bytes(cut), cut.size(), static_cast<uint32_t>(records.size()), &out);
  CHECK_FALSE(bad.ok);
  CHECK(bad.code.rfind("chunk.", 0) == 0);
  CHECK(logscope::check_chunk_sizes("zstd", 4, 1u << 20).code == "chunk.size_implausible");
}

