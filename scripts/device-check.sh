#!/usr/bin/env bash
# GPU check (issue 21), on a machine with an NVIDIA GPU and a CUDA LibTorch (for example the
# one inside an installed PyTorch: TORCH_DIR defaults to its share/cmake/Torch). Within 8 minutes:
#   1. builds the engine and the CLI (ADALA_BUILD_GUI=OFF) into build-cuda/;
#   2. runs the engine test suites (labels core, train, store) with the GPU visible: their CUDA
#      halves (loss scaler kernels, device placement, pinned copies) run instead of skipping;
#   3. `adala bench peer` on CUDA (where the command accepts it) and `adala bench scaling` for
#      vit_base and vit_large at 224..2048, fp32 and bf16 autocast, softmax and linear;
#   4. prints one table (step, status, seconds, detail) and exits non-zero if a step failed.
# Needs cmake, ninja, a C++17 compiler, Qt 6 Test (for the suites), nlohmann-json, fmt, CLI11,
# SQLite, OpenSSL and zlib (scripts/setup.sh installs them on Debian). On a machine that has
# none of them and no package registry, ADALA_DEVICE_DEBS=DIR names a folder of Debian .deb
# files (scripts/device-debs.sh downloads them): they are unpacked under /tmp/adala-deps, not
# into /, and each shared library is used only where the system has none of that soname.
# A PyTorch wheel built with the pre-C++11 ABI cannot link with the system's C++ libraries: use
# a wheel with torch._C._GLIBCXX_USE_CXX11_ABI == True, or the official cxx11-abi LibTorch zip.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUDGET_S="${ADALA_DEVICE_CHECK_BUDGET_S:-470}"  # leaves margin in the 8 minutes
START=$SECONDS
BUILD="${ADALA_CUDA_BUILD_DIR:-$ROOT/build-cuda}"
OUT="${OUT:-$ROOT/device-check-out}"
mkdir -p "$OUT"
ROWS=()
left() { echo $((BUDGET_S - (SECONDS - START))); }
# step NAME TIMEOUT_S COMMAND...: runs with a timeout capped by what is left; records a row.
step() {
  local name="$1" limit="$2"; shift 2
  local remaining; remaining=$(left)
  if [ "$remaining" -le 5 ]; then ROWS+=("$name|skipped|0|out of time"); return 1; fi
  [ "$limit" -gt "$remaining" ] && limit=$remaining
  local t0=$SECONDS log="$OUT/$(echo "$name" | tr ' /' '__').log"
  timeout --kill-after=5 "$limit" "$@" >"$log" 2>&1
  local rc=$? detail
  detail="$(tail -n 1 "$log" | cut -c1-80)"
  if [ $rc -eq 0 ]; then ROWS+=("$name|ok|$((SECONDS - t0))|$detail")
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then ROWS+=("$name|timeout|$((SECONDS - t0))|limit ${limit}s")
  else ROWS+=("$name|FAILED ($rc)|$((SECONDS - t0))|$detail"); fi
  return $rc
}

echo "device-check: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"), $(g++ --version 2>/dev/null | head -1), $(cmake --version | head -1)"
[ -d /usr/local/cuda/bin ] && export PATH="$PATH:/usr/local/cuda/bin"
if command -v nvcc >/dev/null; then
  nvcc --version | tail -2
  # LibTorch's CMake package enables the CUDA language: name the compiler and this GPU's
  # architecture instead of letting CMake and LibTorch probe for them.
  export CUDACXX="${CUDACXX:-$(command -v nvcc)}"
  CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)"
  if [ -n "$CAP" ]; then
    export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-$CAP}"
    CUDA_ARCH_ARG="-DCMAKE_CUDA_ARCHITECTURES=${CAP/./}"
  fi
fi
PREFIXES=()
if [ -n "${ADALA_DEVICE_DEBS:-}" ]; then
  DEPS=/tmp/adala-deps
  mkdir -p "$DEPS/runtime"
  for deb in "$ADALA_DEVICE_DEBS"/*.deb; do dpkg-deb -x "$deb" "$DEPS" || echo "cannot unpack $deb"; done
  # qt6-base-dev describes every Qt module, but only Core and Test come with their libraries:
  # the other modules' CMake files would fail the configure step, so they go.
  for dir in "$DEPS"/usr/lib/*/cmake/Qt6?*/; do
    case "$(basename "$dir")" in
      Qt6Core | Qt6CoreTools | Qt6Test | Qt6HostInfo | Qt6BuildInternals) ;;
      *) rm -rf "$dir" ;;
    esac
  done
  # Only the sonames the system lacks go on the library path: the system's own stay in use.
  SYSTEM_SONAMES="$(ldconfig -p | awk 'NR > 1 {print $1}')"
  while IFS= read -r lib; do
    name="$(basename "$lib")"
    grep -qxF "$name" <<<"$SYSTEM_SONAMES" || ln -sf "$lib" "$DEPS/runtime/$name"
  done < <(find "$DEPS/usr/lib" "$DEPS/lib" -name '*.so.*' 2>/dev/null)
  export LD_LIBRARY_PATH="$DEPS/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  PREFIXES+=("$DEPS/usr")
  echo "device-check: Debian packages from $ADALA_DEVICE_DEBS; own copies of: $(ls "$DEPS/runtime" | tr '\n' ' ')"
fi

if [ -z "${TORCH_DIR:-}" ]; then
  for py in python3 /usr/bin/python3; do
    TORCH_DIR="$($py -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "share/cmake/Torch"))' 2>/dev/null)" && break
  done
fi
echo "device-check: Torch_DIR=${TORCH_DIR:-<cmake default>}"
python3 -c 'import torch; print("device-check: torch", torch.__version__, "cuda", torch.version.cuda, "cxx11 abi", torch._C._GLIBCXX_USE_CXX11_ABI, "gpu", torch.cuda.is_available())' 2>/dev/null || true
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true

JOBS="$(nproc)"
LABELS='core|train|store|cuda'  # the engine suites, and those with a CUDA half
PREFIX_PATH="$(IFS=';'; echo "${PREFIXES[*]:-}")"
# CMAKE_POLICY_VERSION_MINIMUM: CMake 4 refuses package files that still ask for CMake < 3.5.
step "configure" 90 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DADALA_BUILD_GUI=OFF -DADALA_BUILD_TESTS=ON -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
  ${PREFIX_PATH:+-DCMAKE_PREFIX_PATH="$PREFIX_PATH"} ${TORCH_DIR:+-DTorch_DIR="$TORCH_DIR"} \
  ${CUDA_ARCH_ARG:-} \
  && step "build engine + CLI + engine tests" 300 bash -c "
    targets=\$(ctest --test-dir '$BUILD' -N -L '$LABELS' | awk '/Test +#/ {print \$3}' | sed 's/_shipped_threads//' | sort -u)
    cmake --build '$BUILD' -j $JOBS --target adala \$targets -- -k 0"
ADALA="$BUILD/bin/adala"
# ADALA_DEVICE_CHECK_BUILD_ONLY=1: configure and build, then stop (for runs of one's own; the
# library path of the unpacked packages is /tmp/adala-deps/runtime).
if [ -n "${ADALA_DEVICE_CHECK_BUILD_ONLY:-}" ]; then
  printf '%s\n' "${ROWS[@]}"
  exit 0
fi
if [ -x "$ADALA" ]; then
  step "adala info" 20 "$ADALA" info
  step "engine suites on CUDA" 120 env OMP_WAIT_POLICY=PASSIVE \
    ctest --test-dir "$BUILD" -L "$LABELS" -E 'pipeline|crash|concurrency' \
      -j 8 --output-on-failure --timeout 110
  # The engine against PyTorch itself, both on the GPU (the peer is this machine's python3).
  step "bench peer cuda" 60 "$ADALA" bench peer --device cuda --python "$(command -v python3)" \
    --repeats 5 --db none
  for preset in vit_base vit_large; do
    for precision in fp32 bf16; do
      step "scaling $preset $precision" 60 "$ADALA" bench scaling --preset "$preset" \
        --res 224,448,1024,2048 --modes softmax,linear --device cuda --precision "$precision" \
        --rounds 1 --repeats 3 --no-count --db none --csv "$OUT/scaling-$preset-$precision.csv"
    done
  done
  # Stages 1-3 of the embedded default in fp16 autocast with dynamic loss scaling, on the GPU
  # (the teacher checkpoint is in the repository; the data is Fashion-MNIST's idx files).
  if [ -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ]; then
    step "stages 1-3 fp16 cuda" 150 "$ADALA" run experiments/precision-check-fp16-cuda.json \
      --stages 1,2,3 --runs-dir "$OUT/runs" --db "$OUT/device-runs.sqlite"
  else
    ROWS+=("stages 1-3 fp16 cuda|skipped|0|no /usr/share/datasets/fashion-mnist")
  fi
fi

echo
echo "== device check: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) =="
printf '%-34s %-12s %6s  %s\n' step status seconds detail
for row in "${ROWS[@]}"; do
  IFS='|' read -r n s t d <<<"$row"
  printf '%-34s %-12s %6s  %s\n' "$n" "$s" "$t" "$d"
done
# The scaling points side by side: ms/img and peak allocator memory, fp32 vs bf16.
for csv in "$OUT"/scaling-*.csv; do
  [ -f "$csv" ] || continue
  echo "-- $(basename "$csv" .csv)"
  python3 - "$csv" <<'PY' 2>/dev/null || cut -d, -f1-12 "$csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = [c for c in ("mode", "resolution", "tokens", "ms_per_img", "peak_alloc_mb", "note") if rows and c in rows[0]]
print("  ".join(f"{c:>14}" for c in cols))
for r in rows:
    print("  ".join(f"{r[c][:14]:>14}" for c in cols))
PY
done
echo "total $((SECONDS - START)) s"
# Non-zero when any step failed, ran out of time or was skipped for lack of time
# ("unsupported" does not count).
FAILED=0
for row in "${ROWS[@]}"; do
  case "$(cut -d'|' -f2 <<<"$row")" in FAILED*|timeout|skipped) FAILED=1 ;; esac
done
exit $FAILED
