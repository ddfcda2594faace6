#include "engine/store/sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/store/store_error.h"

namespace adala::store {

struct Sha256::Context {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(ctx); }
};

namespace {
[[noreturn]] void openssl_failed(const char* what) {
  throw StoreError(StoreErrorKind::Io, std::string("OpenSSL SHA-256: ") + what + " failed");
}
}  // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  if (!context_->ctx || EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
    openssl_failed("EVP_DigestInit_ex");
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, size_t size) {
  if (EVP_DigestUpdate(context_->ctx, data, size) != 1) openssl_failed("EVP_DigestUpdate");
}

std::string Sha256::hex_digest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_->ctx, digest, &length) != 1) openssl_failed("EVP_DigestFinal_ex");
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0x0F];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 hash;
  hash.update(data);
  return hash.hex_digest();
}

FileDigest sha256_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "cannot read " + path + " for its sha256: " + std::strerror(errno));
  }
  Sha256 hash;
  FileDigest digest;
  std::vector<char> chunk(1 << 16);
  size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file)) > 0) {
    hash.update(chunk.data(), got);
    digest.bytes += static_cast<int64_t>(got);
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed)
    throw StoreError(StoreErrorKind::Io, "error while reading " + path + " for its sha256");
  digest.sha256 = hash.hex_digest();
  return digest;
}

}  // namespace adala::store
