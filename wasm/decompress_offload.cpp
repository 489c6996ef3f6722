// Chunk decompression spread over workers (web/src/decompress-offload.js): a wasm build has no
// threads, so the codec worker hands chunks it will need soon to helper workers, each running
// this same module, and collects the results when it gets to them.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "core/decompress.h"
#include "helper_input.h"

using emscripten::val;

namespace logscope {
namespace {

// Chunk decompression on other workers (web/src/decompress-offload.js): the JS object does the
// posting and waiting; results come back as {ok, code, message, checksum_present, checksum_verified}.
class JsDecompressOffload : public DecompressOffload {
 public:
  explicit JsDecompressOffload(val js) : js_(js) {}
  size_t free_slots() override { return js_.call<val>("freeSlots").as<size_t>(); }
  bool submit(uint64_t ticket, std::string_view compression, const uint8_t* data, size_t size, uint32_t uncompressed_size,
              bool verify) override {
    return js_.call<bool>("submit", static_cast<double>(ticket), std::string(compression),
                          val(emscripten::typed_memory_view(size, data)), uncompressed_size, verify);
  }
  bool ready(uint64_t ticket) override { return js_.call<bool>("ready", static_cast<double>(ticket)); }
  DecompressStatus collect(uint64_t ticket, ByteBuffer* out) override {
    val result = js_.call<val>("collect", static_cast<double>(ticket));
    DecompressStatus status = status_from(result);
    if (status.ok) {
      val bytes = result["bytes"];
      size_t n = bytes["length"].as<size_t>();
      out->resize(n);
      val(emscripten::typed_memory_view(n, out->data())).call<void>("set", bytes);
    }
    return status;
  }
  void forget(uint64_t ticket) override { js_.call<void>("forget", static_cast<double>(ticket)); }

  static DecompressStatus status_from(val result) {
    DecompressStatus status;
    status.ok = result["ok"].as<bool>();
    status.code = result["code"].as<std::string>();
    status.message = result["message"].as<std::string>();
    status.checksum_present = result["checksum_present"].as<bool>();
    status.checksum_verified = result["checksum_verified"].as<bool>();
    return status;
  }

 private:
  val js_;
};

void install_js_offload(val js) {
  static std::unique_ptr<JsDecompressOffload> installed;
  logscope::set_decompress_offload(nullptr);
  installed.reset(js.isNull() || js.isUndefined() ? nullptr : new JsDecompressOffload(js));
  logscope::set_decompress_offload(installed.get());
}

// What a helper worker runs: JS copies a chunk's compressed bytes into helperInput(n)
// (helper_input.h), then decompressChunk decodes them with the same decompressor the pipeline uses.
struct HelperChunk {
  ChunkDecompressor decompressor;
  ByteBuffer out;
};
HelperChunk& helper_chunk() {
  static HelperChunk chunk;
  return chunk;
}

val decompress_helper_chunk(const std::string& compression, uint32_t uncompressed_size, bool verify) {
  HelperChunk& chunk = helper_chunk();
  const std::vector<uint8_t>& in = helper_input();
  DecompressStatus status = chunk.decompressor.decompress(compression, in.data(), in.size(), uncompressed_size, &chunk.out, verify);
  val result = val::object();
  result.set("ok", status.ok);
  result.set("code", status.code);
  result.set("message", status.message);
  result.set("checksum_present", status.checksum_present);
  result.set("checksum_verified", status.checksum_verified);
  result.set("bytes", status.ok ? val(emscripten::typed_memory_view(chunk.out.size(), chunk.out.data())) : val::null());
  return result;
}

}  // namespace
}  // namespace logscope

EMSCRIPTEN_BINDINGS(logscope_offload) {
  emscripten::function("setDecompressOffload", &logscope::install_js_offload);
  emscripten::function("decompressChunk", &logscope::decompress_helper_chunk);
}
