#!/usr/bin/env bash
# Stage-2 throughput of 2 processes x 1 thread against 1 process x 1 thread (data parallel on
# c10d Gloo over 127.0.0.1), in one run, and the gradient all-reduce time per step.
#   scripts/bench-data-parallel.sh
# The model has vit_small's widths (384 wide, 12 blocks, 6 heads: 21.3 M parameters, so the
# all-reduce moves vit_small's 85 MB of float32 gradients) on Fashion-MNIST's 28x28 images in
# 4x4 patches (49 tokens + CLS). Its teacher trains for 2 steps first (Stage 2's cost does not
# depend on its quality). Images/s is the global batch times the steps after the first WARMUP,
# over their wall time (each step's logged wall_time).
# Env: ADALA (the adala binary), STEPS (24), BATCH (16, the global batch), WARMUP (4),
#      WORK (a scratch folder).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ADALA="${ADALA:-$ROOT/build/bin/adala}"
STEPS="${STEPS:-24}" BATCH="${BATCH:-16}" WARMUP="${WARMUP:-4}"
WORK="${WORK:-${TMPDIR:-/tmp}/adala-bench-data-parallel}"
rm -rf "$WORK" && mkdir -p "$WORK"
cat >"$WORK/stage2.json" <<JSON
{
  "name": "dp-bench", "seed": 0, "device": "cpu",
  "model": { "preset": "vit_small", "img_size": 28, "patch_size": 4, "in_chans": 1,
             "num_classes": 10 },
  "data": { "train_limit": 2048, "test_limit": 64 },
  "stages": {
    "teacher": { "max_steps": 2, "batch_size": $BATCH, "lr": 0.001, "checkpoint_every": 0 },
    "feature_alignment": { "max_steps": $STEPS, "batch_size": $BATCH, "lr": 0.0005,
                           "warmup_steps": 2, "checkpoint_every": 0, "log_every": 1 }
  },
  "output": { "runs_dir": "$WORK/runs" }
}
JSON
run() {  # run NPROC -> the run's metrics CSV
  local db="$WORK/runs-$1.sqlite"
  echo "Stage 2 on $1 process(es) x 1 thread, $STEPS steps of $BATCH images ..." >&2
  OMP_WAIT_POLICY=PASSIVE "$ADALA" run "$WORK/stage2.json" --stages 0,2 --nproc "$1" \
    --threads 1 --db "$db" >"$WORK/run-$1.log" 2>&1 || {
    tail -20 "$WORK/run-$1.log" >&2
    exit 1
  }
  "$ADALA" runs --db "$db" export dp-bench -o "$WORK/metrics-$1.csv"
}
run 1
run 2
python3 - "$WORK/metrics-1.csv" "$WORK/metrics-2.csv" "$WARMUP" "$BATCH" <<'PY'
import csv, statistics, sys
warmup, batch = int(sys.argv[3]), int(sys.argv[4])
def stage2(path, key):
    rows = [r for r in csv.DictReader(open(path))
            if r["stage"] == "feature_alignment" and r["key"] == key]
    return {int(r["step"]): float(r["value"]) for r in rows if int(r["step"]) >= warmup}
def images_per_second(path):
    times = stage2(path, "wall_time")
    first, last = min(times), max(times)
    return batch * (last - first) / (times[last] - times[first])
a, b = images_per_second(sys.argv[1]), images_per_second(sys.argv[2])
reduce_ms = [v for step, v in stage2(sys.argv[2], "allreduce_ms").items() if step > warmup]
print("| processes x threads | Stage-2 images/s |")
print("|---|---|")
print(f"| 1 x 1 | {a:.2f} |")
print(f"| 2 x 1 | {b:.2f} |")
print(f"\nspeed-up {b / a:.2f}x (ideal 2.00x), scaling efficiency {100 * b / a / 2:.0f} %")
print(f"gradient all-reduce per step (2 ranks, vit_small widths, 21.3 M parameters): "
      f"median {statistics.median(reduce_ms):.1f} ms, min {min(reduce_ms):.1f} ms "
      f"(includes waiting for the slower rank)")
PY
