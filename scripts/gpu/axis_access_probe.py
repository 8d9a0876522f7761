#!/usr/bin/env python3
"""What the memory access pattern of strided_axis alone costs, with no softmax arithmetic.

A strided_axis block holds `lanes * vector` columns of a [outer, C, inner] tensor over all of C
(docs/strategies.md): its loads are slices of lanes * 16 bytes, C rows apart. This probe copies a
bf16 tensor with exactly that pattern (each thread loads its `chunks` vectors, the block waits at
a barrier on a value that depends on every load, as the reductions do, then stores them) and
reports the fraction of a device-to-device copy of the same bytes, for slices of 32, 64 and 128
bytes, blocks of 256, 512 and 1024 threads, and one or two blocks a multiprocessor (dynamic shared
memory holds the others off). Where the pattern alone is slow, no arithmetic change helps; where
it is at the copy's speed, the kernels' arithmetic and barriers are what to hide. Then the same
patterns software-pipelined (persistent blocks that copy the next tile into shared memory with
cp.async while they wait at the barrier and store the current one), and, for comparison, the
contiguous slices of a row plan (lanes * 16 bytes = 4-8 KB).

Runs on the device with CuPy (NVRTC): python3 scripts/gpu/axis_access_probe.py [--json FILE]
"""
import argparse
import json
import statistics

import cupy as cp

SOURCE = r"""
// Chunks 0-15 of a thread stay in registers, chunks 16-31 in shared memory (slots after the
// first 16 bytes: [chunk - 16][thread]), so that a block can hold more than the registers do.
extern "C" __global__ void probe(const uint4 *__restrict__ in, uint4 *__restrict__ out,
                                 int C, long long innerVectors, int lanes, int rows, int chunks,
                                 int wait, unsigned mask) {
  extern __shared__ uint4 staged[];
  unsigned *slot = (unsigned *)staged;
  int lane = threadIdx.x % lanes, row = threadIdx.x / lanes;
  long long blocksPerOuter = innerVectors / lanes;
  long long outer = blockIdx.x / blocksPerOuter;
  long long column = (blockIdx.x % blocksPerOuter) * lanes + lane;
  const uint4 *base = in + outer * C * innerVectors + column;
  uint4 *target = out + outer * C * innerVectors + column;
  uint4 values[16];
  unsigned folded = 0;
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    if (k < chunks) {
      uint4 v = base[(long long)(row + k * rows) * innerVectors];
      folded ^= v.x ^ v.w;
      if (k < 16)
        values[k] = v;
      else
        staged[1 + (k - 16) * blockDim.x + threadIdx.x] = v;
    }
  }
  if (wait) {
    if (threadIdx.x == 0) slot[0] = 0;
    __syncthreads();
    atomicXor(&slot[0], folded);
    __syncthreads();
    folded = slot[0] & mask;
  } else {
    folded &= mask;
  }
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    if (k < chunks) {
      uint4 v = k < 16 ? values[k] : staged[1 + (k - 16) * blockDim.x + threadIdx.x];
      v.x ^= folded;
      target[(long long)(row + k * rows) * innerVectors] = v;
    }
  }
}

// The same pattern, software-pipelined: a persistent block (grid = the resident blocks) takes
// tiles t, t + gridDim.x, ...; each thread copies its chunks of the next tile into its own
// shared-memory slots (cp.async, 16 bytes each) before the reduction and stores of the current
// one, so that a block's loads are in flight while it waits at its barriers and stores.
__device__ __forceinline__ void issueTile(const uint4 *in, uint4 *slots, long long tile,
                                          int C, long long innerVectors, int lanes, int rows,
                                          int chunks) {
  int lane = threadIdx.x % lanes, row = threadIdx.x / lanes;
  long long blocksPerOuter = innerVectors / lanes;
  long long outer = tile / blocksPerOuter;
  long long column = (tile % blocksPerOuter) * lanes + lane;
  const uint4 *base = in + outer * C * innerVectors + column;
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    if (k < chunks) {
      unsigned slot = (unsigned)__cvta_generic_to_shared(&slots[k * blockDim.x + threadIdx.x]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(slot),
                   "l"(base + (long long)(row + k * rows) * innerVectors));
    }
  }
  asm volatile("cp.async.commit_group;");
}

extern "C" __global__ void probe_pipelined(const uint4 *__restrict__ in, uint4 *__restrict__ out,
                                           int C, long long innerVectors, int lanes, int rows,
                                           int chunks, long long tiles, unsigned mask) {
  extern __shared__ uint4 slots[];
  __shared__ unsigned folded_slot;
  int lane = threadIdx.x % lanes, row = threadIdx.x / lanes;
  long long blocksPerOuter = innerVectors / lanes;
  long long t = blockIdx.x;
  if (t < tiles)
    issueTile(in, slots, t, C, innerVectors, lanes, rows, chunks);
  uint4 values[16];
  while (t < tiles) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    unsigned folded = 0;
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      if (k < chunks) {
        values[k] = slots[k * blockDim.x + threadIdx.x];
        folded ^= values[k].x ^ values[k].w;
      }
    }
    long long next = t + gridDim.x;
    if (next < tiles)
      issueTile(in, slots, next, C, innerVectors, lanes, rows, chunks);
    if (threadIdx.x == 0) folded_slot = 0;
    __syncthreads();
    atomicXor(&folded_slot, folded);
    __syncthreads();
    folded = folded_slot & mask;
    long long outer = t / blocksPerOuter;
    long long column = (t % blocksPerOuter) * lanes + lane;
    uint4 *target = out + outer * C * innerVectors + column;
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      if (k < chunks) {
        uint4 v = values[k];
        v.x ^= folded;
        target[(long long)(row + k * rows) * innerVectors] = v;
      }
    }
    __syncthreads();  // folded_slot is reset for the next tile only after every thread read it
    t = next;
  }
}
"""


def median_ms(fn, reps=30, warmup=5):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def copy_ms(x, y):
    """The median time of a device-to-device copy of x into y (cuMemcpyDtoDAsync)."""
    return median_ms(lambda: cp.cuda.runtime.memcpyAsync(
        y.data.ptr, x.data.ptr, x.nbytes, cp.cuda.runtime.memcpyDeviceToDevice,
        cp.cuda.get_current_stream().ptr))


def tensors(C, inner, total):
    """Input words (random, never all zeros) and an output of a [outer, C, inner] bf16 tensor of
    about `total` bytes, its outer size, and the copy's time of the same bytes."""
    outer = max(1, total // (C * inner * 2))
    x = cp.random.randint(0, 2**31, size=outer * C * inner // 2, dtype=cp.int32)
    y = cp.empty_like(x)
    return x, y, outer, copy_ms(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    kernel = cp.RawKernel(SOURCE, "probe", options=("-std=c++17",))
    props = cp.cuda.runtime.getDeviceProperties(0)
    kernel.max_dynamic_shared_size_bytes = props["sharedMemPerBlockOptin"] - 1024
    smem_per_sm = props["sharedMemPerMultiprocessor"]
    inner = 4096
    total = 256 << 20
    records = []
    # (C, lanes, rows, chunks): C = rows * chunks; the bf16 plans of docs/strategies.md and more.
    # Past 16 chunks the rest is held in shared memory (the probe's, not a kernel's, layout).
    plans = [(512, 8, 32, 16), (1024, 4, 64, 16), (2048, 4, 128, 16), (4096, 2, 256, 16),
             (4096, 4, 128, 32), (2048, 8, 64, 32), (1024, 8, 64, 16), (4096, 2, 128, 32),
             (4096, 1, 256, 16), (3072, 2, 256, 12),
             # Contiguous 4-8 KB slices (a row plan's pattern): the phases alone.
             (16, 512, 1, 16), (16, 256, 1, 16)]
    kernel.compile()
    print(f"device {props['name'].decode()}, probe kernel {kernel.attributes['num_regs']} registers")
    print(f"{'C':>5} {'lanes':>5} {'slice':>5} {'threads':>7} {'blocks/SM':>9} {'wait':>4} "
          f"{'ms':>8} {'copy_ms':>8} {'frac':>6}")
    for C, lanes, rows, chunks in plans:
        threads = lanes * rows
        if threads > 1024:
            continue
        x, y, outer, copy = tensors(C, inner, total)
        inner_vectors = inner // 8
        grid = outer * (inner_vectors // lanes)
        registers = kernel.attributes["num_regs"]
        for per_sm in (1, 2):
            if per_sm * threads * registers > 65536:
                continue
            staged = 16 + max(chunks - 16, 0) * threads * 16
            smem = max(staged, smem_per_sm // (per_sm + 1) + 1024)
            if per_sm * (smem + 1024) > smem_per_sm:
                continue
            for wait in (0, 1):
                def launch():
                    kernel((grid,), (threads,), (x, y, cp.int32(C), cp.int64(inner_vectors),
                                                 cp.int32(lanes), cp.int32(rows),
                                                 cp.int32(chunks), cp.int32(wait),
                                                 cp.uint32(0)), shared_mem=smem)
                ms = median_ms(launch)
                launch()
                cp.cuda.Device().synchronize()
                assert bool((y == x).all()), "the probe's copy differs"
                frac = copy / ms
                print(f"{C:>5} {lanes:>5} {lanes * 16:>5} {threads:>7} {per_sm:>9} {wait:>4} "
                      f"{ms:>8.4f} {copy:>8.4f} {frac:>6.3f}", flush=True)
                records.append(dict(C=C, lanes=lanes, rows=rows, chunks=chunks,
                                    slice_bytes=lanes * 16, threads=threads,
                                    blocks_per_sm=per_sm, wait=wait, ms=ms, copy_ms=copy,
                                    fraction_of_copy=frac))
        del x, y
    # The pipelined kernel: one or two persistent blocks a multiprocessor.
    pipelined = cp.RawKernel(SOURCE, "probe_pipelined", options=("-std=c++17",))
    pipelined.max_dynamic_shared_size_bytes = props["sharedMemPerBlockOptin"] - 1024
    pipelined.compile()
    sms = props["multiProcessorCount"]
    print(f"pipelined kernel {pipelined.attributes['num_regs']} registers")
    for C, lanes, rows, chunks in [(512, 8, 32, 16), (1024, 4, 64, 16), (2048, 4, 128, 16),
                                   (4096, 2, 256, 16), (1024, 8, 64, 16), (2048, 8, 128, 16),
                                   (16, 512, 1, 16), (16, 256, 1, 16)]:
        threads = lanes * rows
        x, y, outer, copy = tensors(C, inner, total)
        inner_vectors = inner // 8
        tiles = outer * (inner_vectors // lanes)
        smem = chunks * threads * 16
        registers = pipelined.attributes["num_regs"]
        for per_sm in (1, 2):
            if per_sm * threads * registers > 65536 or per_sm * (smem + 1024) > smem_per_sm:
                continue
            grid = min(tiles, per_sm * sms)
            def launch():
                pipelined((grid,), (threads,), (x, y, cp.int32(C), cp.int64(inner_vectors),
                                                cp.int32(lanes), cp.int32(rows),
                                                cp.int32(chunks), cp.int64(tiles),
                                                cp.uint32(0)), shared_mem=smem)
            ms = median_ms(launch)
            launch()
            cp.cuda.Device().synchronize()
            assert bool((y == x).all()), "the pipelined probe's copy differs"
            frac = copy / ms
            print(f"{C:>5} {lanes:>5} {lanes * 16:>5} {threads:>7} {per_sm:>9} pipe "
                  f"{ms:>8.4f} {copy:>8.4f} {frac:>6.3f}", flush=True)
            records.append(dict(C=C, lanes=lanes, rows=rows, chunks=chunks,
                                slice_bytes=lanes * 16, threads=threads, blocks_per_sm=per_sm,
                                pipelined=True, ms=ms, copy_ms=copy, fraction_of_copy=frac))
        del x, y
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props["name"].decode(), "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
