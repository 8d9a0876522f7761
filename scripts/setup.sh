#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks and configures a build directory. Idempotent:
# a second run installs nothing and only re-configures.
#
#   scripts/setup.sh [BUILD_DIR]          shared link model (default build/)
#   SOFTMAX_STATIC=1 scripts/setup.sh     self-contained static tools (default build-static/)
#   SOFTMAX_FUZZ=1 scripts/setup.sh       clang-22 with ASan, UBSan and libFuzzer, for the fuzz
#                                         target only (default build-fuzz/; scripts/fuzz.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
static=${SOFTMAX_STATIC:-0}
fuzz=${SOFTMAX_FUZZ:-0}
if [ "$static" = 1 ]; then build=${1:-$root/build-static}
elif [ "$fuzz" = 1 ]; then build=${1:-$root/build-fuzz}
else build=${1:-$root/build}; fi

packages=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev zlib1g-dev
          cmake ninja-build ccache lld g++ libgtest-dev python3 python3-matplotlib
          python3-pytest python3-numpy)
# The fuzz build needs a clang with libFuzzer and the sanitizer runtimes: clang-22 and
# libclang-rt-22-dev, from the same Debian packages as LLVM 22.
if [ "$fuzz" = 1 ]; then packages+=(clang-22 libclang-rt-22-dev); fi
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
if [ "$fuzz" = 1 ]; then
  # HandleLLVMOptions turns these into -fsanitize=address,undefined and -fsanitize=fuzzer-no-link
  # on every object; tools/softmax-fuzz then links libFuzzer. Only the libraries the fuzz target
  # needs are instrumented (MLIR's and LLVM's are Debian's, uninstrumented). -O1 with line
  # tables: reports with source lines at a bearable speed. No -DNDEBUG: the project's asserts,
  # and those of the LLVM/MLIR headers it inlines (cast<>, ArrayRef bounds), are checks worth
  # having; LLVM's ABI-affecting checks follow its installed abi-breaking.h, not NDEBUG.
  args+=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
         -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
         -DLLVM_USE_SANITIZER="Address;Undefined"
         # LLVM's own CMakeLists sets this, not its installed package: the flags LLVM uses.
         -DLLVM_UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
         -DLLVM_USE_SANITIZE_COVERAGE=ON -DSOFTMAX_BUILD_TESTS=OFF)
fi
cmake "${args[@]}" >/dev/null
echo "setup: configured $build"
