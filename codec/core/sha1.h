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

}  // namespace logscope
