#pragma once
// SHA-256 for artifact checksums: OpenSSL's EVP digest (libcrypto), streaming.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace adala::store {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;

  void update(const void* data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  // Lower-case hex of the 32-byte digest. Finalizes: call once.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::string_view data);

struct FileDigest {
  std::string sha256;
  int64_t bytes = 0;
};
// Throws StoreError (InvalidArgument) when the file cannot be read.
FileDigest sha256_file(const std::string& path);

}  // namespace adala::store
