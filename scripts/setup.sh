#!/usr/bin/env bash
# Installs the Debian packages the workbench needs (only the missing ones) and builds it.
# Sourced by scripts/main-job.sh and scripts/test.sh; BUILD_DIR defaults to ./build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
PACKAGES=(cmake ninja-build g++ ccache pkg-config zlib1g-dev
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6sql6-sqlite qt6-svg-dev
  libqcustomplot-dev libtorch-dev libopenblas0-pthread libopencv-dev libsqlite3-dev
  dataset-fashion-mnist python3-torch xvfb xauth imagemagick poppler-utils
  fonts-nanum qt6-translations-l10n
  nlohmann-json3-dev libfmt-dev libssl-dev libcli11-dev libgloo-dev
  clang libclang-rt-dev  # clang + libFuzzer: the fuzz targets (scripts/fuzz.sh)
  clang-format)          # scripts/format.sh

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The test command checks the formatting before it spends time building.
if [ "${ADALA_FORMAT_CHECK:-0}" = 1 ]; then bash "$ROOT/scripts/format.sh" --check; fi

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DADALA_WERROR="${ADALA_WERROR:-ON}" ${ADALA_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
