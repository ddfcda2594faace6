#!/usr/bin/env bash
# The share of a Stage-2 step spent waiting for data: vit_small at 224^2 on JPEG files with
# 2 decode threads (the run's own measure: the stage-end line's "data wait"). The teacher is
# trained for one step only: its quality does not change the time a step takes.
#   scripts/bench-data-wait.sh [DIR]   (DIR: class folders of JPEGs; default: the 224x224
#                                       Fashion-MNIST JPEGs of scripts/bench-loader.sh)
# Env: ADALA, STEPS (12), BATCH (32), DECODE_THREADS (2), WORK (scratch folder).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ADALA="${ADALA:-$ROOT/build/bin/adala}"
STEPS="${STEPS:-12}" BATCH="${BATCH:-32}" DECODE_THREADS="${DECODE_THREADS:-2}"
WORK="${WORK:-${TMPDIR:-/tmp}/adala-data-wait}"
DIR="${1:-}"
if [ -z "$DIR" ]; then
  DIR="${TMPDIR:-/tmp}/adala-loader-bench-224"
  [ -f "$DIR/train.tsv" ] || "$ADALA" data export-fashion-mnist "$DIR" --split train \
    --limit 2000 --format jpg --size 224 >&2
  DIR="$DIR/train"
fi
rm -rf "$WORK" && mkdir -p "$WORK"
cat >"$WORK/config.json" <<JSON
{
  "name": "data-wait", "seed": 0, "device": "cpu",
  "model": { "preset": "vit_small" },
  "data": {
    "train": { "source": "image-folder", "root": "$DIR", "channels": 3 },
    "eval": { "source": "image-folder", "root": "$DIR", "channels": 3, "limit": 32 },
    "decode_threads": $DECODE_THREADS
  },
  "stages": {
    "teacher": { "max_steps": 1, "batch_size": 8 },
    "feature_alignment": { "max_steps": $STEPS, "batch_size": $BATCH, "log_every": 1,
                           "checkpoint_every": 0 }
  },
  "output": { "runs_dir": "$WORK/runs" }
}
JSON
"$ADALA" run "$WORK/config.json" --stages 0,2 --db none >"$WORK/run.log" 2>&1 ||
  { tail -20 "$WORK/run.log" >&2; exit 1; }
grep -E '^== feature_alignment (done|finished)|^== feature_alignment .*data wait' "$WORK/run.log" ||
  grep 'feature_alignment' "$WORK/run.log" | tail -3
