//===- Parallel.h - Splitting host loops over threads -----------*- C++ -*-===//
//
// The runner's host work (generating inputs, comparing outputs) touches up to ~1e9 elements;
// these loops split it into fixed blocks over std::threads. Blocks are fixed (not per thread), so
// results that depend on the block (random streams, the order of reported mismatches) do not
// depend on the machine's core count.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_PARALLEL_H
#define SOFTMAX_RUNNER_PARALLEL_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace softmax::runner {

/// Calls `body(block, begin, end)` for each block of `blockSize` items of [0, count), on up to
/// hardware_concurrency threads. `body` must be safe to call concurrently for distinct blocks.
template <typename Body> void parallelForBlocks(int64_t count, int64_t blockSize, Body body) {
  if (count <= 0)
    return;
  int64_t blocks = (count + blockSize - 1) / blockSize;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<int64_t>(threads, blocks));
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    for (int64_t block = next++; block < blocks; block = next++)
      body(block, block * blockSize, std::min(count, (block + 1) * blockSize));
  };
  if (threads <= 1)
    return worker();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (std::thread &thread : pool)
    thread.join();
}

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_PARALLEL_H
