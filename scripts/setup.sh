#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks and configures a build directory. Idempotent:
# a second run installs nothing and only re-configures.
#
#   scripts/setup.sh [BUILD_DIR]          shared link model (default build/)
#   SOFTMAX_STATIC=1 scripts/setup.sh     self-contained static tools (default build-static/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
static=${SOFTMAX_STATIC:-0}
if [ "$static" = 1 ]; then build=${1:-$root/build-static}; else build=${1:-$root/build}; fi

packages=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev zlib1g-dev
          cmake ninja-build ccache lld g++ libgtest-dev python3 python3-matplotlib
          python3-pytest python3-numpy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

args=(-G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_USE_LINKER=lld)
if command -v ccache >/dev/null; then
  args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ "$static" = 1 ]; then args+=(-DSOFTMAX_STATIC_TOOLS=ON -DSOFTMAX_BUILD_TESTS=OFF); fi
cmake "${args[@]}" >/dev/null
echo "setup: configured $build"
