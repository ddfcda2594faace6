#!/usr/bin/env bash
# Set up, build, and run every test suite through ctest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
export OPENBLAS_NUM_THREADS=1
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 1 "$@"
