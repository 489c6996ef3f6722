// Streaming SHA1 (Crypto++), behind a small interface so format code never sees Crypto++ types.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace logscope {

class Sha1 {
 public:
  using Digest = std::array<uint8_t, 20>;
  Sha1();
  ~Sha1();
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  void update(const void* data, size_t size);
  Digest finish();  // resets the state afterwards
  static Digest of(const void* data, size_t size);
  static std::string hex(const Digest& digest);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// SHA1 on another worker, so a pass that parses can hash beside it: the page's full check of a
// BDDF (web/src/hash-offload.js). Installed only where such a worker runs; a pass that only
// hashes keeps hashing by itself (handing bytes over would only add a copy).
class Sha1Offload {
 public:
  virtual ~Sha1Offload() = default;
  // Starts a new hash; false when the other worker cannot take one (the caller hashes itself).
  virtual bool begin() = 0;
  // The next bytes, in order; they may be reused when this returns.
  virtual void update(const uint8_t* data, size_t size) = 0;
  // The digest of everything given since begin(), as hex; false with the reason when the other
  // worker failed. Always ends the hash, so the next begin() starts clean.
  virtual bool finish(std::string* hex, std::string* error) = 0;
};

void set_sha1_offload(Sha1Offload* offload);  // nullptr: none
Sha1Offload* sha1_offload();

}  // namespace logscope
