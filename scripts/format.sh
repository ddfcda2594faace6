#!/usr/bin/env bash
# The tree's C++ formatting, by the repository's .clang-format with Debian's clang-format 14 (the
# version is pinned: another one formats some constructs differently).
#   bash scripts/format.sh           formats every tracked .cpp/.h in place
#   bash scripts/format.sh --check   changes nothing; lists the files that differ and fails
# scripts/test.sh runs the check before it builds.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
WANTED=14
version="$("$CLANG_FORMAT" --version 2>/dev/null | sed -n 's/.*version \([0-9]*\)\..*/\1/p')"
if [ "$version" != "$WANTED" ]; then
  echo "format: needs clang-format $WANTED (Debian 12's clang-format package), found '${version:-none}'" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--check" ]; then
  # Batches of files per clang-format process, one process per core (one process per file spent
  # most of a minute starting processes): each difference is reported as "FILE:LINE:COL: error".
  report="$(printf '%s\0' "${files[@]}" |
    xargs -0 -n 64 -P "$(nproc)" "$CLANG_FORMAT" --dry-run --Werror 2>&1 >/dev/null || true)"
  mapfile -t bad < <(printf '%s\n' "$report" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
  if [ ${#bad[@]} -eq 0 ] && [ -n "$report" ]; then
    echo "format: clang-format failed:" >&2
    printf '%s\n' "$report" | head -20 >&2
    exit 1
  fi
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format: ${#bad[@]} file(s) differ from .clang-format (run bash scripts/format.sh):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files match .clang-format"
else
  "$CLANG_FORMAT" -i "${files[@]}"
  echo "format: formatted ${#files[@]} files"
fi
