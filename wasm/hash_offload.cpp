// The BDDF full check's SHA1 on a helper worker (web/src/hash-offload.js, hash-worker.js): a
// wasm build has no threads, so the codec worker walks the blocks while a helper running this
// same module hashes the bytes it is handed (core/sha1.h Sha1Offload).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/sha1.h"
#include "helper_input.h"

using emscripten::val;

namespace logscope {
namespace {

// The codec worker's side: the JS object posts into the helper's ring and waits for its digest.
class JsSha1Offload : public Sha1Offload {
 public:
  explicit JsSha1Offload(val js) : js_(js) {}
  bool begin() override { return js_.call<bool>("begin"); }
  void update(const uint8_t* data, size_t size) override {
    js_.call<void>("update", val(emscripten::typed_memory_view(size, data)));
  }
  bool finish(std::string* hex, std::string* error) override {
    val result = js_.call<val>("finish");
    if (result["ok"].as<bool>()) {
      *hex = result["hex"].as<std::string>();
      return true;
    }
    *error = result["error"].as<std::string>();
    return false;
  }

 private:
  val js_;
};

void set_sha1_offload_js(val js) {
  static std::unique_ptr<JsSha1Offload> installed;
  set_sha1_offload(nullptr);
  installed.reset(js.isNull() || js.isUndefined() ? nullptr : new JsSha1Offload(js));
  set_sha1_offload(installed.get());
}

// The helper's side: JS copies the next bytes into helperInput(n) (helper_input.h),
// sha1Update(n) hashes them, and sha1Finish() gives the digest and starts a new hash.
Sha1& helper_sha1() {
  static Sha1 sha;
  return sha;
}

void sha1_update(double size) {
  const std::vector<uint8_t>& in = helper_input();
  helper_sha1().update(in.data(), std::min(in.size(), static_cast<size_t>(size)));
}

std::string sha1_finish() { return Sha1::hex(helper_sha1().finish()); }

}  // namespace
}  // namespace logscope

EMSCRIPTEN_BINDINGS(logscope_hash_offload) {
  emscripten::function("setSha1Offload", &logscope::set_sha1_offload_js);
  emscripten::function("sha1Update", &logscope::sha1_update);
  emscripten::function("sha1Finish", &logscope::sha1_finish);
}
