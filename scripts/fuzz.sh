#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer + UBSan) and runs
# each through ctest for ADALA_FUZZ_SECONDS seconds (default 20): the bounded fuzz run CI
# does after the test suite. For longer runs see docs/building.md, "Fuzzing".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ_DIR="${FUZZ_DIR:-$ROOT/build-fuzz}"
SECONDS_PER_TARGET="${ADALA_FUZZ_SECONDS:-20}"
for tool in clang clang++; do
  command -v "$tool" >/dev/null || { echo "[fuzz] $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
cmake -S "$ROOT" -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DADALA_FUZZ=ON -DADALA_BUILD_GUI=OFF \
  -DADALA_FUZZ_SECONDS="$SECONDS_PER_TARGET" >/dev/null
cmake --build "$FUZZ_DIR" --target fuzz_all -j "$(nproc)"
# Each target fuzzes on one core, so the targets run side by side, one per core.
ctest --test-dir "$FUZZ_DIR" -L fuzz --output-on-failure -j "$(nproc)"
