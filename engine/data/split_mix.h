#pragma once
// SplitMix64: a tiny counter-based generator whose stream is fixed by the algorithm alone
// (unlike std::uniform_*_distribution, which differ between standard libraries), so a scene
// drawn from (seed, index) is the same on every machine.
#include <cstdint>

namespace adala {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  // Independent streams for (a, b): hashes both into the starting state.
  SplitMix64(uint64_t a, uint64_t b) : state_(mix(a ^ mix(b + 0x632BE59BD9B4E019ull))) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    return mix_step(z);
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi] (inclusive); the modulo bias is below 2^-40 for small ranges.
  int64_t integer(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
  bool coin(double p = 0.5) { return uniform() < p; }

  static uint64_t mix(uint64_t z) { return mix_step(z + 0x9E3779B97F4A7C15ull); }

 private:
  static uint64_t mix_step(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

}  // namespace adala
