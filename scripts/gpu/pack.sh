#!/usr/bin/env bash
# Builds the self-contained static tools (softmax-run, softmax-opt), the C API (libsoftmax-c.so)
# and its GPU check (softmax-capi-check) in build-static/ and packs them, with the programs the GPU
# runs use, into .device/softmax-tools.tar.xz (git-ignored). Carry `.device` in the device call
# and run scripts/gpu/run.sh there (docs/runner.md, docs/api.md).
#
#   scripts/gpu/pack.sh            build (incremental; several minutes from scratch on 2 cores)
#   SOFTMAX_SKIP_BUILD=1 scripts/gpu/pack.sh    pack what build-static/ holds
#   SOFTMAX_PACK_PTXAS=/usr/local/cuda/bin/ptxas scripts/gpu/pack.sh   with this ptxas as
#       bin/ptxas, for run.sh's generated-compile mode (the generator's CPU check on the GPU
#       machine's 16 cores; its CUDA may have no ptxas of its own)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-static
archive=$root/.device/softmax-tools.tar.xz
tools=(softmax-run softmax-opt softmax-capi-check)
libraries=(libsoftmax-c.so)

if [ "${SOFTMAX_SKIP_BUILD:-0}" != 1 ]; then
  SOFTMAX_STATIC=1 "$root/scripts/setup.sh" "$build"
  ninja -C "$build" "${tools[@]}" softmax-c
fi

# Self-contained: nothing but the C library's own shared objects (and libsoftmax-c.so, packed
# beside them, for softmax-capi-check, which finds it through its run path $ORIGIN/../lib).
for file in "${tools[@]/#/bin/}" "${libraries[@]/#/lib/}"; do
  bin=$build/$file
  [ -f "$bin" ] || { echo "pack: $bin is missing" >&2; exit 1; }
  extra=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
          grep -Ev '^(libc|libm|libdl|libpthread|librt)\.so\.[0-9]+$|^ld-linux-x86-64\.so\.2$|^libsoftmax-c\.so$' || true)
  if [ -n "$extra" ]; then
    echo "pack: $file needs shared libraries the GPU machine lacks: $extra" >&2
    exit 1
  fi
  glibc=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1)
  echo "pack: $file $(du -h "$bin" | cut -f1), needs $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')(up to $glibc)"
done

# The self-contained C library exports the C API, not LLVM, MLIR or the project's C++.
# (libstdc++'s unique template statics may show; LLVM's and MLIR's must not.)
leaked=$(nm -D --defined-only "$build/lib/libsoftmax-c.so" | awk '{print $NF}' |
         grep -E '_ZN[0-9]*(llvm|mlir)|^_ZN[0-9]*softmax' || true)
if [ -n "$leaked" ]; then
  echo "pack: libsoftmax-c.so exports LLVM or MLIR symbols: $(head -3 <<<"$leaked" | tr '\n' ' ')" >&2
  exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/softmax/bin" "$stage/softmax/lib" "$stage/softmax/cases"
for tool in "${tools[@]}"; do cp "$build/bin/$tool" "$stage/softmax/bin/"; done
for library in "${libraries[@]}"; do cp "$build/lib/$library" "$stage/softmax/lib/"; done
if [ -n "${SOFTMAX_PACK_PTXAS:-}" ]; then
  cp "$SOFTMAX_PACK_PTXAS" "$stage/softmax/bin/ptxas"
  echo "pack: bin/ptxas from $SOFTMAX_PACK_PTXAS ($("$SOFTMAX_PACK_PTXAS" --version | tail -1))"
fi
cp "$root"/examples/*.mlir "$stage/softmax/cases/"
cp "$root"/test/Runner/Inputs/*.mlir "$stage/softmax/cases/"
{
  echo "commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  git -C "$root" diff --quiet 2>/dev/null && git -C "$root" diff --cached --quiet 2>/dev/null ||
    echo "working tree had uncommitted changes"
  echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$stage/softmax/VERSION"

mkdir -p "$root/.device"
# -9e: its 64 MiB dictionary spans the tools, which share most of their code (30 MiB against
# 47 at -6 with ptxas packed; about 3 minutes on 2 cores).
tar -C "$stage" -cf - softmax | xz -T2 -9e > "$archive.tmp"
mv "$archive.tmp" "$archive"
size=$(stat -c %s "$archive")
echo "pack: $archive $((size / 1024 / 1024)) MiB"
if [ "$size" -gt $((60 * 1024 * 1024)) ]; then
  echo "pack: the archive is over 60 MiB (the device call carries at most 64 MiB in all)" >&2
  exit 1
fi
