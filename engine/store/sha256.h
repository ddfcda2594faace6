#pragma once
// SHA-256 (FIPS 180-4), streaming, for artifact checksums. No dependencies.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace adala::store {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  // Lower-case hex of the 32-byte digest. Finalizes: call once.
  std::string hex_digest();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view data);

struct FileDigest {
  std::string sha256;
  int64_t bytes = 0;
};
// Throws StoreError (InvalidArgument) when the file cannot be read.
FileDigest sha256_file(const std::string& path);

}  // namespace adala::store
