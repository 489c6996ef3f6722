#include "core/sha1.h"

#include <cryptopp/sha.h>

#include "core/report.h"

namespace logscope {

struct Sha1::State {
  CryptoPP::SHA1 hash;
};

Sha1::Sha1() : state_(new State) {}
Sha1::~Sha1() = default;

void Sha1::update(const void* data, size_t size) {
  state_->hash.Update(static_cast<const CryptoPP::byte*>(data), size);
}

Sha1::Digest Sha1::finish() {
  Digest digest;
  state_->hash.Final(digest.data());
  return digest;
}

Sha1::Digest Sha1::of(const void* data, size_t size) {
  Sha1 sha;
  sha.update(data, size);
  return sha.finish();
}

std::string Sha1::hex(const Digest& digest) { return hex_string(digest.data(), digest.size()); }

namespace {
Sha1Offload* installed_offload = nullptr;
}  // namespace

void set_sha1_offload(Sha1Offload* offload) { installed_offload = offload; }
Sha1Offload* sha1_offload() { return installed_offload; }

}  // namespace logscope
