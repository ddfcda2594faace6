#!/usr/bin/env bash
# The training loader against torchvision's ImageFolder + DataLoader on the same JPEG files,
# with 1 and 2 threads (decode threads here, DataLoader workers there), in one run, alternating
# the two so that load on the machine falls on both alike. Prints images/s and the ratio.
#   scripts/bench-loader.sh [DIR]   (DIR: class folders of JPEGs; default: Fashion-MNIST's
#                                    training images as 224x224 colour JPEGs, written once)
# Env: ADALA (the adala binary), RES (224), BATCH (64), BATCHES (20), WARMUP (2), THREADS (1,2),
#      IMAGES (images written for the default DIR: 4000), PYTHON (/usr/bin/python3).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ADALA="${ADALA:-$ROOT/build/bin/adala}"
RES="${RES:-224}" BATCH="${BATCH:-64}" BATCHES="${BATCHES:-20}" WARMUP="${WARMUP:-2}"
THREADS="${THREADS:-1,2}" IMAGES="${IMAGES:-4000}"
# Debian's python3-torchvision lives in the system Python, not in a pyenv or venv one.
PYTHON="${PYTHON:-/usr/bin/python3}"
DIR="${1:-}"
if [ -z "$DIR" ]; then
  DIR="${TMPDIR:-/tmp}/adala-loader-bench-${RES}"
  if [ ! -f "$DIR/train.tsv" ]; then
    echo "writing $IMAGES Fashion-MNIST images as ${RES}x${RES} JPEGs to $DIR ..." >&2
    "$ADALA" data export-fashion-mnist "$DIR" --split train --limit "$IMAGES" --format jpg \
      --size "$RES" >&2
  fi
  DIR="$DIR/train"
fi
"$PYTHON" -c 'import torchvision' 2>/dev/null || {
  echo "torchvision is missing: apt install python3-torchvision" >&2; exit 1; }
common=(--res "$RES" --batch-size "$BATCH" --batches "$BATCHES" --warmup "$WARMUP")
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for t in ${THREADS//,/ }; do
  OMP_NUM_THREADS=1 "$ADALA" --threads 1 bench loader "$DIR" "${common[@]}" --decode-threads "$t" --json >>"$out"
  OMP_NUM_THREADS=1 "$PYTHON" "$ROOT/scripts/bench_loader_torchvision.py" "$DIR" "${common[@]}" \
    --threads "$t" >>"$out"
done
"$PYTHON" - "$out" "$DIR" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {(r["loader"], r["threads"]): r for r in rows}
print(f"loader benchmark on {sys.argv[2]}: images/s (decode + RandomResizedCrop + flip + normalise)")
print(f"{'threads':>8} {'adala':>10} {'torchvision':>12} {'ratio':>7}")
for t in sorted({r["threads"] for r in rows}):
    a, v = by[("adala", t)]["images_per_second"], by[("torchvision", t)]["images_per_second"]
    print(f"{t:>8} {a:>10.1f} {v:>12.1f} {a / v:>6.2f}x")
PY
