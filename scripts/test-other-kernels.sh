#!/usr/bin/env bash
# Reruns the suites labelled `other_kernels` (tests/CMakeLists.txt) under the kernels the test
# command did not use: each OPENBLAS_CORETYPE among Haswell and SkylakeX other than the
# environment's own (SkylakeX only where the processor has AVX-512), then
# ATEN_CPU_CAPABILITY=avx2 once. Run after scripts/test.sh, on its build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
own="${OPENBLAS_CORETYPE:-}"
has_avx512=0
grep -qw avx512f /proc/cpuinfo 2>/dev/null && has_avx512=1

run_under() {  # description, then VAR=value ...
  local what="$1"
  shift
  echo "[other-kernels] ${what}"
  local start=$SECONDS
  env "$@" ctest --test-dir "$BUILD_DIR" -L other_kernels --output-on-failure -j "$(nproc)"
  echo "[other-kernels] ${what}: passed in $((SECONDS - start)) s"
}

for coretype in Haswell SkylakeX; do
  if [ "$coretype" = "$own" ]; then
    echo "[other-kernels] OPENBLAS_CORETYPE=${coretype}: the test command's own, already run"
    continue
  fi
  if [ "$coretype" = SkylakeX ] && [ "$has_avx512" = 0 ]; then
    echo "[other-kernels] OPENBLAS_CORETYPE=SkylakeX: skipped, this processor has no AVX-512"
    continue
  fi
  run_under "OPENBLAS_CORETYPE=${coretype}" OPENBLAS_CORETYPE="$coretype"
done
run_under "ATEN_CPU_CAPABILITY=avx2 (OPENBLAS_CORETYPE=${own:-unset})" \
  ATEN_CPU_CAPABILITY=avx2
