#!/usr/bin/env python3
"""A hand-written prototype of a software-pipelined strided_axis kernel (bf16, sm_90), written
to decide whether the compiler should emit one (docs/strategies.md, "What limits the 16-bit
plans of C >= 2048").

The softmax over C of a [outer, C, inner] bf16 tensor, as the packed strided_axis plans compute
it: a block of LANES x ROWS threads holds LANES * 8 columns over all of C, CHUNKS 16-byte vectors
a thread (bf16 pairs held packed), max (max.bf16x2), then the sum of exp2(x log2e - max log2e),
then the normalisation, each reduced over the rows by shuffles and one shared-memory slot a
warp. Two variants of the same code:

  plain      one block a tile, loads straight into registers (today's kernels' structure);
  pipelined  persistent blocks (as many as are resident) that take tiles t, t + grid, ...: each
             thread copies its vectors of the next tile into its own shared-memory slots
             (cp.async, 16 bytes each) right after reading the current tile's, so that the next
             tile's loads are in flight during the current one's reductions and stores.

Each is checked against a float64 softmax of the same input (every column of the first outer
index and of a sampled other one; bf16 tolerance 8e-3 relative) and timed against a
device-to-device copy of the same bytes (CUDA events, median of 30 after 5 warm-ups; 256 MiB).

Runs on the device with CuPy (NVRTC): python3 bench/experiments/axis-pipelined/axis_pipelined.py
"""
import argparse
import json
import os
import sys

import cupy as cp

# The timing of scripts/gpu/axis_access_probe.py: CUDA events, medians, the copy beside.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts/gpu"))
from axis_access_probe import copy_ms, median_ms  # noqa: E402

SOURCE = r"""
#ifndef LANES
#error define LANES, ROWS, CHUNKS and PIPELINED
#endif
// The sizes are constants, as in the compiler's kernels of a static shape: a chunk's address is
// the tile's base plus a constant.
constexpr long long kInnerVectors = INNER / 8;
constexpr int kC = ROWS * CHUNKS;
constexpr int kThreads = LANES * ROWS;
constexpr int kWarps = kThreads / 32;
constexpr int kRowsPerWarp = 32 / LANES;          // rows of a column that share a warp
constexpr int kGroups = ROWS / kRowsPerWarp;      // warps that share a column
constexpr float kLog2E = 1.4426950408889634f;

// A word through an opaque move at each use, so that the compiler neither keeps the values
// unpacked (as f32) across the reductions nor merges the two exps (as the compiler's packed
// kernels do: AxisKernel.cpp, holdsPackedValues).
__device__ __forceinline__ unsigned opaque(unsigned w) {
  unsigned r;
  asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(w));
  return r;
}
__device__ __forceinline__ float lo(unsigned w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hi(unsigned w) { return __uint_as_float(w & 0xffff0000u); }
// a in the low half, b in the high half (cvt's first source goes to the upper half).
__device__ __forceinline__ unsigned pack(float a, float b) {
  unsigned d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(b), "f"(a));
  return d;
}
__device__ __forceinline__ unsigned max2(unsigned a, unsigned b) {
  unsigned d;
  asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// Reduces the 8 column values `v` of a thread over the rows of its columns (the block's
// ROWS threads of the same lane): shuffles within the warp, then one slot a warp and column.
template <bool IsMax>
__device__ __forceinline__ void reduceRows(float (&v)[8], float *slots) {
#pragma unroll
  for (int offset = LANES; offset < 32; offset *= 2)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      float other = __shfl_xor_sync(0xffffffffu, v[j], offset);
      v[j] = IsMax ? fmaxf(v[j], other) : v[j] + other;
    }
  int lane = threadIdx.x % LANES, warp = threadIdx.x / 32;
  if ((threadIdx.x % 32) < LANES)
#pragma unroll
    for (int j = 0; j < 8; ++j) slots[(warp * LANES + lane) * 8 + j] = v[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j) v[j] = IsMax ? __int_as_float(0xff800000) : 0.0f;
#pragma unroll 1
  for (int g = 0; g < kGroups; ++g)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      float other = slots[(g * LANES + lane) * 8 + j];
      v[j] = IsMax ? fmaxf(v[j], other) : v[j] + other;
    }
}

__device__ __forceinline__ void issueTile(const uint4 *in, uint4 *staged, long long tile) {
  int lane = threadIdx.x % LANES, row = threadIdx.x / LANES;
  constexpr long long blocksPerOuter = kInnerVectors / LANES;
  const uint4 *source = in + (tile / blocksPerOuter) * kC * kInnerVectors +
                        (tile % blocksPerOuter) * LANES + lane + row * kInnerVectors;
  unsigned slot = (unsigned)__cvta_generic_to_shared(&staged[threadIdx.x]);
  // A rolled loop: two addresses live, not a chunk's each while the values are held.
#pragma unroll 1
  for (int k = 0; k < CHUNKS; ++k) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(slot), "l"(source)
                 : "memory");
    slot += kThreads * 16;
    source += ROWS * kInnerVectors;
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
}

// At most 128 registers, as the compiler's packed plans have: two blocks of 256 threads or one
// of 512 a multiprocessor.
extern "C" __global__ void __launch_bounds__(kThreads, 65536 / (kThreads * 128))
softmax_axis(const uint4 *__restrict__ in, uint4 *__restrict__ out, long long tiles) {
  extern __shared__ uint4 staged[];  // PIPELINED: CHUNKS * kThreads vectors of the next tile
  __shared__ float maxSlots[kGroups * LANES * 8];
  __shared__ float sumSlots[kGroups * LANES * 8];
  int lane = threadIdx.x % LANES, row = threadIdx.x / LANES;
  constexpr long long blocksPerOuter = kInnerVectors / LANES;
  long long t = blockIdx.x;
#if PIPELINED
  if (t < tiles) issueTile(in, staged, t);
#endif
  for (; t < tiles; t += PIPELINED ? gridDim.x : tiles) {
    long long offset = (t / blocksPerOuter) * kC * kInnerVectors +
                       (t % blocksPerOuter) * LANES + lane + row * kInnerVectors;
    uint4 v[CHUNKS];
#if PIPELINED
    asm volatile("cp.async.wait_group 0;" ::: "memory");
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) {
      unsigned slot = (unsigned)__cvta_generic_to_shared(&staged[k * kThreads + threadIdx.x]);
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w)
                   : "r"(slot));
    }
    if (t + gridDim.x < tiles) issueTile(in, staged, t + gridDim.x);
#else
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) v[k] = in[offset + (long long)k * ROWS * kInnerVectors];
#endif
    // The max, on packed pairs.
    unsigned m2[4] = {v[0].x, v[0].y, v[0].z, v[0].w};
#pragma unroll
    for (int k = 1; k < CHUNKS; ++k) {
      m2[0] = max2(m2[0], v[k].x); m2[1] = max2(m2[1], v[k].y);
      m2[2] = max2(m2[2], v[k].z); m2[3] = max2(m2[3], v[k].w);
    }
    float m[8];
#pragma unroll
    for (int j = 0; j < 4; ++j) { m[2 * j] = lo(m2[j]); m[2 * j + 1] = hi(m2[j]); }
    reduceRows<true>(m, maxSlots);
    float shift[8], s[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) { shift[j] = m[j] * kLog2E; s[j] = 0.0f; }
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) {
      unsigned w[4] = {opaque(v[k].x), opaque(v[k].y), opaque(v[k].z), opaque(v[k].w)};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        s[2 * j] += exp2f(fmaf(lo(w[j]), kLog2E, -shift[2 * j]));
        s[2 * j + 1] += exp2f(fmaf(hi(w[j]), kLog2E, -shift[2 * j + 1]));
      }
      asm volatile("" ::: "memory");  // a chunk at a time: not every exp live at once
    }
    reduceRows<false>(s, sumSlots);
    float inv[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) inv[j] = 1.0f / s[j];
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) {
      unsigned w[4] = {opaque(v[k].x), opaque(v[k].y), opaque(v[k].z), opaque(v[k].w)};
      uint4 r;
      unsigned *rw = reinterpret_cast<unsigned *>(&r);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        rw[j] = pack(exp2f(fmaf(lo(w[j]), kLog2E, -shift[2 * j])) * inv[2 * j],
                     exp2f(fmaf(hi(w[j]), kLog2E, -shift[2 * j + 1])) * inv[2 * j + 1]);
      out[offset + (long long)k * ROWS * kInnerVectors] = r;
    }
    __syncthreads();  // the slots are written again by the next tile
  }
}
"""


def bf16_to_f64(words):
    return (words.astype(cp.uint32) << 16).view(cp.float32).astype(cp.float64)


def check(x, y, outer, C, inner):
    """Max relative error (beyond the bf16 tolerance: 8e-3 relative, 1e-6 absolute) of two
    outer indices' softmaxes against float64."""
    worst = 0.0
    for o in sorted({0, outer // 2, outer - 1}):
        xs = bf16_to_f64(x[o * C * inner:(o + 1) * C * inner].reshape(C, inner))
        ys = bf16_to_f64(y[o * C * inner:(o + 1) * C * inner].reshape(C, inner))
        e = cp.exp(xs - xs.max(axis=0, keepdims=True))
        ref = e / e.sum(axis=0, keepdims=True)
        excess = cp.abs(ys - ref) - (8e-3 * cp.abs(ref) + 1e-6)
        worst = max(worst, float(excess.max()))
    return worst


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    props = cp.cuda.runtime.getDeviceProperties(0)
    sms = props["multiProcessorCount"]
    print(f"device {props['name'].decode()}, {sms} SMs")
    inner = 4096
    total = 256 << 20
    records = []
    # (C, lanes, rows, chunks): the packed bf16 plans of today's selection and wider slices.
    # The pipelined kernel holds 12 chunks without a spill at 128 registers (nvcc 13, ptxas
    # -v), not 16 (250-400 bytes): the 12-chunk plans compare the two fairly; the 16-chunk
    # ones (local bytes > 0 in their row) are for reference.
    plans = [(1536, 4, 128, 12), (3072, 2, 256, 12), (768, 4, 64, 12), (384, 8, 32, 12),
             (768, 8, 64, 12), (512, 8, 32, 16), (1024, 4, 64, 16), (2048, 4, 128, 16),
             (4096, 2, 256, 16)]
    print(f"{'C':>5} {'lanes':>5} {'rows':>4} {'chunks':>6} {'variant':>9} {'regs':>4} "
          f"{'local':>5} {'ms':>8} {'copy_ms':>8} {'frac':>6} {'excess':>9}")
    for C, lanes, rows, chunks in plans:
        outer = max(1, total // (C * inner * 2))
        rng = cp.random.default_rng(C)
        x = (rng.standard_normal(outer * C * inner, dtype=cp.float32) * 3).view(cp.uint32)
        x = (x >> 16).astype(cp.uint16)  # bf16 by truncation: never zeros, some ties
        y = cp.zeros_like(x)
        copy = copy_ms(x, y)
        inner_vectors = inner // 8
        tiles = outer * (inner_vectors // lanes)
        threads = lanes * rows
        for pipelined in (0, 1):
            module = cp.RawModule(code=SOURCE, options=(
                "-std=c++17", "--use_fast_math", f"-DINNER={inner}", f"-DLANES={lanes}", f"-DROWS={rows}", f"-DCHUNKS={chunks}",
                f"-DPIPELINED={pipelined}"))
            kernel = module.get_function("softmax_axis")
            smem = chunks * threads * 16 if pipelined else 0
            if smem + kernel.shared_size_bytes > 48 * 1024:
                kernel.max_dynamic_shared_size_bytes = smem
            if pipelined:
                kernel.preferred_shared_memory_carveout = 100
            # Persistent: as many blocks as are resident (registers, shared memory, threads).
            per_sm = min(65536 // (threads * max(kernel.num_regs, 1)), 2048 // threads,
                         props["sharedMemPerMultiprocessor"]
                         // (smem + kernel.shared_size_bytes + 1024))
            grid = min(tiles, max(per_sm, 1) * sms) if pipelined else tiles
            def launch():
                kernel((grid,), (threads,), (x, y, cp.int64(tiles)), shared_mem=smem)
            y.fill(0)
            launch()
            cp.cuda.Device().synchronize()
            excess = check(x, y, outer, C, inner)
            ms = median_ms(launch)
            frac = copy / ms
            variant = "pipelined" if pipelined else "plain"
            regs = kernel.num_regs
            local = kernel.local_size_bytes
            print(f"{C:>5} {lanes:>5} {rows:>4} {chunks:>6} {variant:>9} {regs:>4} {local:>5} {ms:>8.4f} "
                  f"{copy:>8.4f} {frac:>6.3f} {excess:>9.2e}"
                  + ("  FAIL" if excess > 0 else ""), flush=True)
            records.append(dict(C=C, lanes=lanes, rows=rows, chunks=chunks, variant=variant,
                                registers=regs, local_bytes=local, ms=ms, copy_ms=copy, fraction_of_copy=frac,
                                excess_over_tolerance=excess))
        del x, y
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props["name"].decode(), "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
