#!/usr/bin/env bash
# The main job on the embedded default: set up, build, then run the whole ViT-AdaLA pipeline
# headless on Fashion-MNIST (teacher, Stage 1, 2, 3), writing the run database and a report.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
# Idle OpenMP threads spin by default and steal the cores from working ones (and from
# OpenBLAS's pool, which adala sizes like LibTorch's when waits are passive).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
export OPENBLAS_THREAD_TIMEOUT="${OPENBLAS_THREAD_TIMEOUT:-12}"
CONFIG="${1:-$ROOT/experiments/fashion-mnist-tiny.json}"
cd "$ROOT"
time "$BUILD_DIR/bin/adala" run "$CONFIG" "${@:2}"
