#!/usr/bin/env bash
# The one command that installs what is missing, builds, and runs every test
# (lit regression tests, GoogleTest units, integration and python tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ninja -C "${BUILD_DIR:-build}" check-mixer
