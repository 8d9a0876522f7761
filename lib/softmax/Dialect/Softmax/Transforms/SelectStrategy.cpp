//===- SelectStrategy.cpp - Choose a kernel plan by row width -------------===//
//
// The numbers behind the thresholds are in docs/strategies.md. In short: a thread keeps 16
// values of a narrow row (enough bytes in flight per thread, few lanes a row) and up to 32 of a
// wide one; a row stays in registers while `lanes * values per thread` covers it within the
// register budget of a block of `lanes` threads; wider f32 rows are spread over the blocks of a
// thread-block cluster (sm_90), each holding its part in registers; beyond that the row goes to
// shared memory or the chunked online plan reads it twice.
//
//===----------------------------------------------------------------------===//

#include "softmax/Dialect/Softmax/Transforms/Passes.h"

#include "AxisPlan.h"
#include "softmax/Target/TargetInfo.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::softmax {
#define GEN_PASS_DEF_SELECTSTRATEGYPASS
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;
using namespace mlir::softmax;

namespace {

/// Values a thread keeps before more lanes are given to a row: measured on the H200
/// (docs/strategies.md). f32: tiny rows coalesce best with 8 (4 lanes of 2 vectors for 32
/// columns: 0.99x copy), 16 up to 4096 columns, 32 up to 8192 and 64 beyond (16384: 0.97x with
/// 256 lanes of 64 against 0.83x with 512 of 32: fewer warps a row to synchronise). 16-bit
/// inputs (pipelined; the fast kernels of their own, bench/results/2026-11-30-h200/
/// sweep16-fd50658.md): one vector of 8 a lane up to 64 columns (each warp load reads
/// consecutive bytes, and the fast kernel has no edge columns: bf16 N = 32 at 0.98x copy static
/// and dynamic, against 0.81x with one lane a row of 32 values in the general kernel, whose
/// instructions were the limit; bench/results/2026-12-01-h200/narrow16-d7f83a3.txt); one vector
/// a lane up to 4096 columns too, once its fast kernel is budgeted for 64 warps a
/// multiprocessor (32 registers, RowKernel.cpp), and 16 values up to 8192, 32 beyond: bf16 512
/// on 64 lanes 0.98x against 0.96x with 32 of 16, 1000 on 128 lanes 0.97x against 0.97x, 1024
/// 0.98x against 0.96x with 32 of 32, 2048 on 256 lanes 0.98x, 4096 on 512 lanes 0.945x
/// against 0.93x with 256 of 16, 8192 on 512 lanes of 16 0.94x against 0.92x with 256 of 32
/// (bench/results/2026-12-01-h200/plans16-be3ffdd.txt); 16384: 512 lanes of 32 (0.93x, against
/// 0.78x with 1024 of 16). Rows cut short by a -inf padding or causal mask (whose removed lanes are
/// not read) keep 32 values a thread up to 8192 columns and 64 beyond: the bf16 attention chain
/// (scale, causal, softmax, cast) ran at 0.81x copy on 64x2048x2048 with 256 lanes of 8 against
/// 1.04x with 64 lanes of 32, and at 1.01x against 1.03x on 16x4096x4096 (256 of 16 against 128
/// of 32): with fewer values a thread, more of a row's threads find nothing to read and wait at
/// the reductions (bench/results/2026-11-30-h200/compare-5d1b36b.txt against compare-fd50658.txt).
/// Not with side operands along the row (`readsPrefix` is false then): a bias or a boolean
/// mask beside 32 values of a pipelined 16-bit row took ptxas 150-260 registers where the
/// estimates said 110-160, and the narrow tiers (one or two lanes a row) spilled 64-320 bytes
/// (the Python builder's full chain, generated seed 87:
/// test/Pipelines/ptxas-no-spills-side-operands.mlir).
int64_t valuesPerThread(int64_t width, int64_t elementBytes, int64_t inputBytes,
                        bool readsPrefix) {
  if (inputBytes < 4 && readsPrefix)
    return width <= 8192 ? 32 : 64;
  if (inputBytes < 4) {
    if (width <= 4096)
      return 8;
    return width <= 8192 ? 16 : 32;
  }
  if (elementBytes == 4 && width <= 64)
    return 8;
  if (width <= 4096)
    return 16;
  return width <= 8192 ? 32 : 64;
}
/// Values a thread of the one-block-a-row plans (row_shared, chunked_online) handles per span,
/// and their lanes: 512 lanes of 32 values measured best or within 1-2% of it from 32768
/// columns up, against 1024 lanes.
constexpr int64_t kSpanValuesPerThread = 32;
constexpr int64_t kSpanLanes = 512;
/// The widest row given a register plan: the widest the H200 sweep measured them at (f32
/// 16384: 0.97x copy); wider rows fit the registers of 512 lanes of 64 values but were not
/// measured, and go to row_shared.
constexpr int64_t kWidestRegisterRow = 16384;
/// Rows known statically to be this few spread over clusters whatever their type: every
/// cluster runs at once, and spreading the row wins on latency (Planner::clusterPlan).
constexpr int64_t kFewRows = 16;
/// Blocks a multiprocessor a row_split plan aims at over the whole grid (Planner::splitPlan).
constexpr int64_t kSplitBlocksPerMultiprocessor = 4;
/// Vectors a lane of a row_split span where the row count is not known (splitAlternative).
constexpr int64_t kUnknownRowsSplitChunks = 4;
/// sm_90's portable cluster size: the register cluster plans over more blocks (non-portable
/// clusters of up to 16) measured behind the row staged over a cluster (bf16 262144 columns:
/// 0.63x copy over 16 blocks, 0.69x staged over 5; stagedPlan).
constexpr int64_t kPortableClusterBlocks = 8;
/// The smallest register budget worth planning with (getRegisterPlanRegisters' overhead).
constexpr int64_t kRegisterOverhead = 64;
/// Threads of a block of narrow rows.
constexpr int64_t kBlockThreads = 256;
/// The narrowest tier of a dynamic width: rows of up to 8 columns (one lane of 8 values).
constexpr int64_t kSmallestTier = 8;
/// The widest row that takes a narrower vector where the widest does not divide the width
/// (registerPlan): measured so for 16-bit rows up to 4096 columns and f32 rows up to 1280.
int64_t alignedVectorLimit(int64_t inputBytes) { return inputBytes < 4 ? 4096 : 1280; }
/// The narrowest such vector: 4 elements of a 16-bit row (vectors of 2 spilled), 1 of f32.
int64_t narrowestAlignedVector(int64_t inputBytes) { return inputBytes < 4 ? 4 : 1; }

class Planner {
public:
  Planner(MLIRContext *context, const TargetInfo &target, int64_t registerBudget,
          int64_t maxThreads, int64_t sharedMemoryBytes)
      : context(context), target(target), registerBudget(registerBudget),
        maxThreads(maxThreads), sharedMemoryBytes(sharedMemoryBytes) {}

  /// The widest vector (in elements) of one access: 16 bytes of the wider type.
  int64_t widestVector(int64_t elementBytes) const { return target.vectorBytes / elementBytes; }

  /// A plan keeping rows of `width` elements of `op` in registers, or null when they do not
  /// fit (with the registers its side operands along the row take: the kernels spilled
  /// without them, e.g. a boolean mask on the widest dynamic tier of 512 threads, which
  /// cannot have more than 128 registers; docs/fuzzing.md).
  /// `readsPrefix`: the op reads each row only up to a -inf mask's limit (valuesPerThread).
  /// `clusterBlocks` > 1: the plan of one block of a row_cluster plan holding `width` columns
  /// (one row a block, not pipelined). `narrowVector` > 0: the plan on vectors of that many
  /// elements, as a static width whose lowest power of two it is gets it (an alternative of a
  /// dynamic tier for rows off the widest vector's boundary).
  StrategyAttr registerPlan(FusedOp op, int64_t width, int64_t elementBytes, int64_t inputBytes,
                           std::optional<int64_t> rowCount, bool readsPrefix,
                           int64_t clusterBlocks = 1, int64_t narrowVector = 0) const {
    int64_t widest = widestVector(elementBytes);
    // Beyond the widest width the register plans were measured at, the rows go on chip.
    if (width > kWidestRegisterRow)
      return {};
    bool pipelined = clusterBlocks == 1 && isPipelinedInput(inputBytes);
    // A zero-width row never launches (the host code skips empty tensors); plan it as one
    // column so that the plan is valid.
    width = std::max<int64_t>(width, 1);
    int64_t perThread = valuesPerThread(width, elementBytes, inputBytes, readsPrefix);
    // A cluster's block holding 16-bit values packed (RowKernel.h) takes 64 values a thread
    // beyond 8192 columns, as f32 does: 256 lanes of 64 ran bf16 32768-262144 columns at
    // 0.63-0.82x copy, 512 lanes of 32 at 0.45-0.69 (bench/results/2026-12-03-h200/
    // packed-rows-*.txt).
    // Not for a few rows (kFewRows), which keep 512 lanes of 32 values for latency.
    bool fewRows = rowCount && *rowCount <= kFewRows;
    if (clusterBlocks > 1 && inputBytes < 4 && width > 8192 && !fewRows &&
        op.mayHoldPackedRowValues())
      perThread = 64;
    // Every row takes the same vector, so the widest one that divides a static width keeps all
    // rows on vector boundaries, where the fast kernel runs (RowKernel.h); the widest vector
    // put every other row of bf16 1100, 1500, 2500 or 3500 columns off its boundary, into the
    // general kernel: 0.70, 0.76, 0.67 and 0.38x copy on the H200, against 0.94-0.96x on
    // vectors of 4 (8 bytes) and f32 1025 0.93x against 0.985x on vectors of 1
    // (narrow16.txt and elastic-b914d31.txt in bench/results/2026-12-02-h200). Only as
    // measured: 16-bit rows of 513-4096 columns on vectors of 4 (vectors of 2 spilled: 48
    // bytes at bf16 1002), f32 rows of 513-1280 on vectors of 1 or 2 (513, 1025, 1026:
    // 0.92-0.93x to 0.97-0.99x; but 1537 0.993x to 0.983x, 2047 level, 2049 0.994x to 0.976x,
    // where the general kernel's edge columns weigh less: elastic-e2290a2.txt there); multi_row
    // rows and wider ones keep the widest vector. 16-bit rows on vectors of 4 keep 16 values
    // a thread (2-4 vectors) rather than 8: 700 and
    // 1100 ran at 0.96x on 12 values against 0.88x and 0.94x on 8; 3500 at 0.95x on 16
    // against 0.90x. Not log_softmax, whose values live to the end: bf16 1100 on 12 values
    // spilled 4 bytes at its 48-warp budget (ptxas), so it keeps 8.
    int64_t dividing = narrowVector > 0 ? narrowVector
                                        : int64_t(1) << llvm::countr_zero(uint64_t(width));
    // 16-bit rows that no vector of 4 divides take vectors of 4 all the same (in the general
    // kernel), as a dynamic tier's last alternative does: static bf16 1001, 1002 and 3001
    // columns ran at 0.64, 0.64 and 0.59x copy on the widest vector, 0.87x so
    // (bench/results/2026-12-02-h200/alternatives-a2260ab.txt).
    if (narrowVector == 0 && inputBytes < 4)
      dividing = std::max<int64_t>(dividing, narrowestAlignedVector(inputBytes));
    bool alignedVector =
        clusterBlocks == 1 && dividing < widest &&
        (narrowVector > 0 || (width > 512 && width <= alignedVectorLimit(inputBytes)));
    if (alignedVector && inputBytes < 4 && !readsPrefix &&
        op.getNormalization() != Normalization::log_softmax) {
      perThread = 16;
      // Sixteen values a thread on the whole warps they fill, one row a block: what a dynamic
      // tier's alternatives and the finer tiers between them run (SelectStrategyPass), so that
      // a static width and its dynamic twin share a plan. Against the 12 values and 2-4 rows a
      // block this rule gave before: static bf16 1025 0.81 -> 0.87x copy, 1537 0.75 -> 0.88,
      // 2049 0.82 -> 0.91, 2501 0.82 -> 0.95, 3001 0.87 -> 0.95 (the general kernel: no
      // vector of 4 divides them), 1100 0.967 -> 0.961 (finer-bb9d246.txt in
      // bench/results/2026-12-02-h200).
      int64_t lanes = llvm::alignTo(llvm::divideCeil(width, perThread), target.warpSize);
      int64_t registers = std::min(registerBudget, target.registersPerThread(lanes));
      if (lanes > target.warpSize && lanes <= maxThreads &&
          getRegisterPlanRegisters(lanes, dividing, perThread / dividing, inputBytes,
                                   pipelined) +
                  op.getRowSideOperandRegisters(perThread) + op.getPrologueStateRegisters() <=
              registers)
        return StrategyAttr::get(context, KernelPlan::row_registers, lanes, 1, dividing,
                                 perThread / dividing);
    }
    int64_t lanes = std::min<int64_t>(
        maxThreads, llvm::PowerOf2Ceil(std::max<int64_t>(1, llvm::divideCeil(width, perThread))));
    // More lanes (twice as many each time) until the row fits the registers of its block.
    for (;; lanes = std::min(lanes * 2, maxThreads)) {
      // Every row is split at vector boundaries (RowKernel.cpp), so the widest vector works
      // whatever the width; rows narrower than it take the widest that they fill.
      int64_t vector =
          alignedVector ? dividing : std::min<int64_t>(widest, llvm::bit_floor(uint64_t(width)));
      int64_t values = llvm::alignTo(llvm::divideCeil(width, lanes), vector);
      int64_t rows = clusterBlocks > 1 ? 1 : rowsPerBlock(lanes, rowCount, narrowVector > 0);
      int64_t registers = std::min(registerBudget, target.registersPerThread(lanes * rows));
      bool fits = getRegisterPlanRegisters(lanes, vector, values / vector, inputBytes,
                                           pipelined) +
                          op.getRowSideOperandRegisters(values) + op.getPrologueStateRegisters() <=
                      registers &&
                  values / vector <= 64;
      if (fits && clusterBlocks > 1 && lanes >= target.warpSize)
        return StrategyAttr::get(context, KernelPlan::row_cluster, lanes, 1, vector,
                                 values / vector, clusterBlocks);
      if (fits && clusterBlocks == 1 && lanes <= target.warpSize)
        return StrategyAttr::get(context, KernelPlan::multi_row, lanes, rows, vector,
                                 values / vector);
      if (fits && clusterBlocks == 1) {
        // Beyond a warp, only the warps that the row's values fill: a 16-bit row of 3000
        // columns takes 384 lanes of one vector (375 of them at work), where 512 left a quarter
        // of the block idle (0.83x copy on the H200, bench/results/2026-12-01-h200/
        // partial16-1822dc7.txt). Fewer threads a block only leave more registers. The blocks
        // of a cluster keep powers of two, as measured (sweep-cluster-*.md there).
        lanes = llvm::alignTo(llvm::divideCeil(width, values), target.warpSize);
        return StrategyAttr::get(context, KernelPlan::row_registers, lanes,
                                 rowsPerBlock(lanes, rowCount, narrowVector > 0), vector,
                                 values / vector);
      }
      if (lanes >= maxThreads)
        return {};
    }
  }

  /// A row of `width` f32 columns spread over the fewest blocks of a thread-block cluster that
  /// hold it in registers, each block `ceil(width / blocks)` columns with the register plan a
  /// row of that width gets (one row a cluster); null when the target has no clusters, the row
  /// is too wide, or the input is 16-bit and its kernel cannot hold the row packed. Measured on
  /// the H200 (256 MiB, fraction of copy, bench/results/2026-12-01-h200): f32 static 32768
  /// 0.93-0.97 on 2 blocks (row_shared 0.885), 50257 0.85 on 4 (0.716), 65536 0.90-0.92 on 4
  /// (chunked 0.61), 128256 0.87 on 8 (0.61). 16-bit rows held as f32 measured worse than the
  /// plans they would replace (bf16 50257 0.29 against row_shared's 0.57, 128256 0.31-0.62
  /// against chunked's 0.60: sweep-cluster-*.md, wide-*.txt there); held packed
  /// (FusedOp::mayHoldPackedRowValues: softmax without masks or side operands along the row),
  /// on 256 lanes of 64 values a block, ahead of them: bf16 32768 0.82 (row_shared 0.64), 65536
  /// 0.77 (chunked 0.67), 131072 0.72 (0.59), 262144 0.63 (0.59; packed-rows-*.txt in
  /// bench/results/2026-12-03-h200). Other 16-bit rows keep row_shared / chunked_online, except
  /// for a few rows known statically (`rowCount` <= kFewRows: every cluster at once on the
  /// GPU), where spreading the row wins on latency: bf16 1x128256 8.7 us against 22.8 us, and
  /// 8x131072 8.6 us (small-batch-b19d220.txt).
  StrategyAttr clusterPlan(FusedOp op, int64_t width, int64_t elementBytes, int64_t inputBytes,
                           bool readsPrefix, std::optional<int64_t> rowCount) const {
    bool fewRows = rowCount && *rowCount <= kFewRows;
    if (target.clusterBlocks < 2 || (inputBytes < 4 && !fewRows && !op.mayHoldPackedRowValues()) ||
        width <= kWidestRegisterRow)
      return {};
    int64_t blocks = llvm::divideCeil(width, kWidestRegisterRow);
    if (blocks > target.clusterBlocks)
      return {};
    return registerPlan(op, llvm::divideCeil(width, blocks), elementBytes, inputBytes, rowCount,
                        readsPrefix, blocks);
  }

  /// A 16-bit row wider than the register plans staged in shared memory by a bulk copy
  /// (row_staged: one block of 512 threads a row, or a slice a block over a cluster), where the
  /// chip has bulk copies, the row fits the blocks' shared memory as stored, and the op is a
  /// softmax or log_softmax without a prologue into its input type (what the kernel computes);
  /// null otherwise, and for a few rows known statically, where the register cluster plans
  /// spread each row over more multiprocessors for latency. A static width gets the fewest
  /// blocks that keep each within StrategyAttr::kStagedBlockTargetBytes (two blocks a
  /// multiprocessor), up to `blocks` (default: the chip's largest cluster, whose launch takes
  /// the fewest blocks a dynamic width needs: StrategyAttr::getStagedClusterBlocks,
  /// getDispatchWidth). The selection stages a row on one block while one holds it (`blocks`
  /// 1: up to 115704 16-bit columns), and over a cluster only past the register cluster plans
  /// of a portable cluster (131072). Measured on the H200 (bench/results/2026-12-04-h200/
  /// staged-cluster.txt, compare-7ddd078.json; bf16, fraction of a copy): over a cluster,
  /// 262144 columns over 5 blocks 0.69 (row_cluster over 16: 0.63), 524288 over 10 0.62
  /// (chunked 0.60); but 100000 over 2 0.78 (one block 0.80) and 128256 over 3 0.70
  /// (row_cluster over 8: 0.74), and 65536 over 2 0.79 (one block 0.75, where the row's 128 KB
  /// leave one block a multiprocessor).
  /// Measured on the H200 with a hand-written CUDA prototype of the kernel (bench/experiments/
  /// staged/, 2026-12-04, fraction of a copy, 256 MiB): bf16 16384 0.97 (512 threads; 1024:
  /// 0.81), 32768 0.95, 50257 0.93, 65536 0.81, 100000 0.86 (one block a multiprocessor from
  /// 65536: hence the clusters), where the cluster plans ran 0.83, 0.68, 0.78 and 0.68 at
  /// 32768-100000; f32 16384-50257 0.71-0.85, behind the f32 register and cluster plans
  /// (0.85-0.97), so f32 keeps those.
  /// `blocks`: the plan's cluster for a dynamic width (1, or the chip's largest: default).
  StrategyAttr stagedPlan(FusedOp op, int64_t width, int64_t inputBytes,
                          std::optional<int64_t> rowCount,
                          std::optional<int64_t> blocks = std::nullopt) const {
    bool fewRows = rowCount && *rowCount <= kFewRows;
    Type inputType = op.getInput().getType().getElementType();
    if (!target.bulkCopies || inputBytes != 2 || fewRows || !op.getPrologue().empty() ||
        op.getNormalization() == Normalization::none ||
        op.getResult().getType().getElementType() != inputType)
      return {};
    int64_t vector = target.vectorBytes / inputBytes;
    int64_t mostBlocks = blocks.value_or(std::max<int64_t>(1, target.clusterBlocks));
    auto plan = StrategyAttr::get(context, KernelPlan::row_staged, kSpanLanes, 1, vector, 1,
                                  mostBlocks);
    if (!ShapedType::isDynamic(width))
      plan = StrategyAttr::get(context, KernelPlan::row_staged, kSpanLanes, 1, vector, 1,
                               plan.getStagedClusterBlocks(width));
    int64_t widest = ShapedType::isDynamic(width) ? plan.getDispatchWidth() : width;
    if (widest <= kWidestRegisterRow || widest > plan.getDispatchWidth() ||
        plan.getStagedSharedBytes(widest) > sharedMemoryBytes)
      return {};
    return plan;
  }

  /// A few rows known statically, wider than any one-read plan holds (`plan`, the one chosen
  /// for them, is chunked_online: a block a row, reading it twice), fewer than the
  /// multiprocessors: each row split over many blocks (row_split, RowKernel.h), about
  /// kSplitBlocksPerMultiprocessor a multiprocessor in all, a span of 256 lanes of 1 to 8
  /// vectors each, so that every multiprocessor reads; it reads twice too, the second time
  /// mostly from L2. Measured on the H200 (bench/results/2026-12-05-h200/split-cbf3b48.txt):
  /// f32 1x1048576 in 16.5 us against 173, 8x1048576 34.5 against 275, bf16 4x4194304 39.6
  /// against 700. Rows the one-read plans hold (row_cluster, row_staged, row_shared) keep them:
  /// written by hand, row_split ran f32 1x128256 and bf16 8x131072 slower than the cluster
  /// plans there (14.0-18.3 us against 10.8; 14.2-16.8 against 8.1), and over a cluster (one
  /// launch) slower than in three launches on the wide rows (f32 1x1048576 21.1 us over 16
  /// blocks). Null where the op does not allow the split (no normalization, or output vectors
  /// narrower than its 8-byte slot).
  StrategyAttr splitPlan(FusedOp op, StrategyAttr plan, int64_t width, int64_t vector,
                         std::optional<int64_t> rowCount) const {
    if (!plan || plan.getPlan() != KernelPlan::chunked_online || !rowCount ||
        ShapedType::isDynamic(width) || *rowCount >= target.multiprocessors ||
        op.getNormalization() == Normalization::none)
      return {};
    int64_t outputBits = op.getResult().getType().getElementTypeBitWidth();
    if (vector * outputBits < 64)
      return {};
    constexpr int64_t kLanes = 256;
    int64_t wantedSpan =
        llvm::divideCeil(width * *rowCount, kSplitBlocksPerMultiprocessor * target.multiprocessors);
    int64_t chunks = std::clamp<int64_t>(
        int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(1, wantedSpan / (kLanes * vector))))),
        1, 8);
    return StrategyAttr::get(context, KernelPlan::row_split, std::min(kLanes, maxThreads), 1,
                             vector, chunks);
  }

  /// A row count unknown at compile time: row_split before the final chunked_online entry, as
  /// its row-count alternative (LowerToGPU.cpp): the host splits the rows where they are fewer
  /// than the multiprocessors, the chunked_online entry takes the others. Spans of 256 lanes of
  /// kUnknownRowsSplitChunks vectors (the hand-written spans of 1 to 8 vectors measured within
  /// about 15% of each other on the small batches). Null where the op does not allow the split.
  StrategyAttr splitAlternative(FusedOp op, int64_t vector) const {
    int64_t outputBits = op.getResult().getType().getElementTypeBitWidth();
    if (op.getNormalization() == Normalization::none || vector * outputBits < 64)
      return {};
    return StrategyAttr::get(context, KernelPlan::row_split, std::min<int64_t>(256, maxThreads),
                             1, vector, kUnknownRowsSplitChunks);
  }

  /// Any width: a block a row, chunks of `lanes * vector * chunks` elements.
  StrategyAttr chunkedPlan(int64_t vector) const {
    int64_t chunks = std::max<int64_t>(1, kSpanValuesPerThread / vector);
    return StrategyAttr::get(context, KernelPlan::chunked_online,
                             std::min(kSpanLanes, maxThreads), 1, vector, chunks);
  }

  /// The row in shared memory (as f32) when the target's shared memory holds it, else null.
  StrategyAttr sharedPlan(int64_t width, int64_t vector) const {
    int64_t bytes = std::min(sharedMemoryBytes - 1024, StrategyAttr::kSharedRowBytes);
    if (!ShapedType::isDynamic(width) && llvm::alignTo(width, vector) * 4 > bytes)
      return {};
    if (ShapedType::isDynamic(width) && bytes < StrategyAttr::kSharedRowBytes)
      return {}; // the dispatch assumes the full capacity
    int64_t chunks = std::max<int64_t>(1, kSpanValuesPerThread / vector);
    return StrategyAttr::get(context, KernelPlan::row_shared, std::min(kSpanLanes, maxThreads), 1,
                             vector, chunks);
  }

  /// The widest row of `op` a register plan holds with this element type: the most values any
  /// block size leaves room for (with the side operands' registers), times its lanes.
  int64_t registerLimit(FusedOp op, int64_t vector, int64_t inputBytes) const {
    int64_t limit = 0;
    for (int64_t lanes = target.warpSize; lanes <= maxThreads; lanes *= 2) {
      int64_t registers = std::min(registerBudget, target.registersPerThread(lanes));
      int64_t values = 0;
      while (getRegisterPlanRegisters(lanes, vector, values / vector + 1, inputBytes,
                                      isPipelinedInput(inputBytes)) +
                     op.getRowSideOperandRegisters(values + vector) +
                     op.getPrologueStateRegisters() <=
                 registers &&
             values / vector + 1 <= 64)
        values += vector;
      limit = std::max(limit, lanes * values);
    }
    return std::min(limit, kWidestRegisterRow);
  }

private:
  /// Rows per block: enough threads for a block of kBlockThreads, fewer when the rows known to
  /// exist would not give every multiprocessor two blocks. `alternative`: a dynamic tier's plan
  /// on a narrower vector (registerPlan) of several warps a row keeps one row a block: with
  /// several, its
  /// fast kernel spilled at its occupancy budget (ptxas: bf16 4 vectors of 4 a thread on 64 lanes
  /// x 4 rows 72 bytes at 40 registers, x 2 rows 40; one row fits 40).
  int64_t rowsPerBlock(int64_t lanes, std::optional<int64_t> rowCount,
                       bool alternative = false) const {
    if (lanes >= kBlockThreads || (alternative && lanes > target.warpSize))
      return 1;
    int64_t rows = kBlockThreads / lanes;
    if (rowCount) {
      int64_t wanted = std::max<int64_t>(1, *rowCount / (2 * target.multiprocessors));
      rows = std::min<int64_t>(rows, int64_t(llvm::bit_floor(uint64_t(wanted))));
    }
    // A block is whole warps.
    return std::max<int64_t>(rows, target.warpSize / std::min(lanes, target.warpSize));
  }

  MLIRContext *context;
  const TargetInfo &target;
  int64_t registerBudget;
  int64_t maxThreads;
  int64_t sharedMemoryBytes;
};

/// Keeps `op`'s kernels within the size bound (FusedOp::getUnrolledWork), which only a long
/// prologue makes the plans above exceed: a two-pass plan (chunked_online, row_shared) takes
/// fewer chunks (and, past one chunk, a narrower vector) a span; a plan that holds the row goes,
/// and the widths it served go to the next plan, or, for a static width, to chunked_online.
void fitUnrolledWork(FusedOp op, SmallVectorImpl<Attribute> &plans, StrategyAttr chunked) {
  int64_t perValue = FusedOp::kOpsPerValue + static_cast<int64_t>(op.getPrologue().size());
  auto fits = [&](StrategyAttr plan) {
    return op.getUnrolledWork(plan) <= FusedOp::kMaxUnrolledWork;
  };
  auto shrink = [&](StrategyAttr plan) {
    int64_t values = std::max<int64_t>(1, FusedOp::kMaxUnrolledWork / perValue);
    int64_t vector = std::min(plan.getVector(), int64_t(llvm::bit_floor(uint64_t(values))));
    int64_t chunks = std::clamp<int64_t>(values / vector, 1, plan.getChunks());
    return StrategyAttr::get(op.getContext(), plan.getPlan(), plan.getLanes(), plan.getRows(),
                             vector, chunks, plan.getCluster());
  };
  SmallVector<Attribute> kept;
  for (Attribute entry : plans) {
    auto plan = cast<StrategyAttr>(entry);
    bool twoPass = plan.getPlan() == KernelPlan::chunked_online ||
                   plan.getPlan() == KernelPlan::row_shared;
    if (fits(plan))
      kept.push_back(plan);
    else if (twoPass)
      kept.push_back(shrink(plan));
  }
  if (kept.empty())
    kept.push_back(shrink(chunked));
  plans.assign(kept.begin(), kept.end());
}

struct SelectStrategyPass : softmax::impl::SelectStrategyPassBase<SelectStrategyPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetInfo> target = TargetInfo::forChip(chip);
    if (!target) {
      getOperation().emitError() << "softmax-select-strategy: unknown chip '" << chip
                                 << "' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)";
      return signalPassFailure();
    }
    int64_t budget = registersPerThread > 0 ? registersPerThread : target->maxRegistersPerThread;
    int64_t threads = threadsPerBlock > 0 ? threadsPerBlock : target->maxThreadsPerBlock;
    if (threads < target->warpSize || threads > target->maxThreadsPerBlock ||
        !llvm::isPowerOf2_64(threads)) {
      getOperation().emitError() << "softmax-select-strategy: threads-per-block must be a power "
                                    "of two in [32, 1024], got "
                                 << threads;
      return signalPassFailure();
    }
    if (budget <= kRegisterOverhead || budget > target->maxRegistersPerThread) {
      getOperation().emitError() << "softmax-select-strategy: registers-per-thread must be in ["
                                 << kRegisterOverhead + 1 << ", "
                                 << target->maxRegistersPerThread << "], got " << budget;
      return signalPassFailure();
    }
    int64_t shared = sharedMemoryPerBlock > 0 ? sharedMemoryPerBlock : target->sharedMemoryPerBlock;
    if (shared > target->sharedMemoryPerBlock) {
      getOperation().emitError() << "softmax-select-strategy: shared-memory-per-block is at most "
                                 << target->sharedMemoryPerBlock << " bytes on " << chip
                                 << ", got " << shared;
      return signalPassFailure();
    }
    Planner planner(&getContext(), *target, budget, threads, shared);

    WalkResult result = getOperation().walk([&](FusedOp op) {
      if (op.getStrategiesAttr())
        return succeeded(op.verifyStrategies()) ? WalkResult::advance()
                                                : WalkResult::interrupt();
      RankedTensorType type = op.getInput().getType();
      if (op.getNormalizedAxis() != type.getRank() - 1) {
        // A non-last axis: the strided_axis kernels, without a transpose (AxisPlan.h).
        SmallVector<Attribute> plans =
            llvm::to_vector_of<Attribute>(selectStridedAxisPlans(op, *target, budget, threads));
        op.setStrategiesAttr(ArrayAttr::get(&getContext(), plans));
        return succeeded(op.verifyStrategies()) ? WalkResult::advance() : WalkResult::interrupt();
      }
      int64_t elementBytes =
          std::max(type.getElementTypeBitWidth(),
                   op.getResult().getType().getElementTypeBitWidth()) / 8;
      int64_t inputBytes = type.getElementTypeBitWidth() / 8;
      int64_t width = op.getRowWidth();
      int64_t vector = planner.widestVector(elementBytes);
      // A -inf padding or causal mask: the kernels read each row up to its limit only
      // (valuesPerThread's rule for such rows assumes nothing else held along the row).
      bool readsPrefix = op.getRowSideOperandRegisters(1) == 0 && op.hasLimitingMask();
      std::optional<int64_t> rowCount;
      if (type.hasStaticShape())
        rowCount = type.getNumElements() / std::max<int64_t>(1, width);

      SmallVector<Attribute> plans;
      if (!ShapedType::isDynamic(width)) {
        StrategyAttr plan =
            planner.registerPlan(op, width, elementBytes, inputBytes, rowCount, readsPrefix);
        if (!plan)
          plan = planner.stagedPlan(op, width, inputBytes, rowCount, /*blocks=*/1);
        if (!plan) {
          // Wider than a block holds: the register cluster plan while a portable cluster holds
          // the row, the row staged over a cluster beyond (where both apply, stagedPlan).
          StrategyAttr cluster =
              planner.clusterPlan(op, width, elementBytes, inputBytes, readsPrefix, rowCount);
          StrategyAttr staged = planner.stagedPlan(op, width, inputBytes, rowCount);
          plan = cluster && (!staged || cluster.getCluster() <= kPortableClusterBlocks) ? cluster
                                                                                         : staged;
        }
        if (!plan)
          plan = planner.sharedPlan(width, vector);
        if (!plan)
          plan = planner.chunkedPlan(vector);
        if (StrategyAttr split = planner.splitPlan(op, plan, width, vector, rowCount))
          plan = split;
        if (StrategyAttr split = planner.splitAlternative(op, vector);
            split && !rowCount && plan.getPlan() == KernelPlan::chunked_online)
          plans.push_back(split);
        plans.push_back(plan);
      } else {
        // One variant a power of two up to the register limit, then any width; the host code
        // runs the first that fits. A width runs the plan a static width at the top of its
        // tier gets, so a dynamic program is as lean as its static twin there (registers, lanes
        // at work, bytes in flight).
        int64_t limit = planner.registerLimit(op, vector, inputBytes);
        SmallVector<int64_t> tiers;
        for (int64_t tier = kSmallestTier; tier < limit; tier *= 2) {
          tiers.push_back(tier);
          // 16-bit rows of 8193-12288 columns: a tier of three vectors a thread (512 x 24)
          // between those of two and four. In the 16384 tier (512 x 32) they ran at 0.68-0.78x
          // copy, on 512 x 24 at its occupancy budget 0.92-0.93x, as their static plans do
          // (bench/results/2026-12-02-h200/tiers16-32f0d33.txt). Not for rows a -inf mask
          // cuts short, which keep 32 values a thread, nor beside side operands along the row
          // (not measured there).
          if (tier == 8192 && inputBytes < 4 && !readsPrefix &&
              op.getRowSideOperandRegisters(1) == 0 && tier * 3 / 2 < limit)
            tiers.push_back(tier * 3 / 2);
        }
        if (limit > 0) // a budget too small for any register plan leaves none
          tiers.push_back(limit);
        StrategyAttr previous;
        for (int64_t tier : tiers) {
          StrategyAttr plan =
              planner.registerPlan(op, tier, elementBytes, inputBytes, rowCount, readsPrefix);
          if (!plan || plan == previous)
            continue;
          // 16-bit rows off the 8-byte boundary: between this tier and the one below it,
          // tiers of the 16 values a thread that its alternative on vectors of 4 takes, on each
          // whole number of warps it lacks (2049-4096 columns: 160, 192, 224 lanes before the
          // 256 of the tier's own alternative; 1025-2048: 96 before 128). A static width takes
          // those lanes (registerPlan), and with the tier's alone dynamic bf16 1100, 2049, 2501,
          // 3001 ran at 0.865, 0.565, 0.669, 0.781x copy, with these at 0.952, 0.862, 0.940,
          // 0.926; widths the widest vector divides at 0.988-0.994 either way (1280, 1536;
          // finer-bb9d246.txt in bench/results/2026-12-02-h200). One plan each: a width there
          // that is a multiple of 8 runs the fast kernel on vectors of 4.
          if (inputBytes < 4 && tier > 512 && tier / 2 < alignedVectorLimit(inputBytes)) {
            int64_t narrow = narrowestAlignedVector(inputBytes);
            for (int64_t lanes = tier / 32 + target->warpSize; lanes < tier / 16;
                 lanes += target->warpSize)
              if (StrategyAttr finer =
                      planner.registerPlan(op, lanes * 16, elementBytes, inputBytes, rowCount,
                                           readsPrefix, /*clusterBlocks=*/1, narrow))
                if (finer.getLanes() == lanes && finer.getVector() * finer.getChunks() == 16)
                  plans.push_back(finer);
          }
          plans.push_back(plan);
          previous = plan;
          // Alternatives of the tier for widths off its vector's boundary (the host runs the
          // first whose fast kernel applies, softmax.fused): the narrower vectors that a static
          // width of the tier gets where the widest does not divide it (registerPlan), so that
          // such a row runs a fast kernel as its static twin does, not the general one (bf16
          // 700-3500 columns ran at 0.37-0.63x copy in the general kernel, their static twins
          // at 0.94-0.97x; f32 513 at 0.82x against 0.97x: elastic-b914d31.txt in
          // bench/results/2026-12-02-h200). Only tiers serving such widths, and plans of the
          // same span (the dispatch groups alternatives by their maximum width).
          if (tier / 2 >= alignedVectorLimit(inputBytes) || tier <= 512)
            continue;
          for (int64_t narrow = plan.getVector() / 2;
               narrow >= narrowestAlignedVector(inputBytes); narrow /= 2)
            if (StrategyAttr alternative =
                    planner.registerPlan(op, tier, elementBytes, inputBytes, rowCount,
                                         readsPrefix, /*clusterBlocks=*/1, narrow))
              if (alternative.getMaxWidth() == plan.getMaxWidth())
                plans.push_back(alternative);
        }
        // Then the row staged in shared memory on one block (16-bit rows up to 115704
        // columns), rows spread over clusters of 2, 4, ... blocks, each tier as wide as its
        // blocks hold, past the widest tier so far (up to a portable cluster where the row can
        // be staged over a cluster), and the row staged over a cluster (up to 923512).
        auto widest = [&] {
          return plans.empty() ? int64_t(0)
                               : cast<StrategyAttr>(plans.back()).getDispatchWidth();
        };
        if (limit == kWidestRegisterRow) {
          if (StrategyAttr plan =
                  planner.stagedPlan(op, width, inputBytes, rowCount, /*blocks=*/1))
            plans.push_back(plan);
          StrategyAttr stagedCluster;
          if (target->clusterBlocks > 1)
            stagedCluster = planner.stagedPlan(op, width, inputBytes, rowCount);
          for (int64_t blocks = 2; blocks <= target->clusterBlocks; blocks *= 2) {
            if (stagedCluster && blocks > kPortableClusterBlocks)
              break;
            if (StrategyAttr plan = planner.clusterPlan(op, blocks * limit, elementBytes,
                                                        inputBytes, readsPrefix, rowCount))
              if (plan.getMaxWidth() > widest())
                plans.push_back(plan);
          }
          if (stagedCluster && stagedCluster.getDispatchWidth() > widest())
            plans.push_back(stagedCluster);
        }
        // The row in shared memory where it is wider than every tier so far.
        if (StrategyAttr plan = planner.sharedPlan(width, vector))
          if (plans.empty() ||
              plan.getMaxWidth() > cast<StrategyAttr>(plans.back()).getMaxWidth())
            plans.push_back(plan);
        if (StrategyAttr split = planner.splitAlternative(op, vector))
          plans.push_back(split);
        plans.push_back(planner.chunkedPlan(vector));
      }
      fitUnrolledWork(op, plans, planner.chunkedPlan(vector));
      op.setStrategiesAttr(ArrayAttr::get(&getContext(), plans));
      // A prologue too long for even one value a span fails the size bound: the verifier says so.
      return succeeded(op.verifyStrategies()) ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
