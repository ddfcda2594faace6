#!/usr/bin/env bash
# GPU check, on a machine with an NVIDIA GPU and a CUDA LibTorch (for example
# the one inside an installed PyTorch: TORCH_DIR defaults to its share/cmake/Torch). Within 8
# minutes:
#   1. builds the engine and the CLI (ADALA_BUILD_GUI=OFF) into build-cuda/;
#   2. runs the engine test suites (labels kernels, model, io, train, store, cuda) with the GPU visible: their
#      CUDA halves (loss scaler kernels, device placement, pinned copies, the padded linear
#      attention against the batched formula) run instead of skipping;
#   3. `adala bench peer` on CUDA and `adala bench scaling` (inference, batch 1) for vit_base and
#      vit_large at 224..2048, fp32 and bf16 autocast, softmax and linear;
#   4. one vit_base bf16 training step, softmax (LibTorch's scaled-dot-product attention where
#      LibTorch >= 2.1) against linear (the padded form), at 224^2 batch 64, 448^2 batch 16 and
#      1024^2 batch 2, modes interleaved in rounds with the reference-matmul rate probe;
#      Stage 2's throughput (teacher forward + student forward/backward, img/s) at 224^2 batch
#      64, softmax student against linear;
#   5. Stages 1-3 of the embedded default in fp16; a world-size-1 NCCL run of it (fp32) compared
#      weight by weight with a single-process run;
#   6. prints one table (step, status, seconds, detail), the GPU targets (docs/device-check.md) against what was
#      measured, the commands, and exits non-zero if a step failed.
# --device cpu with ADALA_DEVICE_CHECK_DRY_RUN=1: the same steps on the CPU at tiny sizes
# (vit_tiny, small resolutions and batches, 6-step stages on 512 images, Gloo instead of NCCL
# plus the check that --backend nccl is refused), to try the script out without a GPU; with
# ADALA_DEVICE_CHECK_PREBUILT=DIR it uses DIR's binaries and builds nothing.
# ADALA_DEVICE_CHECK_TARGETS: the build step's targets instead of adala and the engine suites.
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
DEVICE=cuda
while [ $# -gt 0 ]; do
  case "$1" in
    --device) DEVICE="$2"; shift ;;
    --device=*) DEVICE="${1#--device=}" ;;
    *) echo "device-check: unknown argument $1 (--device cuda|cpu)" >&2; exit 2 ;;
  esac
  shift
done
DRY="${ADALA_DEVICE_CHECK_DRY_RUN:-}"
if [ "$DEVICE" != cuda ] && [ -z "$DRY" ]; then
  echo "device-check: --device $DEVICE measures nothing of the GPU's; set ADALA_DEVICE_CHECK_DRY_RUN=1 to try the script out" >&2
  exit 2
fi
BUDGET_S="${ADALA_DEVICE_CHECK_BUDGET_S:-470}"  # leaves margin in the 8 minutes
[ -n "$DRY" ] && BUDGET_S="${ADALA_DEVICE_CHECK_BUDGET_S:-900}"  # 2 CPU cores
START=$SECONDS
BUILD="${ADALA_DEVICE_CHECK_PREBUILT:-${ADALA_CUDA_BUILD_DIR:-$ROOT/build-cuda}}"
OUT="${OUT:-$ROOT/device-check-out}"
mkdir -p "$OUT"
ROWS=()
COMMANDS=()
left() { echo $((BUDGET_S - (SECONDS - START))); }
# step NAME TIMEOUT_S COMMAND...: runs with a timeout capped by what is left; records a row.
step() {
  local name="$1" limit="$2"; shift 2
  local remaining; remaining=$(left)
  if [ "$remaining" -le 5 ]; then ROWS+=("$name|skipped|0|out of time"); return 1; fi
  [ "$limit" -gt "$remaining" ] && limit=$remaining
  local t0=$SECONDS log="$OUT/$(echo "$name" | tr ' /' '__').log"
  COMMANDS+=("$name: $*")
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

# The Python with torch (the peer of `bench peer`, and where TORCH_DIR comes from).
PYTHON_TORCH=python3
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import torch' 2>/dev/null; then PYTHON_TORCH="$(command -v "$py")"; break; fi
done
if [ -z "${TORCH_DIR:-}" ]; then
  TORCH_DIR="$("$PYTHON_TORCH" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "share/cmake/Torch"))' 2>/dev/null)"
fi
echo "device-check: Torch_DIR=${TORCH_DIR:-<cmake default>}"
"$PYTHON_TORCH" -c 'import torch; print("device-check: torch", torch.__version__, "cuda", torch.version.cuda, "cxx11 abi", torch._C._GLIBCXX_USE_CXX11_ABI, "gpu", torch.cuda.is_available())' 2>/dev/null || true
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true

JOBS="$(nproc)"
LABELS='kernels|model|io|train|store|cuda'  # the engine suites, and those with a CUDA half
PREFIX_PATH="$(IFS=';'; echo "${PREFIXES[*]:-}")"
# CMAKE_POLICY_VERSION_MINIMUM: CMake 4 refuses package files that still ask for CMake < 3.5.
if [ -n "${ADALA_DEVICE_CHECK_PREBUILT:-}" ]; then
  ROWS+=("configure + build|prebuilt|0|$BUILD")
else
  step "configure" 90 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DADALA_BUILD_GUI=OFF -DADALA_WITH_OPENCV=OFF -DADALA_BUILD_TESTS=ON -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
    ${PREFIX_PATH:+-DCMAKE_PREFIX_PATH="$PREFIX_PATH"} ${TORCH_DIR:+-DTorch_DIR="$TORCH_DIR"} \
    ${CUDA_ARCH_ARG:-} \
    && step "build engine + CLI + engine tests" 300 bash -c "
      targets=\${ADALA_DEVICE_CHECK_TARGETS:-adala adala_tests}
      cmake --build '$BUILD' -j $JOBS --target \$targets -- -k 0"
  grep -h "data parallelism (adala_dist)\|LibTorch .*CUDA" "$OUT"/configure.log 2>/dev/null | sed 's/^-- /device-check: /'
fi
ADALA="$BUILD/bin/adala"
# ADALA_DEVICE_CHECK_BUILD_ONLY=1: configure and build, then stop (for runs of one's own; the
# library path of the unpacked packages is /tmp/adala-deps/runtime).
if [ -n "${ADALA_DEVICE_CHECK_BUILD_ONLY:-}" ]; then
  printf '%s\n' "${ROWS[@]}"
  for row in "${ROWS[@]}"; do
    case "$(cut -d'|' -f2 <<<"$row")" in FAILED*|timeout|skipped) exit 1 ;; esac
  done
  exit 0
fi
# What the steps measure: the GPU's sizes, or tiny ones for a dry run on the CPU.
if [ -n "$DRY" ]; then
  SCALING_PRESETS="vit_tiny"; SCALING_RES="64,128"
  TRAIN_PRESET=vit_tiny; TRAIN_POINTS="64:4 96:2 128:1"
  STAGE2="--preset vit_tiny --res 64 --batch 4 --rounds 2 --repeats 1 --warmup 1"
  PEER="--preset fmnist_micro --res 28 --repeats 1"
  SUITES="${ADALA_DEVICE_CHECK_SUITES:-test_linear_attention_padded|test_scaling_csv}"
  STAGE_CONFIG="$OUT/tiny-stages.json"
  python3 - "$ROOT/experiments/precision-check-bf16.json" "$STAGE_CONFIG" "$DEVICE" <<'PY'
import json, os, sys
src, dst, device = sys.argv[1:4]
c = json.load(open(src))
c["name"] = "device-check-dry-run"
c["device"] = device
c["teacher"]["weights"] = os.path.join(os.path.dirname(src), c["teacher"]["weights"])
c["data"].update({"train_limit": 512, "test_limit": 256})
for stage in ("attention_alignment", "feature_alignment", "fine_tuning"):
    c["stages"][stage].update({"epochs": 0, "max_steps": 6, "batch_size": 32, "warmup_steps": 2,
                               "checkpoint_every": 100, "log_every": 2})
json.dump(c, open(dst, "w"), indent=1)
PY
  NCCL_CONFIG="$STAGE_CONFIG"; NCCL_BACKEND=gloo
else
  SCALING_PRESETS="vit_base vit_large"; SCALING_RES="224,448,1024,2048"
  TRAIN_PRESET=vit_base; TRAIN_POINTS="224:64 448:16 1024:2"
  STAGE2="--preset vit_base --res 224 --batch 64 --rounds 3 --repeats 5 --warmup 2"
  PEER="--repeats 5"
  SUITES=""
  STAGE_CONFIG="$ROOT/experiments/precision-check-fp16-cuda.json"
  NCCL_CONFIG="$ROOT/experiments/precision-check-fp32.json"; NCCL_BACKEND=nccl
fi
HAVE_DATA=""
[ -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ] && HAVE_DATA=1

# The world-size-1 data-parallel run (NCCL on the GPU, Gloo in a dry run) and a single-process
# run of the same experiment, their students compared weight by weight.
nccl_against_one_process() {
  local port; port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  rm -rf "$OUT/runs-world1" "$OUT/runs-single"
  RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT="$port" \
    "$ADALA" run "$NCCL_CONFIG" --stages 1,2,3 --device "$DEVICE" --backend "$NCCL_BACKEND" \
    --runs-dir "$OUT/runs-world1" --db none --progress bar || return 1
  "$ADALA" run "$NCCL_CONFIG" --stages 1,2,3 --device "$DEVICE" --runs-dir "$OUT/runs-single" \
    --db none --progress bar || return 1
  local a b
  a="$(find "$OUT/runs-world1" -name student.safetensors | head -1)"
  b="$(find "$OUT/runs-single" -name student.safetensors | head -1)"
  [ -n "$a" ] && [ -n "$b" ] || { echo "no student.safetensors in $OUT/runs-world1 or runs-single"; return 1; }
  echo "world 1 ($NCCL_BACKEND): $a"
  echo "one process: $b"
  python3 "$ROOT/scripts/compare_weights.py" "$a" "$b"
}

# --backend nccl where this build has no NCCL: refused at once, with the plain message.
nccl_refused() {
  local log rc
  log="$("$ADALA" run "$NCCL_CONFIG" --backend nccl --db none 2>&1)"; rc=$?
  echo "$log"
  [ $rc -eq 2 ] && grep -q -- "--backend nccl: .*use --backend gloo" <<<"$log"
}

# The two functions above run under `timeout` (step) through bash -c.
export -f nccl_against_one_process nccl_refused
export ADALA OUT ROOT DEVICE NCCL_CONFIG NCCL_BACKEND
if [ -x "$ADALA" ]; then
  step "adala info" 20 "$ADALA" info
  if [ -n "$SUITES" ]; then
    step "engine suites on $DEVICE" 240 env OMP_WAIT_POLICY=PASSIVE \
      ctest --test-dir "$BUILD" -R "$SUITES" -E 'shipped_threads' --output-on-failure --timeout 230
  else
    step "engine suites on CUDA" 120 env OMP_WAIT_POLICY=PASSIVE \
      ctest --test-dir "$BUILD" -L "$LABELS" -E 'pipeline|crash|concurrency' \
        -j 8 --output-on-failure --timeout 110
  fi
  # The engine against PyTorch itself, both on the device (the peer is this machine's python3).
  step "bench peer $DEVICE" 60 "$ADALA" bench peer --device "$DEVICE" \
    --python "$PYTHON_TORCH" $PEER --db none
  # Inference latency and memory, batch 1 (what a single image costs).
  for preset in $SCALING_PRESETS; do
    for precision in fp32 bf16; do
      step "scaling $preset $precision b1" 60 "$ADALA" bench scaling --preset "$preset" \
        --res "$SCALING_RES" --modes softmax,linear --device "$DEVICE" --precision "$precision" \
        --batch 1 --rounds 1 --repeats 3 --no-count --db none \
        --csv "$OUT/scaling-$preset-$precision.csv"
    done
  done
  # One bf16 training step at realistic batches, softmax against linear, interleaved rounds.
  for point in $TRAIN_POINTS; do
    res="${point%%:*}" batch="${point##*:}"
    step "train step $TRAIN_PRESET bf16 ${res} b$batch" 90 "$ADALA" bench scaling \
      --preset "$TRAIN_PRESET" --res "$res" --batch "$batch" --train-only --modes softmax,linear \
      --device "$DEVICE" --precision bf16 --rounds 3 --repeats 5 --no-count --db none \
      --csv "$OUT/train-$res-b$batch.csv"
  done
  # Stage 2's throughput: teacher forward + student forward/backward, img/s.
  step "stage2 throughput bf16" 90 "$ADALA" bench stage2 $STAGE2 --modes softmax,linear \
    --device "$DEVICE" --precision bf16 --db none
  # Stages 1-3 of the embedded default in fp16 autocast with dynamic loss scaling, on the GPU
  # (the teacher checkpoint is in the repository; the data is Fashion-MNIST's idx files); a dry
  # run: its tiny bf16 copy.
  if [ -n "$HAVE_DATA" ]; then
    step "stages 1-3 $( [ -n "$DRY" ] && echo bf16 tiny || echo fp16 ) $DEVICE" 150 "$ADALA" run \
      "$STAGE_CONFIG" --device "$DEVICE" --stages 1,2,3 --runs-dir "$OUT/runs" \
      --db "$OUT/device-runs.sqlite"
    step "$NCCL_BACKEND world 1 vs one process" 150 bash -c nccl_against_one_process
  else
    ROWS+=("stages 1-3|skipped|0|no /usr/share/datasets/fashion-mnist")
    ROWS+=("$NCCL_BACKEND world 1 vs one process|skipped|0|no /usr/share/datasets/fashion-mnist")
  fi
  [ -n "$DRY" ] && step "nccl refused on this build" 30 bash -c nccl_refused
fi

echo
GPU_NAME="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo "== device check: ${GPU_NAME:-no GPU} ($DEVICE${DRY:+, dry run: tiny sizes}), $(grep -m1 '^LibTorch' "$OUT/adala_info.log" 2>/dev/null | tr -s ' ') =="
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
# The training steps and Stage 2 against the GPU targets (ratios within one run).
python3 - "$OUT" "${DRY:+dry}" <<'PY' || echo "(no training-step figures)"
import csv, glob, os, re, sys
out, dry = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "dry"
# By resolution: the time ratio's and (at 1024) the peak memory ratio's upper bounds.
targets = {224: (1.0, None), 448: (0.8, None), 1024: (0.35, 0.3)}
rows = []
def verdict(value, bound, lower_is_better=True):
    if dry or bound is None or value is None:
        return "-"
    return "met" if (value <= bound if lower_is_better else value >= bound) else "MISSED"
print("-- GPU targets%s" % (" (dry run: tiny sizes, targets do not apply)" if dry else ""))
print("%-34s %12s %12s %10s %8s  %s" % ("figure", "softmax", "linear", "ratio", "target", "matmul GFLOP/s"))
def by_batch(path):
    m = re.search(r"train-(\d+)-b(\d+)\.csv$", path)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)
for path in sorted(glob.glob(os.path.join(out, "train-*.csv")), key=by_batch):
    res, batch = by_batch(path)
    points = {r["mode"]: r for r in csv.DictReader(open(path))}
    s, l = points.get("softmax"), points.get("linear")
    rates = [float(r[c]) for r in points.values() for c in ("matmul_gflops_min", "matmul_gflops_max") if r.get(c)]
    rate = "%.0f-%.0f%s" % (min(rates), max(rates), " UNSTEADY" if any(r.get("unsteady") == "1" for r in points.values()) else "") if rates else "-"
    if not s or not l or not s.get("train_ms") or not l.get("train_ms"):
        print("%-34s %s" % ("train step %d^2 b%d" % (res, batch), "not measured: " + ((s or {}).get("train_note") or (l or {}).get("train_note") or "?")))
        continue
    ratio = float(l["train_ms"]) / float(s["train_ms"])
    bound, mem_bound = targets.get(res, (None, None)) if not dry else (None, None)
    print("%-34s %9.1f ms %9.1f ms %9.3fx %8s  %s" % ("train step %d^2 b%d time" % (res, batch), float(s["train_ms"]), float(l["train_ms"]), ratio, ("<= %.2fx " % bound if bound else "") + verdict(ratio, bound), rate))
    col = "train_peak_alloc_mb" if s.get("train_peak_alloc_mb") else "train_peak_rss_mb"
    if s.get(col) and l.get(col) and float(s[col]) > 0:
        mem = float(l[col]) / float(s[col])
        print("%-34s %9.0f MB %9.0f MB %9.3fx %8s" % ("train step %d^2 b%d peak memory" % (res, batch), float(s[col]), float(l[col]), mem, ("<= %.2fx " % mem_bound if mem_bound else "") + verdict(mem, mem_bound)))
log = os.path.join(out, "stage2_throughput_bf16.log")
if os.path.exists(log):
    ips, rate = {}, ""
    for line in open(log):
        parts = line.split()
        if len(parts) >= 6 and parts[0] in ("softmax", "linear") and re.match(r"^[0-9.]+$", parts[1]):
            ips[parts[0]] = float(parts[5])
        if line.startswith("matmul rate"):
            rate = line.split(": ", 1)[-1].strip()
    if "softmax" in ips and "linear" in ips:
        ratio = ips["linear"] / ips["softmax"]
        print("%-34s %8.1f i/s %8.1f i/s %9.3fx %8s  %s" % ("stage 2 throughput (img/s)", ips["softmax"], ips["linear"], ratio, (">= 0.95x " if not dry else "") + verdict(ratio, None if dry else 0.95, False), rate))
PY
echo "-- commands"
printf '%s\n' "${COMMANDS[@]}"
echo "total $((SECONDS - START)) s"
# Non-zero when any step failed, ran out of time or was skipped for lack of time
# ("unsupported" does not count).
FAILED=0
for row in "${ROWS[@]}"; do
  case "$(cut -d'|' -f2 <<<"$row")" in FAILED*|timeout|skipped) FAILED=1 ;; esac
done
exit $FAILED
