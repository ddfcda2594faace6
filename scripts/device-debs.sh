#!/usr/bin/env bash
# Downloads (does not install) the Debian packages that scripts/device-check.sh needs on a GPU
# machine without a package registry: the headers and libraries of nlohmann-json, CLI11, fmt,
# SQLite, OpenSSL, zlib and Qt 6 Core + Test (the engine suites), with their runtime libraries.
# Usage: scripts/device-debs.sh [DIR] (default .devdeps, which .git/info/exclude should list);
# then ADALA_DEVICE_DEBS=DIR scripts/device-check.sh there.
set -euo pipefail
DIR="${1:-.devdeps}"
mkdir -p "$DIR"
cd "$DIR"
apt-get download nlohmann-json3-dev libcli11-dev libfmt-dev libfmt9 libsqlite3-dev libsqlite3-0 \
  zlib1g-dev zlib1g libssl-dev libssl3 qt6-base-dev qt6-base-dev-tools qmake6 qmake6-bin \
  libqt6core6 libqt6test6 libicu72 libdouble-conversion3 libb2-1 libpcre2-16-0 libglib2.0-0 \
  libffi8 libzstd1
du -sh .
