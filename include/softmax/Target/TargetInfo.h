//===- TargetInfo.h - The GPU facts that plans depend on --------*- C++ -*-===//
//
// Every limit the strategy selection and the lowering consult, behind one type, so that a new
// GPU generation is one more entry in TargetInfo.cpp rather than ifs spread over the passes.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_TARGET_TARGETINFO_H
#define SOFTMAX_TARGET_TARGETINFO_H

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::softmax {

struct TargetInfo {
  std::string chip;               ///< e.g. "sm_90"
  int64_t warpSize = 32;          ///< threads that execute in lock step and shuffle together
  int64_t maxThreadsPerBlock = 1024;
  int64_t registersPerSM = 65536; ///< 32-bit registers of one multiprocessor
  int64_t maxRegistersPerThread = 255;
  int64_t maxThreadsPerSM = 2048; ///< resident threads of one multiprocessor (sm_86/89: 1536)
  int64_t sharedMemoryPerBlock = 0; ///< bytes, with the opt-in beyond 48 KB
  int64_t multiprocessors = 0;      ///< of the reference part (H200/H100 SXM: 132)
  int64_t vectorBytes = 16;         ///< widest global load/store of one thread
  /// Blocks a thread-block cluster may have (0: no clusters before sm_90): 16 on sm_90, of
  /// which more than 8 is a non-portable size that each kernel opts into at load or launch.
  /// Rows spread over a cluster share their max and sum through distributed shared memory
  /// (the row_cluster plan).
  int64_t clusterBlocks = 0;
  /// Whether the chip has bulk asynchronous copies from global to shared memory whose
  /// completion an mbarrier counts (cp.async.bulk, sm_90 on): the row_staged plan.
  bool bulkCopies = false;
  /// Whether a launch may follow the one before it on its stream as a programmatic dependent
  /// launch (sm_90 on): its blocks start while that grid finishes, and wait for its results at
  /// `griddepcontrol.wait` (the row_split phases).
  bool dependentLaunches = false;

  /// The facts of `chip` (sm_80, sm_86, sm_89, sm_90), or nothing for an unknown chip.
  static std::optional<TargetInfo> forChip(llvm::StringRef chip);

  /// Registers a thread may use when blocks have `threads` threads: the per-thread maximum, or
  /// less when one block of that size must fit the register file.
  int64_t registersPerThread(int64_t threads) const;
};

/// Registers a thread of a register plan needs for `vector * chunks` values of a row (and its
/// edge columns, ceil((vector - 1) / lanes) at each end) whose input elements have
/// `elementBytes` bytes: the values as f32, with `pipelined` the next row's raw values loaded
/// while this row is computed (RowKernel.cpp), and 64 for the rest (addresses and indices of two
/// rows, the max and sum, loop state; calibrated with ptxas -v on the generated kernels, which
/// then do not spill).
int64_t getRegisterPlanRegisters(int64_t lanes, int64_t vector, int64_t chunks,
                                 int64_t elementBytes, bool pipelined);

/// Whether register plans over inputs of `elementBytes` bytes load the next row while computing
/// one. Measured on the H200 (docs/strategies.md): for 16-bit inputs, whose arithmetic per byte
/// is twice f32's, it takes the best plans from 0.76-0.81x to 0.81-0.91x copy; for f32 the extra
/// registers cost more occupancy than the overlap gains (0.97x without it at 16384 columns,
/// 0.83x with it).
inline bool isPipelinedInput(int64_t elementBytes) { return elementBytes < 4; }

/// Registers a thread of a strided_axis kernel needs for `chunks` axis values of `vector`
/// columns each held in registers (as f32): the values, four per column (the column's max,
/// sum, factor and a partial from the other rows), and for addresses and indices:
///  - `lean` (the vector kernel of a static C, AxisKernel.cpp's leanAddressing: its chunks
///    through one view an operand, no compare where a chunk cannot pass C): 40, 48 more for a
///    log_softmax of values converted from 16-bit storage, 32 more after a prologue (scales,
///    roundings). Calibrated with ptxas -v on test/Pipelines/ptxas-no-spills-axis.mlir and
///    the generator's strided_axis family: 64 plain values on vectors of 4 need 88-104, those
///    after a scale and a rounding up to 144 (generator seeds 190 and 230), so that they are
///    not held in blocks of 512 threads (128 registers). An f32 log_softmax takes what a
///    softmax does: given 255, its kernels of 64 values in blocks of 256 took 134-143, one
///    block a multiprocessor (C = 64 and 512 ran at 0.881x and 0.838x copy against 0.975x and
///    0.960x for the softmax: H200, 2026-12-06, axis-bench-6ef949a.txt), and at 128 (two
///    blocks) 129 of 132 such kernels assembled without a spill (static and dynamic C, tiers
///    of 16-1024, axes 0, 1 and -2, inner sizes 56, 1024 and dynamic, with and without a
///    scale; ptxas -v, 2026-12-07); the other three, the tier of C = 64 over a dynamic inner
///    size without a prologue, spilled 8 bytes (AxisKernel.cpp gives those 120). In blocks of 512 an f32 log_softmax keeps the
///    48 more in the planner (AxisPlan.cpp: 48-64 values spilled 12-24 bytes at 128 there).
///    Converted values spilled 4-36 bytes at 128 over dynamic inner sizes and keep theirs.
///    A dynamic C's tier (`tier`), whose chunks past the earlier tiers' C may pass its C, 8
///    more: 64 values on vectors of 4 in blocks of 512 need 128 (the static plan 96); 16 more
///    where the values are converted from 16-bit storage (`converted`: f16 to f32 with
///    masked_rows = zero, 8 lanes x 64 rows x 16 chunks in blocks of 512, spilled 4 bytes at
///    128, 12 at 112, none at 96 or 120: generator seed 694 of the strided_axis family).
///  - otherwise (four-index accesses, each chunk's 64-bit axis index live from its load to its
///    store, and a compare each): 56, and 8 more for a log_softmax (9 chunks of 4 in blocks of
///    512 spilled 8 bytes at 112 and none at 120: generated seeds 240 and 376 of the
///    strided_axis family, docs/fuzzing.md), 8 more after a prologue (the general kernel of
///    2 lanes x 256 rows x 8 chunks of 4 after a scale by a scalar, a rounding and a scale
///    spilled 16 bytes at 104 and none at 112: generator seed 548 of the strided_axis family).
///  - `overCluster` (a lean kernel whose columns span the blocks of a cluster): neither a
///    log_softmax's nor a prologue's extra. Its normalisation computes each value again from
///    the loaded one and the cluster's max, so that nothing of the block's own exps stays
///    live: 64 f32 values on vectors of 4 as a log_softmax, after a scale, a scale by a
///    scalar, or a scale, a rounding to bf16 and a scale (generator seeds 190 and 230 over a
///    cluster), in the plans of static C = 3000-16384 and a dynamic C's tiers of 1536-16384,
///    took 141-171 registers where they had 255 and assembled without a spill at 128 (two
///    blocks of 256 a multiprocessor; some tiers spill at 112 and 120: not monotone). A
///    converted tier keeps its 16 more: f16 to f32 over an inner size of 56 (generator seed
///    694) spilled 4 bytes at 128 in the tiers of 1536 and 3072 over clusters of 3 and 6.
/// The kernel carries it as `nvvm.maxnreg` (AxisKernel.cpp).
inline int64_t getStridedAxisRegisters(int64_t vector, int64_t chunks, bool logSoftmax,
                                       bool hasPrologue, bool lean, bool tier = false,
                                       bool converted = false, bool overCluster = false) {
  if (lean && overCluster)
    return vector * chunks + 4 * vector + 40 + (tier ? (converted ? 16 : 8) : 0);
  if (lean)
    return vector * chunks + 4 * vector + 40 + (logSoftmax && converted ? 48 : 0) +
           (hasPrologue ? 32 : 0) + (tier ? (converted ? 16 : 8) : 0);
  return vector * chunks + 4 * vector + 56 + (logSoftmax ? 8 : 0) + (hasPrologue ? 8 : 0);
}

/// The same for a kernel that holds its loaded 16-bit vectors packed, two values a register,
/// and converts them at each use (AxisKernel.cpp, holdsPackedValues): half a register a value,
/// two per column and 32 for addresses and indices. Except where a prologue step (a scale)
/// follows each conversion and the rows of a column are in different warps only (lanes >= 32,
/// rows > 1): ptxas then merges the three conversions and keeps f32 copies across the
/// barriers, a register and a half a value; with a prologue elsewhere, more than 64 values
/// take 16 more (128 values after scales, generated seeds 181, 236, 267 and 370 of the
/// strided_axis family: 2-84 bytes of spill at 104-112, none with 16 more; docs/fuzzing.md).
/// Calibrated with ptxas -v on the plans
/// softmax-select-strategy chooses for C = 2..2048 (bf16 and f16, f32 and 16-bit results,
/// with and without a scale), which then do not spill: 64 values a thread on vectors of 8 take
/// 72-80 registers, 112-120 in the exception. `dynamicAxis`: the tier of a dynamic C, whose
/// every chunk compares its axis index with C, takes one more a chunk (bf16 tiers of 2048 and
/// 4096, 16 chunks of 8, spilled 16 bytes at 112 and none at 120; bf16 to f32 in one row of
/// 32 chunks of 4, 48 bytes at 112 and none at 136) past 64 values a thread (the tier of C = 8,
/// 256 lanes x 1 row x 8 chunks of 8, is the static plan's code but for the -inf it loads past
/// C: clean at its 80, three blocks of 256 a multiprocessor, where one more a chunk gave it two
/// (dynamic bf16 C = 8 ran at 0.896x copy against 0.980x static: H200, 2026-12-06,
/// axis-bench-6ef949a.txt); the tiers of 16-1024 spilled 188-568 bytes at 80), or the
/// prologue's 16 where that is more,
/// not both (one a chunk of 8 values: bf16 and f16 to an f32 result, on vectors of 4, one
/// for two chunks; its tiers of 1536-4096 for positive scalar factors, 96 and 128 values in
/// blocks of 512, assembled without a spill at 128, where one a chunk put the tier of 2048 in
/// blocks of 256 at 202 registers, one block a multiprocessor; 2026-12-06, fifteenth session): the tiers of
/// 1024-4096 (96 and 128 values) after constant positive scales (and
/// a scale between roundings to bf16, which tiers no longer hold packed: FusedOp::
/// mayHoldPackedAxisValues), bf16 and f16, over axes 0 and 1 and inner sizes of 4-4096,
/// assembled without a spill at 120 and 128 (ptxas -v, 2026-12-06; 128 values spilled 26-60
/// bytes at 104, up to 8 at 112 after the scale between roundings).
inline int64_t getPackedStridedAxisRegisters(int64_t lanes, int64_t rows, int64_t vector,
                                             int64_t chunks, bool hasPrologue,
                                             bool dynamicAxis) {
  int64_t values = vector * chunks;
  int64_t extra = dynamicAxis && values > 64 ? values / 8 : 0;
  if (hasPrologue && lanes >= 32 && rows > 1)
    return values * 3 / 2 + 24 + extra;
  // Blocks of 512 threads or more take at least 112: 9 chunks of 8 on 4 and 2 lanes spilled 24
  // bytes at 88 (C = 1025-1152 and 2049-2304; generated seed 8 of the strided_axis family),
  // and where C is exactly 9 spans (1152, 2304) at 104 too; 10-16 chunks fit their 88-112.
  // Such a block is alone on its multiprocessor from 65 registers up: no occupancy lost.
  int64_t floor = lanes * rows >= 512 ? 112 : 0;
  int64_t prologue = hasPrologue && values > 64 ? 16 : 0;
  return std::max(values / 2 + 2 * vector + 32 + std::max(extra, prologue), floor);
}

/// The most values a thread of a strided_axis kernel holds as f32 (AxisPlan.cpp, rule 1).
constexpr int64_t kMaxAxisF32Values = 64;

/// Whether a strided_axis kernel whose op has a prologue holds its 16-bit values packed
/// (FusedOp::mayHoldPackedAxisValues says which ops may): only where it holds more values a
/// thread than it could as f32. Packed values go through the prologue again at each of their
/// three uses (a conversion and a multiplication each time, 29% more instructions than a
/// plain softmax's kernel): bf16 scaled by 0.125 over C = 512 ran at 0.766x copy with 128
/// values a thread packed (8 lanes x 32 rows x 16) where the tier of a dynamic C, 64 values a
/// thread converted and scaled once (4 lanes x 64 rows x 8), ran at 0.927x (H100, 2026-12-06,
/// bench/results/2026-12-06-h100/axis-bench-82c94a7.txt).
inline bool holdsPackedAfterPrologue(int64_t valuesPerThread) {
  return valuesPerThread > kMaxAxisF32Values;
}

} // namespace mlir::softmax

#endif // SOFTMAX_TARGET_TARGETINFO_H
