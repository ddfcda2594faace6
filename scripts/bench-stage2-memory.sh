#!/usr/bin/env bash
# Peak RSS of Stage 2 (feature alignment, one epoch) on a folder of 2,000 and one of 20,000
# images, in one run: nothing a stage holds may grow with the dataset (the loader streams files;
# only the file list and the sampler's permutation scale, a few bytes per image).
#   scripts/bench-stage2-memory.sh
# The images are Fashion-MNIST's training images as 64x64 colour JPEGs; the model is the
# experiments/fashion-mnist-jpeg64.json one (fmnist_tiny widths, patch 8 at 64^2), its teacher
# trained for a few steps first (its quality does not matter for memory).
# Env: ADALA (the adala binary), SIZES ("2000 20000"), WORK (a scratch folder), THREADS (2).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ADALA="${ADALA:-$ROOT/build/bin/adala}"
SIZES="${SIZES:-2000 20000}" THREADS="${THREADS:-2}"
WORK="${WORK:-${TMPDIR:-/tmp}/adala-stage2-memory}"
mkdir -p "$WORK"
config() {  # config ALIGNMENT_FOLDER STAGE2_EPOCHS TEACHER_STEPS TEACHER_WEIGHTS
  local teacher=""
  [ -n "$4" ] && teacher="\"teacher\": { \"weights\": \"$4\" },"
  cat <<JSON
{
  "name": "stage2-memory", "seed": 0, "device": "cpu",
  "model": { "preset": "fmnist_tiny", "img_size": 64, "patch_size": 8, "in_chans": 3 },
  "data": {
    "train": { "source": "image-folder", "root": "$WORK/n2000/train", "channels": 3 },
    "eval": { "source": "image-folder", "root": "$WORK/n2000/train", "channels": 3, "limit": 512 },
    "alignment": { "source": "image-folder", "root": "$1", "channels": 3 },
    "decode_threads": 2
  },
  $teacher
  "stages": {
    "teacher": { "max_steps": $3, "batch_size": 64, "lr": 0.002 },
    "feature_alignment": { "epochs": $2, "batch_size": 128, "lr": 0.0005, "checkpoint_every": 0,
                           "log_every": 10 }
  },
  "output": { "runs_dir": "$WORK/runs" }
}
JSON
}
for n in $SIZES; do
  [ -f "$WORK/n$n/train.tsv" ] ||
    "$ADALA" data export-fashion-mnist "$WORK/n$n" --split train --limit "$n" --format jpg \
      --size 64 >&2
done
rm -rf "$WORK/runs"
config "$WORK/n2000/train" 1 30 "" >"$WORK/teacher.json"
echo "training a throwaway teacher (30 steps) ..." >&2
"$ADALA" --threads "$THREADS" run "$WORK/teacher.json" --stages 0 --db none >"$WORK/teacher.log" 2>&1
TEACHER="$(find "$WORK/runs" -name 'teacher.safetensors' | head -1)"
[ -n "$TEACHER" ] || { echo "no teacher weights in $WORK/runs" >&2; exit 1; }
printf '%10s %8s %14s\n' images steps "peak RSS (MB)"
base=""
for n in $SIZES; do
  config "$WORK/n$n/train" 1 1 "$TEACHER" >"$WORK/stage2-$n.json"
  /usr/bin/time -f '%M' -o "$WORK/rss-$n" "$ADALA" --threads "$THREADS" run "$WORK/stage2-$n.json" \
    --stages 2 --db none >"$WORK/stage2-$n.log" 2>&1
  steps="$(grep -o '== feature_alignment: [0-9]* steps' "$WORK/stage2-$n.log" | grep -o '[0-9]*' | head -1)"
  kb="$(tail -1 "$WORK/rss-$n")"
  printf '%10s %8s %14.1f\n' "$n" "$steps" "$(echo "$kb / 1024" | bc -l)"
  [ -z "$base" ] && base="$kb"
  last="$kb"
done
printf 'ratio (largest / smallest): %.3fx\n' "$(echo "$last / $base" | bc -l)"
