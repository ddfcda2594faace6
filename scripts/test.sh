#!/usr/bin/env bash
# Set up, build, and run every test suite through ctest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ADALA_FORMAT_CHECK="${ADALA_FORMAT_CHECK:-1}"  # scripts/format.sh --check before building
source "$ROOT/scripts/setup.sh"
# Idle OpenMP threads spin by default and steal the cores from working ones (and from
# OpenBLAS's pool, which adala sizes like LibTorch's when waits are passive).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
export OPENBLAS_THREAD_TIMEOUT="${OPENBLAS_THREAD_TIMEOUT:-12}"
# One suite per core: the suites wait on conditions, not on the clock (2m10 instead of 4m56 for
# the whole list on 2 cores).
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "$@"
# Then every parser's fuzz target for a short, bounded time (ADALA_FUZZ_SECONDS each; set
# ADALA_SKIP_FUZZ=1 to leave it out, e.g. when running a single suite).
if [ "${ADALA_SKIP_FUZZ:-0}" != 1 ]; then
  bash "$ROOT/scripts/fuzz.sh"
fi
