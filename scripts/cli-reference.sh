#!/usr/bin/env bash
# Regenerates docs/cli-reference.md with the built `adala` (`adala cli-reference`: every
# command's --help, from its own option definitions). The test_cli_reference suite fails when
# the checked-in file differs from what the binary generates: run this after changing a
# command's options or summary, from a full build (OpenCV and segmentation: every command).
#   bash scripts/cli-reference.sh [BUILD_DIR]     (default: build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
ADALA="$BUILD/bin/adala"
if [ ! -x "$ADALA" ]; then
  echo "cli-reference: no $ADALA (build the adala target first)" >&2
  exit 2
fi
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
"$ADALA" cli-reference >"$tmp"
cp "$tmp" "$ROOT/docs/cli-reference.md"
echo "cli-reference: wrote docs/cli-reference.md ($(grep -c '^## adala ' "$tmp") commands)"
