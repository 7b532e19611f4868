#!/usr/bin/env bash
# The one command that installs what is missing, builds, and runs every test
# (lit regression tests, GoogleTest units, integration and python tests).
#
#   scripts/test.sh              ./build, the normal release build
#   scripts/test.sh --sanitize   ./build-asan: mixer's code built with
#                                AddressSanitizer and UndefinedBehaviorSanitizer,
#                                the same tests run there (see CONTRIBUTING.md)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sanitize" ]]; then
  scripts/setup.sh --sanitize
  export BUILD_DIR=${BUILD_DIR:-build-asan}
  MIXER_CMAKE_ARGS="-DMIXER_SANITIZE=address,undefined" scripts/build.sh
else
  scripts/setup.sh
  scripts/build.sh
fi
ninja -C "${BUILD_DIR:-build}" check-mixer
