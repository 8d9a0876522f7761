//===- RowKernel.cpp - GPU kernels for one softmax.fused plan -------------===//
//
// One kernel shape serves every plan: `lanes` threads share a row, a block holds `rows` rows,
// and each thread owns `chunks` vectors of `vector` elements of a span of
// `lanes * vector * chunks` columns:
//
//   column(lane, c, v) = span_base + (c * lanes + lane) * vector + v
//
// so that consecutive lanes touch consecutive 16-byte vectors (coalesced). Each row is split at
// vector boundaries of memory: its first `head` columns and its last `tail` columns (each fewer
// than a vector) are taken one per lane as scalars, and everything between is whole vectors, so
// a vector is either read whole or not at all: no per-element bounds checks anywhere (the
// "uniform per vector" rule that keeps a dynamic width as lean as a static one). That needs the
// input and output rows to have the same misalignment; a kernel whose operands do not (checked
// once per launch, uniform over the grid) takes a plain scalar loop instead.
//
// The register plans
// (multi_row, row_registers) keep the row's values in registers between the reductions and the
// store: one read, one write. row_cluster is a register plan whose row is spread over the blocks
// of a thread-block cluster: block `rank` of a cluster holds the span starting `rank * span`
// columns into the row, and the blocks combine their (max, sum) through distributed shared
// memory. The chunked online plan loops over spans keeping a running max and
// sum, then loops again to normalise: two reads, one write, any width.
//
// Arithmetic is f32 whatever the storage type. exp and log use ex2.approx / lg2.approx (no
// libdevice): exp(x - m) = 2^((x - m) * log2 e).
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"

#include "RowStagedKernel.h"

#include "EmitterSupport.h"
#include "Normalization.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::softmax;

MemRefType mlir::softmax::getStridedMemRefType(ShapedType type) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  if (rank > 0)
    strides.back() = 1;
  auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides);
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

MemRefType mlir::softmax::getRowsMemRefType(Type elementType) {
  return getStridedMemRefType(
      RankedTensorType::get({ShapedType::kDynamic, ShapedType::kDynamic}, elementType));
}

SmallVector<Type> mlir::softmax::getRowKernelParameterTypes(FusedOp op) {
  SmallVector<Type> types{getRowsMemRefType(op.getInput().getType().getElementType()),
                          getRowsMemRefType(op.getResult().getType().getElementType())};
  for (Value side : op.getSideOperands())
    types.push_back(isa<ShapedType>(side.getType())
                        ? Type(getStridedMemRefType(cast<ShapedType>(side.getType())))
                        : side.getType());
  int64_t rank = op.getInput().getType().getRank();
  types.append(std::max<int64_t>(rank - 1, 0), IndexType::get(op.getContext()));
  return types;
}

int64_t mlir::softmax::getRowSharedReductionSlots(StrategyAttr plan) {
  // Two buffers (max, sum) of one f32 slot per warp, rounded to 16 bytes so the row is aligned.
  return llvm::alignTo(2 * plan.getRows() * std::max<int64_t>(plan.getLanes() / 32, 1), 4);
}

bool mlir::softmax::isPipelined(FusedOp op, StrategyAttr plan, const TargetInfo &target) {
  // row_cluster is not pipelined (SelectStrategy.cpp, clusterPlan: measured slower).
  int64_t inputBytes = op.getInput().getType().getElementTypeBitWidth() / 8;
  if ((plan.getPlan() != KernelPlan::multi_row && plan.getPlan() != KernelPlan::row_registers) ||
      !isPipelinedInput(inputBytes))
    return false;
  // Nor a plan whose block leaves no registers for the next row's values: the chosen plans
  // (at most 512 threads) always do, but hand-written ones of 1024 threads (64 registers) or
  // of 64 values on 512 (128) spilled 12-20 bytes at their block's limit with them (generated
  // seeds 4493, 5440, 8090, 12693) and fit in 39-62 and 127 without.
  return getRegisterPlanRegisters(plan.getLanes(), plan.getVector(), plan.getChunks(), inputBytes,
                                  /*pipelined=*/true) <=
         target.registersPerThread(plan.getBlockSize());
}

namespace {
/// The smallest row group (rows x width x input bytes) a pipelined block takes a grid apart.
constexpr int64_t kStridedGroupBytes = 8192;
} // namespace

std::optional<int64_t> mlir::softmax::getStridedWalkWidth(FusedOp op, StrategyAttr plan,
                                                         const TargetInfo &target) {
  // Not rows a -inf mask cuts short: the walk's registers (the grid as the step) spilled 8
  // bytes of their kernels at the occupancy target (ptxas: the attention chain's 4096-column
  // kernels), for gains of 0.006-0.02x copy there (bench/results/2026-12-02-h200/
  // grid-9ccea6e.txt).
  if (!isPipelined(op, plan, target) || op.hasLimitingMask())
    return std::nullopt;
  int64_t rowBytes = plan.getRows() * op.getInput().getType().getElementTypeBitWidth() / 8;
  return llvm::divideCeil(kStridedGroupBytes, rowBytes);
}

Value mlir::softmax::buildBlockCount(OpBuilder &builder, Location loc, FusedOp op,
                                     StrategyAttr plan, RowKernelVariant variant, Value rowCount,
                                     Value width, const TargetInfo &target) {
  auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); };
  Value groups = arith::CeilDivUIOp::create(builder, loc, rowCount, constant(plan.getRows()));
  if (plan.getPlan() == KernelPlan::row_cluster) // a cluster of blocks a row
    return arith::MulIOp::create(builder, loc, groups, constant(plan.getCluster()));
  if (plan.getPlan() == KernelPlan::row_staged && plan.getCluster() > 1)
    return arith::MulIOp::create(builder, loc, groups,
                                 buildRowStagedClusterBlocks(builder, loc, plan, width));
  if (!isPipelined(op, plan, target))
    return groups;
  // Up to kPipelinedGroups groups a block, once there are enough to keep at least
  // kGroupsPerMultiprocessor on each of the target's multiprocessors (fewer rows keep one
  // group a block, so that small problems spread over the whole GPU).
  constexpr int64_t kPipelinedGroups = 4;
  constexpr int64_t kGroupsPerMultiprocessor = 16;
  auto clampGroups = [&](Value perBlock) {
    perBlock = arith::MaxUIOp::create(builder, loc, perBlock, constant(1));
    return arith::MinUIOp::create(builder, loc, perBlock, constant(kPipelinedGroups));
  };
  Value perBlock = clampGroups(arith::DivUIOp::create(
      builder, loc, groups, constant(target.multiprocessors * kGroupsPerMultiprocessor)));
  if (std::optional<int64_t> stridedWidth = getStridedWalkWidth(op, plan, target)) {
    // Groups walked a grid apart (KernelEmitter::emit): as many a block as leave about
    // kWavesPerSlot blocks for each block the multiprocessors hold at once (the nearest whole
    // number, 1 to kPipelinedGroups). Measured on the H200 with 2, 3, 4, 6 and 8 groups a block
    // (bench/results/2026-12-02-h200/cap-9ccea6e.txt, 256 MiB): the best were bf16 4096
    // columns on 4 (0.952x copy; 15.5 such waves), 8192 on 2 (0.975, against 0.947 on 4; 20.7),
    // 12288 on 3 (0.963; 13.8), 16384 on 2 (0.963, against 0.949 on 3; 15.5).
    constexpr int64_t kWavesPerSlot = 16;
    int64_t threads = plan.getBlockSize();
    int64_t warps = llvm::divideCeil(threads, target.warpSize);
    int64_t registers = llvm::alignTo(getRowKernelRegisters(op, plan, variant, target), 8);
    int64_t warpsPerSM = target.maxThreadsPerSM / target.warpSize;
    int64_t resident = std::clamp<int64_t>(
        std::min<int64_t>(target.registersPerSM / (registers * target.warpSize) / warps,
                          warpsPerSM / warps),
        1, 32);
    int64_t slots = target.multiprocessors * resident;
    Value balanced = clampGroups(arith::DivUIOp::create(
        builder, loc,
        arith::AddIOp::create(builder, loc, groups, constant(kWavesPerSlot * slots / 2)),
        constant(kWavesPerSlot * slots)));
    Value strided = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge, width,
                                          constant(*stridedWidth));
    perBlock = arith::SelectOp::create(builder, loc, strided, balanced, perBlock);
  }
  return arith::CeilDivUIOp::create(builder, loc, groups, perBlock);
}

namespace {

/// Row counts and widths below this take the fast variant's i32 arithmetic, with room for a
/// span past the row.
constexpr int64_t kFastLimit = int64_t(1) << 30;

/// Emits the body of one kernel. The members hold the values every part needs (the thread's
/// row, its column limits, the per-row state of the masks).
class KernelEmitter : public KernelEmitterBase {
public:
  /// `target`: the chip a kernel is emitted for (null for the host-side queries below, which
  /// emit no kernel).
  KernelEmitter(OpBuilder &builder, FusedOp op, StrategyAttr plan, gpu::GPUFuncOp func,
                const TargetInfo *target)
      : KernelEmitterBase(builder, op, plan, func),
        clusterBlocks(plan.getPlan() == KernelPlan::row_cluster ||
                              plan.getPlan() == KernelPlan::row_split
                          ? plan.getCluster()
                          : 1),
        rank(op.getInput().getType().getRank()), it(b.getIndexType()),
        knownWidth(op.getRowWidth()), packedValues(holdsPackedRowValues(op, plan)),
        pipelined(target && isPipelined(op, plan, *target)),
        stridedWalkWidth(target ? getStridedWalkWidth(op, plan, *target) : std::nullopt) {}

  void emit(RowKernelVariant variant);
  /// row_split: emits the kernel of `phase` (RowKernel.h).
  void emitSplit(RowSplitPhase phase, bool dependentLaunches);
  /// Whether the fast variant can apply (see hasFastVariant).
  bool fastVariantPossible();
  /// Host code: vectorsApply() and fastApplies() over the kernel's operands.
  Value fastCondition(ValueRange kernelOperands);
  /// Host code: whether the row_split kernels apply to the kernel's operands (RowKernel.h,
  /// buildRowSplitCondition).
  Value splitCondition(ValueRange kernelOperands, Value rowCount, Value width);

private:
  // The helpers of `it` (the others are KernelEmitterBase's). Row and column arithmetic is
  // done in `it`: i32 in the fast variant (sizes checked to fit; one instruction where i64
  // takes two or three), else index.
  Value index(int64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, v)); }
  /// An index value (a size, an id) as `it`.
  Value narrow(Value v) {
    return v.getType() == it ? v : Value(arith::IndexCastOp::create(b, loc, it, v));
  }
  /// An `it` value (never negative where used) as an index, for a memref access.
  Value wide(Value v) {
    return v.getType().isIndex() ? v
                                 : Value(arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v));
  }
  SmallVector<Value> at(Value r, Value c) { return {wide(r), wide(c)}; }
  Value minsi(Value l, Value r) { return arith::MinSIOp::create(b, loc, l, r); }
  Value maxsi(Value l, Value r) { return arith::MaxSIOp::create(b, loc, l, r); }

  /// Binds the kernel's arguments (in, out, side operands, leading sizes, workgroup buffers).
  void bindArguments();
  // The kernel context (per thread), then the row context (per row a thread works on).
  void emitKernelContext();
  /// Makes `rowValue` the row that loads, the prologue and stores refer to; `active` (may be
  /// null) further gates it (a row of another block's range).
  void setRow(Value rowValue, Value active = Value());
  /// A padding mask's length at `indices` of `lengths`, clamped to [0, width].
  Value loadLength(Value lengths, ValueRange indices);
  Value rowIndex(int64_t dim) { return rowIdx[dim]; }
  /// Index into a side operand that broadcasts to the input (`toRow` false) or to the row shape.
  /// `column` lies in the row: every caller reads a column only below `limit` (at most the
  /// width), so it needs no clamp. `rowWide`: the operand's last dimension is the row's at run
  /// time too (a vector bias, isVectorBias, on the vector path): no broadcast test.
  SmallVector<Value> broadcastIndices(Value side, Value column, bool toRow,
                                      bool rowWide = false);
  /// Whether `memref`'s aligned pointer is a multiple of `elements` elements' bytes.
  Value isPointerAligned(Value memref, Type elementType, int64_t elements);
  /// Columns before the first vector boundary of this thread's row in `memref`.
  Value rowHead(Value memref, int64_t elements);
  /// Whether the vector layout applies: both row pointers aligned to a vector and every row of
  /// the output misaligned exactly like the same row of the input. Uniform over the grid.
  Value vectorsApply();
  /// Whether the fast variant applies (null when it cannot for this op's static shape): every
  /// input row starts on a vector boundary and is whole vectors, and the row count and width
  /// are below 2^30, so that row and column arithmetic fits i32 with room for a span past the
  /// row. With vectorsApply, the output rows are then aligned too. Uniform over the grid.
  Value fastApplies();
  /// Whether a thread's span is narrower than 256 bytes of input (see fastVariantPossible).
  bool isNarrowSpan() {
    int64_t inputBytes = op.getInput().getType().getElementTypeBitWidth() / 8;
    return lanes * vector * chunks * inputBytes < 256;
  }
  /// Whether the row count and width are below 2^30, so that row and column arithmetic fits
  /// i32 with room for a span past the row. Uniform over the grid.
  Value sizesFitI32();
  /// Sets `layout` for `vectorSize`-element accesses and `chunkCount` vectors a thread a span.
  void setLayout(int64_t vectorSize, int64_t chunkCount);

  // Per element.
  /// The prologue at `column`. The limiting masks (those whose removed lanes are never read,
  /// see emitKernelContext) are left out: callers read only columns before `limit`, or clip a
  /// vector that crosses it (prologueVector). `sideElement(step)`, when given, supplies a bias
  /// step's element already loaded (null: load it here). `sideColumn`, when given, is
  /// `column` as an index for side operands' loads (default: `column` widened).
  Value applyPrologue(Value value, Value column,
                      function_ref<Value(size_t step)> sideElement = nullptr,
                      Value sideColumn = Value());
  /// Whether prologue step `i` is a limiting mask, applied through `limit` instead.
  bool isLimitingStep(size_t i);
  /// A read vector's f32 values from `element(v)` (its storage values widened): the prologue,
  /// with bias operands loaded a vector at a time, and -inf at columns past `limit`, which only
  /// a vector crossing it (one a row at most) compares.
  Value prologueVector(Value column0, function_ref<Value(int64_t v)> element);
  /// Whether bias step `i`'s operand is read a vector at a time (its last dimension is the
  /// row's, not a broadcast); vectorsApply checks such operands are aligned like the input.
  bool isVectorBias(size_t i);
  /// The first column of this thread's chunk `c` of the span starting at `base` columns past
  /// the head.
  Value vectorColumn(Value base, int64_t c);
  /// The `vector` values (f32, prologue applied) at column0, or -inf when the vector lies at or
  /// past the read limit; vectors are read whole or not at all.
  SmallVector<Value> loadVector(Value column0);
  void storeVector(Value column0, ArrayRef<Value> values);
  /// The edge columns of this thread (head and tail columns, `edgeSlots` of each a lane), and
  /// whether each is one of the row's.
  SmallVector<std::pair<Value, Value>> edgeColumns();
  Value loadScalar(Value column, Value valid);
  void storeScalar(Value column, Value valid, Value value);

  // Across the lanes of a row.
  Value reduce(Value value, bool isMax, int64_t buffer);
  std::pair<Value, Value> reduceMaxSum(Value max, Value sum);
  /// Elastic lanes: the reduction slots of the warps that the launch's rows lack hold the
  /// identity (-inf for the max, 0 for the sum), written once before any reduction, so that
  /// the reductions combine the plan's slots as a fixed block does: no test a warp (15 live
  /// predicates and a dependent select a slot cost the 4096-column tier a fifth of its speed).
  void initElasticSlots();
  /// row_cluster: the row's (max, sum) from each block's (`sum` relative to the block's `max`),
  /// through distributed shared memory. Every thread of the cluster calls it once; it leaves
  /// the cluster barrier that lets blocks exit arrived (finishCluster waits on it).
  std::pair<Value, Value> clusterMaxSum(Value max, Value sum);
  /// row_cluster: the first arrival of the cluster barrier (see clusterMaxSum), before any row.
  void startCluster();
  /// row_cluster: waits until every block of the cluster has read the others' slots, so that
  /// none exits (freeing its shared memory) while another still reads it.
  void finishCluster();
  /// Whether chunk `c` (of the span at column 0 past the head) is read.
  Value isRead(int64_t c) {
    return cmpi(arith::CmpIPredicate::slt, vectorColumn(columnBase, c), layout.loadEnd);
  }
  SmallVector<Value> extractAll(Value vectorValue, int64_t size) {
    SmallVector<Value> out;
    for (int64_t v = 0; v < size; ++v)
      out.push_back(vector::ExtractOp::create(b, loc, vectorValue, v));
    return out;
  }

  /// The raw (storage type) contents of this thread's part of the row: its vectors, then its
  /// edge columns; zeros where nothing is read. Loads only, so that the next row's can be in
  /// flight while this one is computed.
  SmallVector<Value> loadRaw();
  /// The f32 values (prologue applied, -inf where nothing was read) of a row loaded by
  /// `loadRaw`: one list a vector, then one a edge column. `packed`: the vectors pass through
  /// opaqueWords first, so that each call converts them anew (holdsPackedRowValues).
  SmallVector<SmallVector<Value>> valuesFromRaw(ValueRange raw, bool packed = false);
  /// An edge column's f32 value from its raw one `x` (-inf where it is not the row's).
  Value edgeValue(std::pair<Value, Value> edge, Value x);
  /// holdsPackedRowValues: this thread's max from the raw row (loadRaw's), the vectors' maxima
  /// taken in their 16-bit type (max.NaN.bf16x2 / f16x2: two values an instruction, no
  /// conversion; exact, and NaN-propagating as the f32 max), -inf for vectors not read.
  Value packedMax(ValueRange raw);
  /// A register plan's row from its values: the reductions, the normalisation, the stores.
  /// With `packedRaw` (loadRaw's, holdsPackedRowValues; `values` empty) the row is held as
  /// loaded: its max is packedMax's, and its values are converted from it for the sum and
  /// again for the normalisation, whose exps are computed again.
  void emitRegisterPlan(SmallVector<SmallVector<Value>> values, ValueRange packedRaw = {});
  /// Calls `body` for each row group of this block: groups [bid * per, (bid + 1) * per) where
  /// per = ceil(groups / gridDim), a group being the `rows` rows a block holds at a time.
  void forEachRowGroup(function_ref<void(Value group)> body);
  Value rowOf(Value group) { return add(mul(group, index(rows)), rowInBlock); }
  /// The register plans: each row group's loads issued while the previous group is computed.
  void emitPipelinedRegisterPlan();
  /// Spans of `lanes * vector * chunks` columns with a running max and sum, then a second pass;
  /// `shared` keeps the row in dynamic shared memory between the passes. In a row_split kernel
  /// (splitPhase) the block takes the one span `splitBlock` of its row (and the row's edge
  /// columns when it is the first): the Partial phase stops after the first pass, handing its
  /// (max, sum) on, the Normalize phase reads the row's instead and runs the second.
  void emitChunkedPlan(bool shared);
  /// Spans of the vector columns [head, end) of this thread's row (`it`).
  Value spanCount(Value end);
  /// row_split: the first column of block `block`'s span, where its (max, sum) travel: two
  /// f32 words in the first vector of the span in the output row (the op's verifier checks
  /// that a vector holds 8 bytes of the output).
  Value splitSlotColumn(Value block) { return add(layout.head, mul(block, index(plan.getSpan()))); }
  /// row_split: a pointer to `column` of this thread's output row (splitSlotColumn's words).
  Value splitSlotPointer(Value column);
  void storeSplitSlot(Value column, Value max, Value sum);
  std::pair<Value, Value> loadSplitSlot(Value column);
  /// row_split's Combine phase: one block a row merges the (max, sum) of its blocks and writes
  /// the row's into every block's slot.
  void emitSplitCombine();

  int64_t clusterBlocks; ///< blocks a row is spread over (row_cluster), else 1
  std::optional<RowSplitPhase> splitPhase; ///< row_split: the kernel's phase
  /// row_split: this block's share of its row (`it`): the spans [splitBlock * splitSpans,
  /// (splitBlock + 1) * splitSpans) past the head (one span in the three-launch phases, a
  /// cluster's share in the Cluster phase).
  Value splitBlock, splitSpans;
  int64_t rank;
  Type it;              ///< the type of row and column arithmetic (i32 or index)
  /// The row width the kernel is built for: the op's (static or dynamic), or the plan's span
  /// in the Full variant.
  int64_t knownWidth;
  bool aligned = false; ///< every row starts on a vector boundary and is whole vectors
  /// The lanes of a row come from the launch (hasElasticLanes): `laneCount` is blockDim.x, a
  /// whole number of warps up to `lanes`, and a block's rows are its y threads.
  bool elastic = false;

  // Kernel arguments.
  Value in, out, smem;
  Value rowBuffer; ///< row_shared: the row's values in dynamic shared memory
  SmallVector<Value> side;
  SmallVector<Value> leadingSizes;
  SmallVector<Value> scalarFactors; ///< side scalars widened to f32 (null for tensors)

  // Row context.
  Value lane, rowInBlock, row, rowValid, rowCount, width, limit;
  Value laneCount; ///< the lanes of a row (`it`): the plan's, or the launch's when elastic
  /// The fewest lanes a row can have: the plan's, or a warp when elastic.
  int64_t fewestLanes() const { return elastic ? 32 : lanes; }
  /// The first column (past the head) of this block's part of the row: 0, or rank * span in a
  /// row_cluster block.
  Value columnBase;
  Value clusterRank;   ///< row_cluster: this block's rank in its cluster (`it`)
  Value exchange;      ///< row_cluster: the block's (max, sum) slots, read by the cluster
  Value widthIndex; ///< the row width as an index
  /// This block's row groups: groupBegin, groupBegin + groupStep, ... below groupEnd.
  Value blockId, groupBegin, groupEnd, groupStep;
  Value lastRow;
  /// Where a thread's accesses fall in its row, for the body being emitted.
  struct Layout {
    int64_t vector = 1, chunks = 1;
    int64_t edgeSlots = 0; ///< scalar columns a lane takes at each edge of the row
    Value head;            ///< columns [0, head) precede the first vector boundary
    Value mainEnd;         ///< whole vectors cover [head, mainEnd); [mainEnd, width) is the tail
    Value loadEnd;         ///< vectors at or past min(limit, mainEnd) are not read
  } layout;
  SmallVector<Value> rowIdx;
  DenseMap<int64_t, Value> maskRowValue; ///< prologue step -> its per-row length / diagonal
  DenseMap<int64_t, Value> uniformLength; ///< padding step -> the length all rows share
  /// bias step -> the one element its operand holds (size 1 in every dimension)
  DenseMap<int64_t, Value> uniformElement;
  bool skipRemoved = false;               ///< removed lanes are never read (see emitKernelContext)
  bool packedValues;                      ///< holdsPackedRowValues
  /// isPipelined and getStridedWalkWidth on the target (false and none without one).
  const bool pipelined;
  const std::optional<int64_t> stridedWalkWidth;
  std::optional<size_t> firstLimitingMask;
};

void KernelEmitter::emitKernelContext() {
  Value tid = narrow(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  if (elastic) {
    // Blocks of (laneCount, rows) threads: a warp lies within a row (laneCount is whole warps).
    laneCount = narrow(gpu::BlockDimOp::create(b, loc, gpu::Dimension::x));
    lane = tid;
    rowInBlock = narrow(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y));
  } else {
    laneCount = index(lanes);
    lane = arith::RemUIOp::create(b, loc, tid, index(lanes));
    rowInBlock = arith::DivUIOp::create(b, loc, tid, index(lanes));
  }
  rowCount = narrow(memref::DimOp::create(b, loc, in, 0));
  int64_t staticWidth = knownWidth;
  widthIndex = ShapedType::isDynamic(staticWidth) ? Value(memref::DimOp::create(b, loc, in, 1))
                                                  : idx(staticWidth);
  width = ShapedType::isDynamic(staticWidth) ? narrow(widthIndex) : index(staticWidth);
  // Side operands are indexed from a row clamped into the tensor, so that threads beyond the
  // last row (whose values are discarded) never read out of bounds. Columns need no clamp: a
  // column is read only below `limit`, which is at most the width. Clamping each column of a
  // vector (`min(c + v, width - 1)`) gave each of a boolean mask's byte loads its own 64-bit
  // address: 16 registers for a vector of 8, which a kernel at its block's register limit
  // spilled (generated seed 4937: 1024 threads, 64 registers).
  lastRow = arith::SubIOp::create(b, loc, rowCount, index(1));

  // Lanes that a padding or causal mask removes with -inf need not be read when nothing after
  // the first such mask can turn -inf into another value: only -inf masks, scales by a positive
  // constant and roundings follow. Then each row reads columns [0, limit) only.
  ArrayRef<Attribute> steps = op.getPrologue().getValue();
  firstLimitingMask.reset();
  for (auto [i, step] : llvm::enumerate(steps)) {
    auto mask = dyn_cast<MaskStepAttr>(step);
    if (mask && mask.getKind() != MaskKind::tensor && mask.getFill().isInfinity() &&
        mask.getFill().isNegative()) {
      firstLimitingMask = i;
      break;
    }
  }
  if (firstLimitingMask)
    skipRemoved =
        llvm::all_of(steps.drop_front(*firstLimitingMask),
                     [](Attribute step) { return FusedOp::stepKeepsNegInf(step); });

  // A side operand of one element (size 1 in every dimension: a padding length every row
  // shares, a bias of one value) is read once here rather than in the row
  // loop: a load there from an invariant address keeps that 64-bit address live across the
  // loop, two registers that the 16-bit register tiers at their occupancy budgets spilled
  // (generated seeds 6752, 10602 and 11221: a padding length; 4414: a bias of one element).
  // Not a boolean mask of one element: its bit read once took general kernels of dynamic widths
  // 4-12 registers more (ptxas; generated seeds 1362 and 2027). Nor a bias beside one vector of
  // 8 values a thread, whose kernels have the tightest budget (32 registers): the value held
  // across the loop spilled 4 bytes there, where ptxas fits the load in the loop (generated
  // seed 12114, an f16 bias of one element on f16 rows).
  uniformLength.clear();
  uniformElement.clear();
  for (auto [i, step] : llvm::enumerate(steps)) {
    auto mask = dyn_cast<MaskStepAttr>(step);
    auto bias = dyn_cast<BiasStepAttr>(step);
    bool padding = mask && mask.getKind() == MaskKind::padding;
    if (!padding && !(bias && plan.getVector() * plan.getChunks() > 8))
      continue;
    Value memref = side[padding ? mask.getOperand() : bias.getOperand()];
    auto type = cast<MemRefType>(memref.getType());
    if (!llvm::all_of(type.getShape(), [](int64_t d) { return d == 1; }))
      continue;
    SmallVector<Value> zeros(type.getRank(), idx(0));
    if (padding)
      uniformLength[i] = loadLength(memref, zeros);
    else
      uniformElement[i] = memref::LoadOp::create(b, loc, memref, zeros);
  }
}

Value KernelEmitter::loadLength(Value lengths, ValueRange indices) {
  Value length = memref::LoadOp::create(b, loc, lengths, indices);
  // Clamped to [0, width] (the same removals within the row), so that it fits `it`.
  if (length.getType() == it)
    return minsi(maxsi(length, index(0)), width);
  Value wideLength = arith::IndexCastOp::create(b, loc, b.getIndexType(), length);
  return narrow(arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, wideLength, this->idx(0)), widthIndex));
}

void KernelEmitter::setRow(Value rowValue, Value active) {
  row = rowValue;
  rowValid = cmpi(arith::CmpIPredicate::ult, row, rowCount);
  if (active)
    rowValid = andi(rowValid, active);
  Value safeRow = minsi(row, lastRow);
  rowIdx.assign(std::max<int64_t>(rank - 1, 0), Value());
  Value rest = safeRow;
  for (int64_t d = rank - 2; d >= 0; --d) {
    Value size = narrow(leadingSizes[d]);
    rowIdx[d] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }

  // Per-row state of the masks: a padding mask's length, a causal mask's last kept column.
  ArrayRef<Attribute> steps = op.getPrologue().getValue();
  for (auto [i, step] : llvm::enumerate(steps)) {
    auto mask = dyn_cast<MaskStepAttr>(step);
    if (!mask)
      continue;
    if (mask.getKind() == MaskKind::padding) {
      auto uniform = uniformLength.find(i);
      maskRowValue[i] = uniform != uniformLength.end()
                            ? uniform->second
                            : loadLength(side[mask.getOperand()],
                                         broadcastIndices(side[mask.getOperand()], Value(),
                                                          /*toRow=*/true));
    } else if (mask.getKind() == MaskKind::causal) {
      // Columns j > i + offset are removed: the last kept one is i + offset, clamped to
      // [-1, width] (the same removals within the row) so that it fits `it`.
      int64_t offset = mask.getOffset();
      if (!it.isIndex() && std::abs(offset) < (int64_t(1) << 30)) {
        // i < 2^30 in the fast variant: the sum fits i32.
        maskRowValue[i] =
            minsi(maxsi(add(rowIndex(rank - 2), index(offset)), index(-1)), width);
      } else {
        Value diagonal =
            arith::AddIOp::create(b, loc, wide(rowIndex(rank - 2)), this->idx(offset));
        maskRowValue[i] = narrow(arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, diagonal, this->idx(-1)), widthIndex));
      }
    }
  }

  limit = width;
  if (skipRemoved) {
    for (size_t i = *firstLimitingMask; i < steps.size(); ++i) {
      auto mask = dyn_cast<MaskStepAttr>(steps[i]);
      if (!mask || mask.getKind() == MaskKind::tensor)
        continue;
      Value kept = mask.getKind() == MaskKind::padding ? maskRowValue[i]
                                                       : add(maskRowValue[i], index(1));
      limit = minsi(limit, maxsi(kept, index(0)));
    }
  }
  limit = select(rowValid, limit, index(0));
  setLayout(layout.vector, layout.chunks);
}

Value KernelEmitter::isPointerAligned(Value memref, Type elementType, int64_t elements) {
  int64_t bytes = elements * elementType.getIntOrFloatBitWidth() / 8;
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, pointer, idx(bytes)),
              idx(0));
}

Value KernelEmitter::rowHead(Value memref, int64_t elements) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value start = add(meta.getOffset(), mul(wide(minsi(row, lastRow)), meta.getStrides()[0]));
  Value misalignment = arith::RemUIOp::create(b, loc, start, idx(elements));
  return narrow(arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, idx(elements), misalignment), idx(elements)));
}

Value KernelEmitter::vectorsApply() {
  Type inType = op.getInput().getType().getElementType();
  Type outType = op.getResult().getType().getElementType();
  // Row r of a memref starts `offset + r * stride` elements past its aligned pointer: the two
  // rows have the same misalignment for every r when offsets and strides agree modulo a vector.
  auto sameResidue = [&](Value l, Value r) {
    return cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, l, idx(vector)),
                arith::RemUIOp::create(b, loc, r, idx(vector)));
  };
  auto inMeta = memref::ExtractStridedMetadataOp::create(b, loc, in);
  auto outMeta = memref::ExtractStridedMetadataOp::create(b, loc, out);
  Value ok = andi(isPointerAligned(in, inType, vector), isPointerAligned(out, outType, vector));
  ok = andi(ok, sameResidue(inMeta.getOffset(), outMeta.getOffset()));
  ok = andi(ok, sameResidue(inMeta.getStrides()[0], outMeta.getStrides()[0]));
  // A bias along the row is read a vector at a time at the input's vector columns: its rows must
  // start on the same residue as every input row (the input's row stride and the bias's strides
  // multiples of a vector, the offsets equal modulo one) and its pointer be aligned. A dynamic
  // last dimension of 1 at run time broadcasts: that takes the scalar loop too.
  for (auto [i, step] : llvm::enumerate(op.getPrologue())) {
    if (!isVectorBias(i))
      continue;
    Value bias = side[cast<BiasStepAttr>(step).getOperand()];
    auto type = cast<MemRefType>(bias.getType());
    int64_t biasRank = type.getRank();
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, bias);
    int64_t bytes =
        std::min<int64_t>(16, vector * type.getElementType().getIntOrFloatBitWidth() / 8);
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bias);
    ok = andi(ok, cmpi(arith::CmpIPredicate::eq,
                       arith::RemUIOp::create(b, loc, pointer, idx(bytes)), idx(0)));
    ok = andi(ok, sameResidue(inMeta.getOffset(), meta.getOffset()));
    ok = andi(ok, sameResidue(inMeta.getStrides()[0], idx(0)));
    for (int64_t d = 0; d + 1 < biasRank; ++d)
      if (type.getDimSize(d) != 1)
        ok = andi(ok, sameResidue(meta.getStrides()[d], idx(0)));
    if (ShapedType::isDynamic(type.getShape().back()))
      ok = andi(ok, cmpi(arith::CmpIPredicate::ne, meta.getSizes().back(), idx(1)));
  }
  return ok;
}

bool KernelEmitter::fastVariantPossible() {
  if (vector == 1)
    return false;
  // Rows narrower than 256 bytes a span whose lanes hold several vectors each run slower in the
  // fast variant on the H200 (bf16 N = 32, one lane a row of 4 vectors: 0.69x copy against 0.81x
  // for the general variant; f32 N = 32, 4 lanes of 2: 0.97x against 1.00x): each load of a
  // warp touches many rows at a stride, and with so few instructions between them they bunch up
  // in the memory pipeline (ncu: lg_throttle and long-scoreboard stalls). One vector a lane
  // reads consecutive bytes across the warp, and keeps the fast variant (bf16 N = 32, 4 lanes
  // of one vector: 0.98x; bench/results/2026-12-01-h200/narrow16-d7f83a3.txt).
  if (isNarrowSpan() && chunks > 1)
    return false;
  int64_t staticWidth = op.getRowWidth();
  return ShapedType::isDynamic(staticWidth) ||
         (staticWidth % vector == 0 && staticWidth < kFastLimit);
}

Value KernelEmitter::fastApplies() {
  int64_t staticWidth = op.getRowWidth();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, in);
  auto isWhole = [&](Value v) {
    return cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, v, idx(vector)),
                idx(0));
  };
  auto below = [&](Value v) { return cmpi(arith::CmpIPredicate::ult, v, idx(kFastLimit)); };
  Value ok = andi(isWhole(meta.getOffset()), isWhole(meta.getStrides()[0]));
  ok = andi(ok, below(meta.getSizes()[0]));
  if (ShapedType::isDynamic(staticWidth))
    ok = andi(ok, andi(isWhole(meta.getSizes()[1]), below(meta.getSizes()[1])));
  return ok;
}

Value KernelEmitter::sizesFitI32() {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, in);
  auto below = [&](Value v) { return cmpi(arith::CmpIPredicate::ult, v, idx(kFastLimit)); };
  return andi(below(meta.getSizes()[0]), below(meta.getSizes()[1]));
}

Value KernelEmitter::fastCondition(ValueRange kernelOperands) {
  in = kernelOperands[0];
  out = kernelOperands[1];
  for (Value operand : kernelOperands.slice(2, op.getSideOperands().size()))
    side.push_back(operand);
  it = b.getIndexType();
  return andi(vectorsApply(), fastApplies());
}

void KernelEmitter::setLayout(int64_t vectorSize, int64_t chunkCount) {
  layout.vector = vectorSize;
  layout.chunks = chunkCount;
  if (vectorSize == 1 || aligned) {
    // One column a vector, or every row starts on a vector boundary and is whole vectors: no
    // edge columns.
    layout.edgeSlots = 0;
    layout.head = index(0);
    layout.mainEnd = width;
    layout.loadEnd = limit;
  } else {
    layout.edgeSlots = llvm::divideCeil(vectorSize - 1, fewestLanes());
    layout.head = minsi(rowHead(in, vectorSize), width);
    Value mainColumns = arith::SubIOp::create(b, loc, width, layout.head);
    Value wholeVectors = arith::DivUIOp::create(b, loc, mainColumns, index(vectorSize));
    layout.mainEnd = add(layout.head, mul(wholeVectors, index(vectorSize)));
    layout.loadEnd = minsi(limit, layout.mainEnd);
  }
}

Value KernelEmitter::vectorColumn(Value base, int64_t c) {
  Value first = elastic ? mul(index(c), laneCount) : index(c * lanes);
  return add(add(layout.head, base), mul(add(first, lane), index(layout.vector)));
}

SmallVector<std::pair<Value, Value>> KernelEmitter::edgeColumns() {
  SmallVector<std::pair<Value, Value>> columns;
  // A row_cluster row's edge columns are its first block's.
  Value mine = clusterRank ? cmpi(arith::CmpIPredicate::eq, clusterRank, index(0)) : Value();
  auto ours = [&](Value valid) { return mine ? andi(valid, mine) : valid; };
  for (int64_t s = 0; s < layout.edgeSlots; ++s) {
    Value offset = add(lane, elastic ? mul(index(s), laneCount) : index(s * lanes));
    columns.emplace_back(offset, ours(cmpi(arith::CmpIPredicate::ult, offset, layout.head)));
    Value tail = add(layout.mainEnd, offset);
    columns.emplace_back(tail, ours(cmpi(arith::CmpIPredicate::ult, tail, width)));
  }
  return columns;
}

Value KernelEmitter::loadScalar(Value column, Value valid) {
  return ifElse(
      andi(valid, cmpi(arith::CmpIPredicate::slt, column, limit)), f32,
      [&] {
        Value x = memref::LoadOp::create(b, loc, in, at(row, column));
        return applyPrologue(toF32(x), column);
      },
      [&] { return negInf(); });
}

void KernelEmitter::storeScalar(Value column, Value valid, Value value) {
  Value converted = fromF32(value, op.getResult().getType().getElementType());
  ifThen(andi(rowValid, valid), [&] {
    memref::StoreOp::create(b, loc, converted, out, at(row, column));
  });
}

SmallVector<Value> KernelEmitter::broadcastIndices(Value sideValue, Value column, bool toRow,
                                                   bool rowWide) {
  auto type = cast<MemRefType>(sideValue.getType());
  int64_t sideRank = type.getRank();
  int64_t targetRank = toRow ? rank - 1 : rank;
  SmallVector<Value> indices;
  for (int64_t j = 0; j < sideRank; ++j) {
    int64_t d = targetRank - sideRank + j;
    if (rowWide && j == sideRank - 1) {
      indices.push_back(wide(column));
      continue;
    }
    Value full = wide((!toRow && d == rank - 1) ? column : rowIndex(d));
    int64_t size = type.getDimSize(j);
    if (size == 1) {
      indices.push_back(idx(0));
    } else if (ShapedType::isDynamic(size)) {
      // A dynamic size of 1 broadcasts too.
      Value dim = memref::DimOp::create(b, loc, sideValue, j);
      indices.push_back(select(cmpi(arith::CmpIPredicate::eq, dim, idx(1)), idx(0), full));
    } else {
      indices.push_back(full);
    }
  }
  return indices;
}

bool KernelEmitter::isLimitingStep(size_t i) {
  if (!skipRemoved || i < *firstLimitingMask)
    return false;
  auto mask = dyn_cast<MaskStepAttr>(op.getPrologue().getValue()[i]);
  return mask && mask.getKind() != MaskKind::tensor;
}

bool KernelEmitter::isVectorBias(size_t i) {
  auto bias = dyn_cast<BiasStepAttr>(op.getPrologue().getValue()[i]);
  if (!bias)
    return false;
  auto type = cast<MemRefType>(side[bias.getOperand()].getType());
  return type.getShape().back() != 1;
}

Value KernelEmitter::applyPrologue(Value value, Value column,
                                   function_ref<Value(size_t step)> sideElement,
                                   Value sideColumn) {
  if (!sideColumn)
    sideColumn = wide(column);
  for (auto [i, step] : llvm::enumerate(op.getPrologue())) {
    if (isLimitingStep(i))
      continue;
    if (auto scale = dyn_cast<ScaleStepAttr>(step)) {
      value = arith::MulFOp::create(b, loc, value, f32Const(scale.getFactor().convertToDouble()));
    } else if (auto scaleBy = dyn_cast<ScaleByStepAttr>(step)) {
      value = arith::MulFOp::create(b, loc, value, scalarFactors[scaleBy.getOperand()]);
    } else if (auto bias = dyn_cast<BiasStepAttr>(step)) {
      Value element = sideElement ? sideElement(i) : Value();
      if (!element)
        element = uniformElement.lookup(i);
      if (!element) {
        Value memref = side[bias.getOperand()];
        element = memref::LoadOp::create(b, loc, memref,
                                         broadcastIndices(memref, sideColumn, /*toRow=*/false));
      }
      value = arith::AddFOp::create(b, loc, value, toF32(element));
    } else if (auto mask = dyn_cast<MaskStepAttr>(step)) {
      Value removed;
      switch (mask.getKind()) {
      case MaskKind::padding:
        removed = cmpi(arith::CmpIPredicate::sge, column, maskRowValue[i]);
        break;
      case MaskKind::causal:
        removed = cmpi(arith::CmpIPredicate::sgt, column, maskRowValue[i]);
        break;
      case MaskKind::tensor: {
        Value memref = side[mask.getOperand()];
        Value keep = memref::LoadOp::create(
            b, loc, memref, broadcastIndices(memref, sideColumn, /*toRow=*/false));
        removed = arith::XOrIOp::create(
            b, loc, keep, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        break;
      }
      }
      value = select(removed, f32Const(mask.getFill().convertToDouble()), value);
    } else if (auto round = dyn_cast<RoundStepAttr>(step)) {
      if (!round.getType().isF32())
        value = toF32(fromF32(value, round.getType()));
    }
  }
  return value;
}

Value KernelEmitter::prologueVector(Value column0, function_ref<Value(int64_t v)> element) {
  int64_t vector = layout.vector;
  // Bias operands along the row: one vector load each (vectorsApply checked their alignment);
  // a bias broadcast along the row: one scalar load for the whole vector.
  DenseMap<size_t, SmallVector<Value>> biasElements;
  for (auto [i, step] : llvm::enumerate(op.getPrologue())) {
    auto bias = dyn_cast<BiasStepAttr>(step);
    if (!bias)
      continue;
    if (Value element = uniformElement.lookup(i)) {
      biasElements[i].assign(vector, element);
      continue;
    }
    Value memref = side[bias.getOperand()];
    // A vector is read only when it lies in the row, and vectorsApply checked that a vector
    // bias's last dimension is the row's: its column needs no clamp and no broadcast test.
    SmallVector<Value> idx =
        broadcastIndices(memref, column0, /*toRow=*/false, /*rowWide=*/isVectorBias(i));
    if (!isVectorBias(i)) {
      biasElements[i].assign(vector, memref::LoadOp::create(b, loc, memref, idx));
      continue;
    }
    Type elementType = cast<MemRefType>(memref.getType()).getElementType();
    int64_t bytes = std::min<int64_t>(16, vector * elementType.getIntOrFloatBitWidth() / 8);
    Value loaded = vector::LoadOp::create(b, loc, VectorType::get({vector}, elementType), memref,
                                          idx, /*nontemporal=*/false, llvm::MaybeAlign(bytes));
    biasElements[i] = extractAll(loaded, vector);
  }
  // Side operands' elements of the vector at one 64-bit base and constant offsets: widened
  // column by column (zext(column0 + v)), LLVM kept a 64-bit address for each, 16 registers
  // for a boolean mask's 8 bytes, which kernels at a block's register limit spilled
  // (generated seeds 9252 and 9647: 1024 threads, 64 registers).
  Value sideColumn0 = wide(column0);
  auto build = [&](bool clip) {
    // The vector's columns before the limit, limit - column0 (1 to vector - 1 where it crosses
    // the limit), compared with each column's offset: compared as `column0 + v < limit`, the
    // columns of a Full kernel (the lane's alone) were hoisted out of its row loop by LLVM, the
    // 28 columns of a thread's 4 vectors of 8 live across it (generated seeds 2207, 6752 and
    // 10602 spilled 4 bytes at 80).
    Value kept = clip ? arith::SubIOp::create(b, loc, limit, column0).getResult() : Value();
    SmallVector<Value> elements;
    for (int64_t v = 0; v < vector; ++v) {
      Value column = add(column0, index(v));
      Value x = applyPrologue(
          element(v), column,
          [&](size_t step) -> Value {
            auto it = biasElements.find(step);
            return it == biasElements.end() ? Value() : it->second[v];
          },
          add(sideColumn0, idx(v)));
      if (clip)
        x = select(cmpi(arith::CmpIPredicate::sgt, kept, index(v)), x, negInf());
      elements.push_back(x);
    }
    return packF32(elements);
  };
  if (!skipRemoved)
    return build(/*clip=*/false);
  // A masked row reads columns [0, limit): every vector wholly before the limit skips the
  // masks' per-column compares.
  return ifElse(
      cmpi(arith::CmpIPredicate::sle, add(column0, index(vector)), limit),
      VectorType::get({vector}, f32), [&] { return build(/*clip=*/false); },
      [&] { return build(/*clip=*/true); });
}

SmallVector<Value> KernelEmitter::loadVector(Value column0) {
  // One test a vector: it lies before the read limit (and so, on the vector grid, wholly inside
  // the row) or it is not read.
  int64_t vector = layout.vector;
  Type elementType = op.getInput().getType().getElementType();
  auto valuesType = VectorType::get({vector}, f32);
  Value values = ifElse(
      cmpi(arith::CmpIPredicate::slt, column0, layout.loadEnd), valuesType,
      [&] {
        if (vector == 1) {
          Value x = memref::LoadOp::create(b, loc, in, at(row, column0));
          return packF32({applyPrologue(toF32(x), column0)});
        }
        int64_t bytes = vector * elementType.getIntOrFloatBitWidth() / 8;
        Value loaded = vector::LoadOp::create(b, loc, VectorType::get({vector}, elementType), in,
                                              at(row, column0),
                                              /*nontemporal=*/false, llvm::MaybeAlign(bytes));
        return prologueVector(column0, [&](int64_t v) {
          return toF32(vector::ExtractOp::create(b, loc, loaded, v));
        });
      },
      [&] { return vector::BroadcastOp::create(b, loc, valuesType, negInf()).getResult(); });
  return extractAll(values, vector);
}

void KernelEmitter::storeVector(Value column0, ArrayRef<Value> values) {
  int64_t vector = layout.vector;
  Type elementType = op.getResult().getType().getElementType();
  // Aligned rows of an unpipelined plan: one compare with the row's end, 0 in an invalid row.
  // It depends on the row, so LLVM does not hoist a predicate a chunk out of the row loop,
  // where they stay live across it: ptxas gave the dynamic f32 kernels 5-15 fewer registers
  // (the bias chain's 4096-column tier 32 against 38: two more blocks a multiprocessor). The
  // pipelined plans keep the test a chunk, which folds away where the width is the span (the
  // row-dependent compare cost their static kernels the occupancy budget), and the general
  // kernels' mainEnd depends on the row anyway.
  Value inRow =
      aligned && !pipelined
          ? cmpi(arith::CmpIPredicate::slt, column0, select(rowValid, layout.mainEnd, index(0)))
          : andi(rowValid, cmpi(arith::CmpIPredicate::slt, column0, layout.mainEnd));
  if (vector == 1) {
    Value converted = fromF32(values.front(), elementType);
    ifThen(inRow, [&] {
      memref::StoreOp::create(b, loc, converted, out, at(row, column0));
    });
    return;
  }
  // Convert as one vector: the back end then packs pairs (cvt.rn.bf16x2.f32 / f16x2).
  Value wide = vector::FromElementsOp::create(b, loc, VectorType::get({vector}, f32), values);
  auto vectorType = VectorType::get({vector}, elementType);
  Value packed = elementType.isF32() ? wide
                                     : Value(arith::TruncFOp::create(b, loc, vectorType, wide));
  int64_t bytes = vector * elementType.getIntOrFloatBitWidth() / 8;
  ifThen(inRow, [&] {
    vector::StoreOp::create(b, loc, packed, out, at(row, column0), /*nontemporal=*/false,
                            llvm::MaybeAlign(bytes));
  });
}

Value KernelEmitter::reduce(Value value, bool isMax, int64_t buffer) {
  // Within a warp: butterfly shuffles over the lanes of the row. The width stays 32: a smaller
  // width is not CUDA's segment (see MLIR22-NOTES.md); offsets below `lanes` keep rows apart.
  int64_t inWarp = std::min<int64_t>(lanes, 32);
  for (int64_t offset = inWarp / 2; offset >= 1; offset /= 2) {
    Value other = gpu::ShuffleOp::create(b, loc, value, i32Const(offset), i32Const(32),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine(value, other, isMax);
  }
  if (lanes <= 32)
    return value;
  // Across the warps of a row, through shared memory (slots for the plan's warps a row; those
  // of the warps an elastic row lacks hold the identity: initElasticSlots).
  int64_t warps = lanes / 32;
  Value warp = arith::DivUIOp::create(b, loc, lane, index(32));
  Value first = mul(rowInBlock, index(warps));
  Value base = add(index(buffer * rows * warps), first);
  ifThen(cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, lane, index(32)), index(0)),
         [&] { memref::StoreOp::create(b, loc, value, smem, ValueRange{wide(add(base, warp))}); });
  gpu::BarrierOp::create(b, loc);
  Value result = memref::LoadOp::create(b, loc, smem, ValueRange{wide(base)});
  for (int64_t w = 1; w < warps; ++w)
    result = combine(result, memref::LoadOp::create(b, loc, smem, ValueRange{wide(add(base, index(w)))}),
                     isMax);
  return result;
}

void KernelEmitter::initElasticSlots() {
  int64_t warps = lanes / 32;
  if (!elastic || !smem || warps < 2)
    return;
  // Lane w of each row's first warp writes slot w of both buffers when the row has no warp w.
  Value present = arith::DivUIOp::create(b, loc, laneCount, index(32));
  Value absent = andi(cmpi(arith::CmpIPredicate::uge, lane, present),
                      cmpi(arith::CmpIPredicate::ult, lane, index(warps)));
  ifThen(absent, [&] {
    Value slot = add(mul(rowInBlock, index(warps)), lane);
    memref::StoreOp::create(b, loc, negInf(), smem, ValueRange{wide(slot)});
    memref::StoreOp::create(b, loc, f32Const(0.0), smem,
                            ValueRange{wide(add(index(rows * warps), slot))});
  });
}

std::pair<Value, Value> KernelEmitter::clusterMaxSum(Value max, Value sum) {
  // Thread 0 of each block publishes the block's pair in its own shared memory; after the
  // cluster barrier (arrive has release, wait acquire semantics) every thread reads the pairs of
  // all the blocks through `mapa` (the same slot in another block's shared memory) and merges
  // them in rank order, so every block computes the same row statistics. The barrier phases
  // alternate arrive, wait, arrive, ... for every thread: the kernel arrives once at its start
  // (startCluster), each exchange first waits on the previous arrival (every block started,
  // which remote shared memory needs, and done reading the slots of any earlier row), and after
  // reading arrives again, so that the matching wait (the kernel's last, finishCluster) overlaps
  // the stores.
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, idx(0)), [&] {
    memref::StoreOp::create(b, loc, max, exchange, ValueRange{idx(0)});
    memref::StoreOp::create(b, loc, sum, exchange, ValueRange{idx(1)});
  });
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), memref::ExtractAlignedPointerAsIndexOp::create(b, loc, exchange));
  Value slots = LLVM::IntToPtrOp::create(b, loc, sharedPtr, address);
  SmallVector<std::pair<Value, Value>> pairs;
  for (int64_t r = 0; r < clusterBlocks; ++r) {
    Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, slots, i32Const(r));
    Value remoteSum = LLVM::GEPOp::create(b, loc, clusterPtr, f32, remote,
                                          ArrayRef<LLVM::GEPArg>{1});
    pairs.emplace_back(LLVM::LoadOp::create(b, loc, f32, remote, /*alignment=*/8),
                       LLVM::LoadOp::create(b, loc, f32, remoteSum, /*alignment=*/4));
  }
  // Done reading: arrive now, wait at the end of the kernel (finishCluster), so that the
  // barrier's latency hides behind the stores.
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  while (pairs.size() > 1) {
    SmallVector<std::pair<Value, Value>> next;
    for (size_t i = 0; i + 1 < pairs.size(); i += 2)
      next.push_back(mergeMaxSum(pairs[i].first, pairs[i].second, pairs[i + 1].first,
                                 pairs[i + 1].second));
    if (pairs.size() % 2)
      next.push_back(pairs.back());
    pairs = std::move(next);
  }
  return pairs.front();
}

void KernelEmitter::startCluster() { NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr()); }

void KernelEmitter::finishCluster() { NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr()); }

std::pair<Value, Value> KernelEmitter::reduceMaxSum(Value max, Value sum) {
  auto merge = [&](Value ma, Value sa, Value mb, Value sb) {
    return mergeMaxSum(ma, sa, mb, sb);
  };
  int64_t inWarp = std::min<int64_t>(lanes, 32);
  for (int64_t offset = inWarp / 2; offset >= 1; offset /= 2) {
    auto shuffle = [&](Value v) {
      return gpu::ShuffleOp::create(b, loc, v, i32Const(offset), i32Const(32),
                                    gpu::ShuffleMode::XOR)
          .getShuffleResult();
    };
    std::tie(max, sum) = merge(max, sum, shuffle(max), shuffle(sum));
  }
  if (lanes <= 32)
    return {max, sum};
  // As in reduce.
  int64_t warps = lanes / 32;
  Value warp = arith::DivUIOp::create(b, loc, lane, index(32));
  Value maxBase = mul(rowInBlock, index(warps));
  Value sumBase = add(index(rows * warps), maxBase);
  ifThen(cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, lane, index(32)), index(0)),
         [&] {
           memref::StoreOp::create(b, loc, max, smem, ValueRange{wide(add(maxBase, warp))});
           memref::StoreOp::create(b, loc, sum, smem, ValueRange{wide(add(sumBase, warp))});
         });
  gpu::BarrierOp::create(b, loc);
  max = memref::LoadOp::create(b, loc, smem, ValueRange{wide(maxBase)});
  sum = memref::LoadOp::create(b, loc, smem, ValueRange{wide(sumBase)});
  for (int64_t w = 1; w < warps; ++w) {
    Value m = memref::LoadOp::create(b, loc, smem, ValueRange{wide(add(maxBase, index(w)))});
    Value s = memref::LoadOp::create(b, loc, smem, ValueRange{wide(add(sumBase, index(w)))});
    std::tie(max, sum) = merge(max, sum, m, s);
  }
  return {max, sum};
}

SmallVector<Value> KernelEmitter::loadRaw() {
  Type elementType = op.getInput().getType().getElementType();
  int64_t vector = layout.vector;
  auto rawType = VectorType::get({vector}, elementType);
  int64_t bytes = vector * elementType.getIntOrFloatBitWidth() / 8;
  SmallVector<Value> raw;
  for (int64_t c = 0; c < layout.chunks; ++c) {
    Value column0 = vectorColumn(columnBase, c);
    raw.push_back(ifElse(
        cmpi(arith::CmpIPredicate::slt, column0, layout.loadEnd), rawType,
        [&] {
          return vector::LoadOp::create(b, loc, rawType, in, at(row, column0),
                                        /*nontemporal=*/false, llvm::MaybeAlign(bytes))
              .getResult();
        },
        [&] {
          return arith::ConstantOp::create(b, loc, rawType, b.getZeroAttr(rawType)).getResult();
        }));
  }
  for (auto [column, valid] : edgeColumns())
    raw.push_back(ifElse(
        andi(valid, cmpi(arith::CmpIPredicate::slt, column, limit)), elementType,
        [&] { return memref::LoadOp::create(b, loc, in, at(row, column)).getResult(); },
        [&] {
          return arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0.0)).getResult();
        }));
  return raw;
}

SmallVector<SmallVector<Value>> KernelEmitter::valuesFromRaw(ValueRange raw, bool packed) {
  int64_t vector = layout.vector;
  auto valuesType = VectorType::get({vector}, f32);
  SmallVector<SmallVector<Value>> values;
  for (int64_t c = 0; c < layout.chunks; ++c) {
    Value column0 = vectorColumn(columnBase, c);
    Value loaded = packed ? opaqueWords(raw[c]) : raw[c];
    Value converted = ifElse(
        cmpi(arith::CmpIPredicate::slt, column0, layout.loadEnd), valuesType,
        [&] {
          return prologueVector(column0, [&](int64_t v) {
            return toF32(vector::ExtractOp::create(b, loc, loaded, v));
          });
        },
        [&] { return vector::BroadcastOp::create(b, loc, valuesType, negInf()).getResult(); });
    values.emplace_back();
    for (int64_t v = 0; v < vector; ++v)
      values.back().push_back(vector::ExtractOp::create(b, loc, converted, v));
  }
  for (auto [i, edge] : llvm::enumerate(edgeColumns()))
    values.push_back({edgeValue(edge, raw[layout.chunks + i])});
  return values;
}

Value KernelEmitter::edgeValue(std::pair<Value, Value> edge, Value x) {
  auto [column, valid] = edge;
  return ifElse(
      andi(valid, cmpi(arith::CmpIPredicate::slt, column, limit)), f32,
      [&] { return applyPrologue(toF32(x), column); }, [&] { return negInf(); });
}

Value KernelEmitter::packedMax(ValueRange raw) {
  Value lowest = negInfOf(raw.front().getType());
  SmallVector<Value> chunkVectors;
  for (int64_t c = 0; c < layout.chunks; ++c)
    chunkVectors.push_back(select(isRead(c), raw[c], lowest));
  SmallVector<Value> terms;
  for (Value v : extractAll(combineAll(chunkVectors, /*isMax=*/true), layout.vector))
    terms.push_back(toF32(v));
  for (auto [i, edge] : llvm::enumerate(edgeColumns()))
    terms.push_back(edgeValue(edge, raw[layout.chunks + i]));
  return combineAll(terms, /*isMax=*/true);
}

void KernelEmitter::forEachRowGroup(function_ref<void(Value group)> body) {
  // A kernel that is not pipelined gets one group a block (buildBlockCount): no loop to carry.
  if (!pipelined)
    return body(blockId);
  auto loop = scf::ForOp::create(b, loc, groupBegin, groupEnd, groupStep);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
  // The reductions' shared slots are written again by the next group: wait for every read.
  if (lanes > 32)
    gpu::BarrierOp::create(b, loc);
}

void KernelEmitter::emitPipelinedRegisterPlan() {
  // Software pipelining across the block's row groups: the loads of group g + 1 are issued
  // before group g is reduced and normalised, so every warp keeps bytes in flight while it
  // computes (for 16-bit types, where the arithmetic per byte doubles, the difference between
  // ~0.75x and ~copy speed). Raw values cross the iteration: half the registers for 16-bit types.
  setRow(rowOf(groupBegin), cmpi(arith::CmpIPredicate::ult, groupBegin, groupEnd));
  SmallVector<Value> first = loadRaw();
  auto loop = scf::ForOp::create(b, loc, groupBegin, groupEnd, groupStep, first);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value group = loop.getInductionVar();
  Value next = add(group, groupStep);
  setRow(rowOf(next), cmpi(arith::CmpIPredicate::ult, next, groupEnd));
  SmallVector<Value> prefetched = loadRaw();
  setRow(rowOf(group));
  ValueRange raw = loop.getRegionIterArgs();
  if (packedValues)
    emitRegisterPlan({}, raw);
  else
    emitRegisterPlan(valuesFromRaw(raw));
  scf::YieldOp::create(b, loc, prefetched);
}

void KernelEmitter::emitRegisterPlan(SmallVector<SmallVector<Value>> values,
                                     ValueRange packedRaw) {
  assert((packedRaw.empty() || !skipRemoved) && "masked rows are not held packed");
  // Held packed, the values are converted again at each use.
  auto convertAgain = [&] {
    if (!packedRaw.empty())
      values = valuesFromRaw(packedRaw, /*packed=*/true);
  };
  SmallVector<std::pair<Value, Value>> edges = edgeColumns();
  Normalization normalization = op.getNormalization();
  assert((packedRaw.empty() || normalization == Normalization::softmax) &&
         "only softmax rows are held packed");
  SmallVector<SmallVector<Value>> results = values;
  int64_t vector = layout.vector;
  auto vectorType = VectorType::get({vector}, f32);
  // In a masked row (skipRemoved), chunks past the read limit hold -inf: their exps are 0 and
  // their results one value for the whole row, so each chunk's arithmetic sits behind its read
  // test (uniform over a vector; a causal row skips about half its work).
  bool skipUnread = skipRemoved;
  if (normalization != Normalization::none) {
    SmallVector<Value> maxTerms;
    if (!packedRaw.empty()) {
      maxTerms.push_back(packedMax(packedRaw));
    } else {
      for (int64_t c = 0; c < layout.chunks; ++c) {
        if (skipUnread)
          maxTerms.push_back(ifElse(
              isRead(c), f32, [&] { return combineAll(values[c], /*isMax=*/true); },
              [&] { return negInf(); }));
        else
          llvm::append_range(maxTerms, values[c]);
      }
      for (size_t i = layout.chunks; i < values.size(); ++i)
        llvm::append_range(maxTerms, values[i]);
    }
    Value max = reduce(combineAll(maxTerms, /*isMax=*/true), /*isMax=*/true, /*buffer=*/0);
    Value maxSafe = safeMax(max);
    convertAgain();
    SmallVector<SmallVector<Value>> exps;
    SmallVector<Value> sumTerms;
    for (auto [c, chunk] : llvm::enumerate(values)) {
      auto expsOf = [&, &chunk = chunk] {
        SmallVector<Value> e;
        for (Value v : chunk)
          e.push_back(emitExpShifted(b, loc, v, maxSafe));
        return e;
      };
      if (skipUnread && static_cast<int64_t>(c) < layout.chunks) {
        SmallVector<Value> r = ifElseValues(
            isRead(c), TypeRange{vectorType, f32},
            [&] {
              SmallVector<Value> e = expsOf();
              return SmallVector<Value>{packF32(e), combineAll(e, /*isMax=*/false)};
            },
            [&] {
              Value zeros = arith::ConstantOp::create(b, loc, vectorType,
                                                      b.getZeroAttr(vectorType));
              return SmallVector<Value>{zeros, f32Const(0.0)};
            });
        exps.push_back(extractAll(r[0], vector));
        sumTerms.push_back(r[1]);
      } else {
        exps.push_back(expsOf());
        llvm::append_range(sumTerms, exps.back());
      }
    }
    Value sum = reduce(combineAll(sumTerms, /*isMax=*/false), /*isMax=*/false, /*buffer=*/1);
    NormalizationStats stats = emitNormalizationStats(b, loc, op, max, sum);
    if (clusterBlocks > 1) {
      // This block's exps are relative to its own max: scale them by e^(max - rowMax) (0 for a
      // block of -inf, whatever the row's max) and normalise with the row's statistics.
      auto [rowMax, rowSum] = clusterMaxSum(max, sum);
      NormalizationStats row = emitNormalizationStats(b, loc, op, rowMax, rowSum);
      if (normalization == Normalization::softmax) {
        Value blockMasked = isNegInf(max);
        Value scale =
            select(blockMasked, f32Const(0.0), emitExpShifted(b, loc, max, row.maxSafe));
        row.invSum = arith::MulFOp::create(b, loc, row.invSum, scale);
      }
      stats = row;
    }
    Value unreadResult =
        skipUnread ? emitNormalize(b, loc, op, negInf(), f32Const(0.0), stats) : Value();
    if (!packedRaw.empty()) {
      convertAgain();
      results = values;
      for (auto [c, chunk] : llvm::enumerate(values))
        for (auto [v, value] : llvm::enumerate(chunk))
          exps[c][v] = emitExpShifted(b, loc, value, maxSafe);
    }
    for (auto [c, chunk] : llvm::enumerate(values)) {
      auto normalizeChunk = [&, c = c, &chunk = chunk] {
        SmallVector<Value> r;
        for (auto [v, value] : llvm::enumerate(chunk))
          r.push_back(emitNormalize(b, loc, op, value, exps[c][v], stats));
        return r;
      };
      if (skipUnread && static_cast<int64_t>(c) < layout.chunks)
        results[c] = extractAll(
            ifElse(
                isRead(c), vectorType, [&] { return packF32(normalizeChunk()); },
                [&] {
                  return vector::BroadcastOp::create(b, loc, vectorType, unreadResult)
                      .getResult();
                }),
            vector);
      else
        results[c] = normalizeChunk();
    }
  }
  for (int64_t c = 0; c < layout.chunks; ++c)
    storeVector(vectorColumn(columnBase, c), results[c]);
  for (auto [i, edge] : llvm::enumerate(edges))
    storeScalar(edge.first, edge.second, results[layout.chunks + i].front());
}

void KernelEmitter::emitChunkedPlan(bool shared) {
  // With `shared` (row_shared), pass 1 also keeps the row's values (after the prologue, as f32)
  // in dynamic shared memory, and pass 2 reads them back from there instead of from global
  // memory. Each thread reads back exactly the vectors it wrote, so no barrier is needed
  // between the passes. The buffer holds the row's vector columns: column `head + i` at i.
  int64_t vector = layout.vector;
  auto vectorType = VectorType::get({vector}, f32);
  auto keepInShared = [&](Value column0, ArrayRef<Value> values) {
    ifThen(cmpi(arith::CmpIPredicate::slt, column0, layout.mainEnd), [&] {
      Value packed = vector::FromElementsOp::create(b, loc, vectorType, values);
      vector::StoreOp::create(b, loc, packed, rowBuffer,
                              ValueRange{wide(arith::SubIOp::create(b, loc, column0, layout.head))},
                              /*nontemporal=*/false, llvm::MaybeAlign(vector * 4));
    });
  };
  auto readFromShared = [&](Value column0) {
    // Pass 1 visits the spans before the read limit only: vectors at or past it hold nothing.
    Value packed = ifElse(
        cmpi(arith::CmpIPredicate::slt, column0, layout.loadEnd), vectorType,
        [&] {
          return vector::LoadOp::create(
                     b, loc, vectorType, rowBuffer,
                     ValueRange{wide(arith::SubIOp::create(b, loc, column0, layout.head))},
                     /*nontemporal=*/false, llvm::MaybeAlign(vector * 4))
              .getResult();
        },
        [&] { return vector::BroadcastOp::create(b, loc, vectorType, negInf()).getResult(); });
    SmallVector<Value> values;
    for (int64_t v = 0; v < vector; ++v)
      values.push_back(vector::ExtractOp::create(b, loc, packed, v));
    return values;
  };

  Value spanValue = elastic ? mul(laneCount, index(vector * layout.chunks))
                            : index(lanes * vector * layout.chunks);
  auto spans = [&](Value end) { return spanCount(end); }; // the same span as spanValue
  // The spans of [head, end) this block takes: all of them, or a row_split block's own.
  auto spanRange = [&](Value end) -> std::pair<Value, Value> {
    Value count = spans(end);
    if (!splitBlock)
      return {index(0), count};
    Value first = mul(splitBlock, splitSpans);
    return {minsi(first, count), minsi(add(first, splitSpans), count)};
  };
  SmallVector<std::pair<Value, Value>> edges = edgeColumns();
  if (splitBlock) {
    // A row's edge columns are its first block's.
    Value first = cmpi(arith::CmpIPredicate::eq, splitBlock, index(0));
    for (auto &edge : edges)
      edge.second = andi(edge.second, first);
  }
  SmallVector<Value> edgeValues;
  for (auto [column, valid] : edges)
    edgeValues.push_back(loadScalar(column, valid));

  Normalization normalization = op.getNormalization();
  NormalizationStats stats;
  if (normalization != Normalization::none && splitPhase != RowSplitPhase::Normalize) {
    // Pass 1: a running max and sum over the spans that hold readable columns, starting from
    // the edge columns (max over them, sum of exp(e - max): 0 for -inf, NaN for NaN).
    Value max0 = negInf(), sum0 = f32Const(0.0);
    for (Value e : edgeValues)
      max0 = combine(max0, e, /*isMax=*/true);
    for (Value e : edgeValues)
      sum0 = combine(sum0, emitExpShifted(b, loc, e, safeMax(max0)), /*isMax=*/false);
    auto [first, last] = spanRange(layout.loadEnd);
    auto loop = scf::ForOp::create(b, loc, first, last, index(1), ValueRange{max0, sum0});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value base = mul(loop.getInductionVar(), spanValue);
      Value max = loop.getRegionIterArgs()[0];
      Value sum = loop.getRegionIterArgs()[1];
      SmallVector<Value> values;
      for (int64_t c = 0; c < layout.chunks; ++c) {
        SmallVector<Value> chunk = loadVector(vectorColumn(base, c));
        if (shared)
          keepInShared(vectorColumn(base, c), chunk);
        llvm::append_range(values, chunk);
      }
      Value newMax = combine(max, combineAll(values, /*isMax=*/true), /*isMax=*/true);
      Value safe = safeMax(newMax);
      // Rescale the running sum to the new max: sum * 2^((max - newMax) log2 e).
      SmallVector<Value> terms{
          arith::MulFOp::create(b, loc, sum, emitExpShifted(b, loc, max, safe))};
      for (Value v : values)
        terms.push_back(emitExpShifted(b, loc, v, safe));
      Value newSum = combineAll(terms, /*isMax=*/false);
      scf::YieldOp::create(b, loc, ValueRange{newMax, newSum});
    }
    Value max, sum;
    std::tie(max, sum) = reduceMaxSum(loop.getResult(0), loop.getResult(1));
    // The Cluster phase: the row's (max, sum) from the blocks', through distributed shared
    // memory (each block's sum is relative to its own max, as clusterMaxSum merges them).
    if (splitPhase == RowSplitPhase::Cluster)
      std::tie(max, sum) = clusterMaxSum(max, sum);
    if (splitPhase == RowSplitPhase::Partial) {
      // Thread 0 hands the block's (max, sum) on through the first vector of its span, which
      // the row's Combine block reads and overwrites, then this block's Normalize twin.
      Value owns = cmpi(arith::CmpIPredicate::slt, splitBlock, spans(layout.mainEnd));
      ifThen(andi(owns, cmpi(arith::CmpIPredicate::eq, lane, index(0))),
             [&] { storeSplitSlot(splitSlotColumn(splitBlock), max, sum); });
      return;
    }
    stats = emitNormalizationStats(b, loc, op, max, sum);
  } else if (splitPhase == RowSplitPhase::Normalize) {
    // The row's (max, sum), which the Combine phase left in this block's slot. A block past
    // the row's spans (a row one span shorter than the widest, its head taking columns) has
    // nothing to write.
    Value owns = cmpi(arith::CmpIPredicate::slt, splitBlock, spans(layout.mainEnd));
    SmallVector<Value> rowStats = ifElseValues(
        owns, TypeRange{f32, f32},
        [&] {
          auto [max, sum] = loadSplitSlot(splitSlotColumn(splitBlock));
          return SmallVector<Value>{max, sum};
        },
        [&] { return SmallVector<Value>{negInf(), f32Const(0.0)}; });
    // Every thread has read them before any overwrites the words they are in.
    gpu::BarrierOp::create(b, loc); // the slot's words read
    stats = emitNormalizationStats(b, loc, op, rowStats[0], rowStats[1]);
  }
  // Pass 2: every column of the row, normalised and stored.
  for (auto [edge, value] : llvm::zip(edges, edgeValues))
    storeScalar(edge.first, edge.second,
                normalization != Normalization::none
                    ? emitNormalize(b, loc, op, value, Value(), stats)
                    : value);
  auto [first, last] = spanRange(layout.mainEnd);
  auto loop = scf::ForOp::create(b, loc, first, last, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value base = mul(loop.getInductionVar(), spanValue);
  for (int64_t c = 0; c < layout.chunks; ++c) {
    Value column0 = vectorColumn(base, c);
    SmallVector<Value> values = shared && normalization != Normalization::none
                                    ? readFromShared(column0)
                                    : loadVector(column0);
    if (normalization != Normalization::none)
      for (Value &v : values)
        v = emitNormalize(b, loc, op, v, Value(), stats);
    storeVector(column0, values);
  }
}

void KernelEmitter::bindArguments() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  unsigned numSide = op.getSideOperands().size();
  in = entry.getArgument(0);
  out = entry.getArgument(1);
  for (unsigned i = 0; i < numSide; ++i) {
    Value arg = entry.getArgument(2 + i);
    side.push_back(arg);
    scalarFactors.push_back(isa<FloatType>(arg.getType()) ? toF32(arg) : Value());
  }
  // A static leading size is a constant rather than its kernel argument: a row's index in a
  // dimension (setRow: for a broadcast side operand, a causal mask's row) is then a shift or a
  // multiply where it was a 64-bit division by a value held across the row loop (generated seed
  // 11866: a padding length of 8x1 over 1x8x16x?, a multi_row tier spilled 16-20 bytes).
  auto inputType = cast<ShapedType>(op.getInput().getType());
  for (int64_t d = 0; d + 1 < rank; ++d)
    leadingSizes.push_back(inputType.isDynamicDim(d)
                               ? Value(entry.getArgument(2 + numSide + d))
                               : idx(inputType.getDimSize(d)));
  // Workgroup buffers (buildRowKernel): the cross-warp reduction slots, then row_cluster's
  // exchange slots.
  ArrayRef<BlockArgument> buffers = func.getWorkgroupAttributions();
  if (clusterBlocks > 1 && op.getNormalization() != Normalization::none) {
    exchange = buffers.back();
    buffers = buffers.drop_back();
  }
  if (!buffers.empty())
    smem = buffers.front();
}

Value KernelEmitter::spanCount(Value end) {
  Value spanValue = elastic ? mul(laneCount, index(layout.vector * layout.chunks))
                            : index(lanes * layout.vector * layout.chunks);
  Value main = maxsi(arith::SubIOp::create(b, loc, end, layout.head), index(0));
  return arith::CeilDivUIOp::create(b, loc, main, spanValue);
}

Value KernelEmitter::splitSlotPointer(Value column) {
  // A generic pointer to the output element at `column` of this thread's row: the slot's two
  // f32 words are read and written as such whatever the output's element type (the column is
  // on a vector boundary, so 8-byte aligned).
  int64_t bytes = op.getResult().getType().getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, out);
  Value element = add(meta.getOffset(), add(mul(wide(row), meta.getStrides()[0]), wide(column)));
  Value address = add(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, out),
                      mul(element, idx(bytes)));
  Value integer = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer);
}

void KernelEmitter::storeSplitSlot(Value column, Value max, Value sum) {
  Value pointer = splitSlotPointer(column);
  Value second = LLVM::GEPOp::create(b, loc, pointer.getType(), f32, pointer,
                                     ArrayRef<LLVM::GEPArg>{1});
  LLVM::StoreOp::create(b, loc, max, pointer, /*alignment=*/8);
  LLVM::StoreOp::create(b, loc, sum, second, /*alignment=*/4);
}

std::pair<Value, Value> KernelEmitter::loadSplitSlot(Value column) {
  Value pointer = splitSlotPointer(column);
  Value second = LLVM::GEPOp::create(b, loc, pointer.getType(), f32, pointer,
                                     ArrayRef<LLVM::GEPArg>{1});
  return {LLVM::LoadOp::create(b, loc, f32, pointer, /*alignment=*/8),
          LLVM::LoadOp::create(b, loc, f32, second, /*alignment=*/4)};
}

void KernelEmitter::emitSplitCombine() {
  // Lane l merges the slots l, l + lanes, ... of the row's spans; the block reduces them and
  // the same lanes write the row's (max, sum) back into the same slots.
  Value count = spanCount(layout.mainEnd);
  auto loop = scf::ForOp::create(b, loc, lane, count, index(lanes),
                                 ValueRange{negInf(), f32Const(0.0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    auto [max, sum] = loadSplitSlot(splitSlotColumn(loop.getInductionVar()));
    auto [newMax, newSum] =
        mergeMaxSum(loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1], max, sum);
    scf::YieldOp::create(b, loc, ValueRange{newMax, newSum});
  }
  Value max, sum;
  std::tie(max, sum) = reduceMaxSum(loop.getResult(0), loop.getResult(1));
  auto store = scf::ForOp::create(b, loc, lane, count, index(lanes));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(store.getBody());
  storeSplitSlot(splitSlotColumn(store.getInductionVar()), max, sum);
}

void KernelEmitter::emitSplit(RowSplitPhase phase, bool dependentLaunches) {
  bindArguments();
  splitPhase = phase;
  if (dependentLaunches && phase != RowSplitPhase::Cluster) {
    // The next phase's blocks may be scheduled from now on (they wait for this grid's end
    // before reading its words); this phase waits for the last one's words before reading any.
    if (phase != RowSplitPhase::Normalize)
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::launch_dependents);
    if (phase != RowSplitPhase::Partial)
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  }
  // The host launches the split kernels only where the sizes fit i32 and the input and output
  // rows are misaligned alike (splitCondition): vectors with edge columns, 32-bit arithmetic.
  it = b.getI32Type();
  aligned = false;
  layout.vector = vector;
  layout.chunks = chunks;
  emitKernelContext();
  Value block = narrow(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  if (phase == RowSplitPhase::Cluster) {
    // A cluster of `cluster` blocks a row (the grid is (rows * cluster) blocks in clusters of
    // (cluster, 1, 1)), each taking ceil(spans / cluster) consecutive spans of it.
    clusterRank = arith::RemUIOp::create(b, loc, block, index(clusterBlocks));
    splitBlock = clusterRank;
    startCluster();
    setRow(arith::DivUIOp::create(b, loc, block, index(clusterBlocks)));
    splitSpans = arith::CeilDivUIOp::create(b, loc, spanCount(layout.mainEnd),
                                           index(clusterBlocks));
    emitChunkedPlan(/*shared=*/false);
    finishCluster();
  } else if (phase == RowSplitPhase::Combine) {
    setRow(block);
    emitSplitCombine();
  } else {
    // Blocks [r * G, (r + 1) * G) take row r, G = ceil(width / span) (buildRowSplitBlocks).
    Value blocksPerRow = arith::CeilDivUIOp::create(b, loc, width, index(plan.getSpan()));
    splitBlock = arith::RemUIOp::create(b, loc, block, blocksPerRow);
    splitSpans = index(1);
    setRow(arith::DivUIOp::create(b, loc, block, blocksPerRow));
    emitChunkedPlan(/*shared=*/false);
  }
  gpu::ReturnOp::create(b, loc);
}

Value KernelEmitter::splitCondition(ValueRange kernelOperands, Value rowCount, Value width) {
  in = kernelOperands[0];
  out = kernelOperands[1];
  for (Value operand : kernelOperands.slice(2, op.getSideOperands().size()))
    side.push_back(operand);
  it = b.getIndexType();
  Value ok = andi(vectorsApply(), sizesFitI32());
  if (plan.getCluster() > 1)
    return ok; // no words through the output: any width, any overlap (each block re-reads only
               // the columns it writes)
  // Every row holds a whole span past its head, so every block that has a span has its slot
  // (a narrower row is one block's: the chunked_online kernel).
  ok = andi(ok, cmpi(arith::CmpIPredicate::uge, width, idx(plan.getSpan() + vector)));
  // The grid (rows * blocks a row) fits gridDim.x and the kernels' i32 block arithmetic.
  Value blocks = arith::CeilDivUIOp::create(b, loc, width, idx(plan.getSpan()));
  ok = andi(ok, cmpi(arith::CmpIPredicate::ule, mul(rowCount, blocks), idx(INT32_MAX)));
  // The partial results travel through the output: an output that overlaps the input (an
  // in-place softmax) would lose the input's values there.
  auto extent = [&](Value memref, Type elementType) -> std::pair<Value, Value> {
    int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value begin = add(pointer, mul(meta.getOffset(), idx(bytes)));
    Value last = add(mul(arith::SubIOp::create(b, loc, rowCount, idx(1)), meta.getStrides()[0]),
                     width);
    return {begin, add(begin, mul(last, idx(bytes)))};
  };
  auto [inBegin, inEnd] = extent(in, op.getInput().getType().getElementType());
  auto [outBegin, outEnd] = extent(out, op.getResult().getType().getElementType());
  Value disjoint = arith::OrIOp::create(b, loc, cmpi(arith::CmpIPredicate::ule, inEnd, outBegin),
                                        cmpi(arith::CmpIPredicate::ule, outEnd, inBegin));
  return andi(ok, disjoint);
}

void KernelEmitter::emit(RowKernelVariant variant) {
  elastic = hasElasticLanes(op, plan, variant);
  bindArguments();

  // Each variant below computes its context in its own arithmetic type.
  auto enter = [&](Type arithmetic, bool alignedRows) {
    it = arithmetic;
    aligned = alignedRows;
    emitKernelContext();
    initElasticSlots();
    // This block's row groups (buildBlockCount sets the grid).
    Value numGroups = arith::CeilDivUIOp::create(b, loc, rowCount, index(rows));
    Value grid = narrow(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
    blockId = narrow(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
    columnBase = index(0);
    clusterRank = Value();
    if (clusterBlocks > 1) {
      // A cluster a row: the clusters are (clusterBlocks, 1, 1) blocks of a one-dimensional
      // grid, so a block's rank is its id modulo the cluster size.
      clusterRank = arith::RemUIOp::create(b, loc, blockId, index(clusterBlocks));
      blockId = arith::DivUIOp::create(b, loc, blockId, index(clusterBlocks));
      grid = arith::DivUIOp::create(b, loc, grid, index(clusterBlocks));
      // Spans of the plan's width, also for a dynamic width narrower than the tier's span
      // (its last blocks take less). An even share a block (ceil(N / blocks) in whole
      // vectors) measured slower: dynamic bf16 50257 columns 0.531 -> 0.506x copy, f32 0.827 ->
      // 0.815, bf16 100000 0.645 -> 0.633 (compare-188896a, wide-613bf39 in
      // bench/results/2026-12-03-h200); the gap to the static plan there is the general
      // kernel's budget (104 registers against 80: two blocks a multiprocessor, not three).
      columnBase = mul(clusterRank, index(lanes * vector * chunks));
    }
    Value perBlock = arith::CeilDivUIOp::create(b, loc, numGroups, grid);
    groupBegin = mul(blockId, perBlock);
    groupEnd = arith::MinUIOp::create(b, loc, add(groupBegin, perBlock), numGroups);
    groupStep = index(1);
    if (stridedWalkWidth) {
      // Groups of at least kStridedGroupBytes of input are taken a grid apart (blockId,
      // blockId + grid, ...), so that the blocks at work at any time read neighbouring rows;
      // smaller ones stay consecutive. Measured on the H200 (same grid; bench/results/
      // 2026-12-02-h200/grid-9ccea6e.txt): bf16 4096 columns 0.944 -> 0.954x copy, 8192
      // 0.934 -> 0.948, 12288 0.928 -> 0.944, 16384 0.930 -> 0.951, f16 alike, the attention
      // chain on 2048 columns 1.175 -> 1.196; but 1024 columns 0.982 -> 0.946 and 2048 0.979
      // -> 0.973, level at 3001 (6 KB). buildBlockCount sizes the grid for it.
      Value strided = cmpi(arith::CmpIPredicate::uge, width, index(*stridedWalkWidth));
      groupBegin = select(strided, blockId, groupBegin);
      groupEnd = select(strided, numGroups, groupEnd);
      groupStep = select(strided, grid, groupStep);
    }
  };
  Type indexType = b.getIndexType();
  if (plan.getPlan() == KernelPlan::row_shared) {
    // Dynamic shared memory holds both the reduction slots and, after them, the row. One
    // shared variable only: a static workgroup buffer beside the dynamic one could be laid out
    // after it and overlap the row.
    auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    Value bytes = gpu::DynamicSharedMemoryOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                MemRefLayoutAttrInterface(), space));
    int64_t slots = getRowSharedReductionSlots(plan);
    smem = memref::ViewOp::create(
        b, loc, MemRefType::get({slots}, f32, MemRefLayoutAttrInterface(), space), bytes,
        idx(0), ValueRange{});
    int64_t staticWidth = op.getRowWidth();
    Value widthValue = ShapedType::isDynamic(staticWidth)
                           ? Value(memref::DimOp::create(b, loc, in, 1))
                           : idx(staticWidth);
    Value elements = mul(arith::CeilDivUIOp::create(b, loc, widthValue, idx(vector)), idx(vector));
    rowBuffer = memref::ViewOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, f32, MemRefLayoutAttrInterface(), space),
        bytes, idx(slots * 4), ValueRange{elements});
  }
  bool chunked =
      plan.getPlan() == KernelPlan::chunked_online || plan.getPlan() == KernelPlan::row_shared;
  auto emitPlan = [&] {
    layout.vector = vector;
    layout.chunks = chunks;
    if (!chunked && pipelined)
      return emitPipelinedRegisterPlan();
    if (!chunked) {
      forEachRowGroup([&](Value group) {
        setRow(rowOf(group));
        if (packedValues) {
          emitRegisterPlan({}, loadRaw());
          return;
        }
        SmallVector<SmallVector<Value>> values;
        for (int64_t c = 0; c < layout.chunks; ++c)
          values.push_back(loadVector(vectorColumn(columnBase, c)));
        for (auto [column, valid] : edgeColumns())
          values.push_back({loadScalar(column, valid)});
        emitRegisterPlan(std::move(values));
      });
      return;
    }
    forEachRowGroup([&](Value group) {
      setRow(rowOf(group));
      emitChunkedPlan(plan.getPlan() == KernelPlan::row_shared);
    });
  };
  auto emitScalarLoop = [&] {
    enter(indexType, /*alignedRows=*/false);
    layout.vector = 1;
    layout.chunks = 1;
    // A row_cluster row is then its first block's alone (the others find their row invalid).
    Value first = clusterRank ? cmpi(arith::CmpIPredicate::eq, clusterRank, index(0)) : Value();
    columnBase = index(0);
    clusterRank = Value();
    forEachRowGroup([&](Value group) {
      setRow(rowOf(group), first);
      emitChunkedPlan(/*shared=*/false);
    });
  };
  // The fast variant (RowKernel.h) or the general one: vectors with edge columns and 64-bit
  // indices when the input and output are misaligned alike, else (rare: views with odd offsets
  // or strides of different residues) one scalar column a lane in a loop, correct for any
  // layout. The choice is uniform over the grid.
  if (variant == RowKernelVariant::Full)
    knownWidth = plan.getSpan();
  if (variant == RowKernelVariant::Fast || variant == RowKernelVariant::Full) {
    enter(b.getI32Type(), /*alignedRows=*/true);
    if (exchange)
      startCluster();
    emitPlan();
  } else if (vector == 1) {
    enter(indexType, /*alignedRows=*/false);
    if (exchange)
      startCluster();
    emitPlan();
  } else {
    it = indexType;
    // The vector path in i32 where the sizes fit (the scalar loop takes the rest): 15-23 fewer
    // registers than in index arithmetic (f32 16384-column spans: 123 against 138, which is
    // two blocks of 256 threads a multiprocessor against one). Narrow spans keep index
    // arithmetic, measured faster there (fastVariantPossible).
    bool i32Arithmetic = !isNarrowSpan();
    Value vectorPath = vectorsApply();
    if (i32Arithmetic)
      vectorPath = andi(vectorPath, sizesFitI32());
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, vectorPath, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    enter(i32Arithmetic ? Type(b.getI32Type()) : indexType, /*alignedRows=*/false);
    if (exchange)
      startCluster();
    emitPlan();
    if (exchange)
      finishCluster();
    b.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
    emitScalarLoop();
  }
  if (exchange && (variant != RowKernelVariant::General || vector == 1))
    finishCluster();
  gpu::ReturnOp::create(b, loc);
}

} // namespace

bool mlir::softmax::holdsPackedRowValues(FusedOp op, StrategyAttr plan) {
  return plan.getPlan() == KernelPlan::row_cluster && plan.getVector() % 2 == 0 &&
         plan.getVector() * plan.getChunks() > 32 && op.mayHoldPackedRowValues();
}

bool mlir::softmax::hasFastVariant(FusedOp op, StrategyAttr plan) {
  if (plan.getPlan() == KernelPlan::row_staged) // one kernel, any alignment (RowStagedKernel.h)
    return false;
  if (plan.getPlan() == KernelPlan::row_split) // its own kernels and fallback (RowKernel.h)
    return false;
  OpBuilder builder(op.getContext());
  return KernelEmitter(builder, op, plan, nullptr, nullptr).fastVariantPossible();
}

bool mlir::softmax::hasElasticLanes(FusedOp op, StrategyAttr plan, RowKernelVariant variant) {
  // A chunk's columns are then a stride known only at run time apart, so each chunk's
  // addresses take registers of their own. Not under a -inf padding or causal mask: its
  // removed lanes read nothing already, and that cost the masked 16-bit tiers of 32 values
  // 12-40 bytes of spills at their occupancy budgets (ptxas; the attention chain's 2048 and
  // 8192 tiers). Not with side operands along the row, whose addresses double the cost (the
  // f32 bias chain's 4096 tier: 38 registers against 32, and 0.86x copy against 0.97x on the
  // H200, bench/results/2026-12-02-h200/compare-496c475.txt). Nor with more than 32 values a
  // thread: the f32 16384-column tier's 16 chunk addresses took 122 registers against 90 (one
  // block of 256 threads a multiprocessor), and its log_softmax general kernel spilled 4 bytes
  // at its budget of 136 (generated seed 235). Nor on vectors narrower than 16 bytes (a dynamic
  // tier's alternatives for rows off the widest vector's boundary, SelectStrategy.cpp): the bf16
  // tiers of four vectors of 4 a thread needed 64 registers so, and spilled 68-72 bytes at their
  // occupancy budget of 40, which they fit with fixed lanes.
  int64_t elementBytes = std::max(op.getInput().getType().getElementTypeBitWidth(),
                                  op.getResult().getType().getElementTypeBitWidth()) /
                         8;
  return ShapedType::isDynamic(op.getRowWidth()) && variant != RowKernelVariant::Full &&
         plan.getPlan() == KernelPlan::row_registers && plan.getLanes() > 32 &&
         plan.getVector() * plan.getChunks() <= 32 && plan.getVector() * elementBytes >= 16 &&
         !op.hasLimitingMask() && op.getRowSideOperandRegisters(1) == 0;
}

gpu::KernelDim3 mlir::softmax::buildBlockSize(OpBuilder &builder, Location loc, FusedOp op,
                                              StrategyAttr plan, RowKernelVariant variant,
                                              Value width) {
  auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); };
  Value one = constant(1);
  if (!hasElasticLanes(op, plan, variant))
    return {constant(plan.getBlockSize()), one, one};
  // The warps that the row's values fill at the plan's values a thread, at most the plan's
  // lanes (the tier's widest row); at least one.
  Value perThread = constant(plan.getVector() * plan.getChunks());
  Value warps = arith::CeilDivUIOp::create(
      builder, loc, arith::CeilDivUIOp::create(builder, loc, width, perThread), constant(32));
  Value lanes = arith::MulIOp::create(builder, loc, warps, constant(32));
  lanes = arith::MinUIOp::create(builder, loc, arith::MaxUIOp::create(builder, loc, lanes,
                                                                      constant(32)),
                                 constant(plan.getLanes()));
  return {lanes, constant(plan.getRows()), one};
}

bool mlir::softmax::hasFullVariant(FusedOp op, StrategyAttr plan, const TargetInfo &target) {
  bool rowInBlock =
      plan.getPlan() == KernelPlan::multi_row || plan.getPlan() == KernelPlan::row_registers;
  if (!ShapedType::isDynamic(op.getRowWidth()) || !rowInBlock || !hasFastVariant(op, plan))
    return false;
  // Not for 24 values a thread or more beside a step with an operand: the Full kernel of the
  // 12288-column tier (512 threads x 3 vectors of 8) spilled 4 bytes at its 64 registers in
  // dynamic 16-bit programs scaled by an f32 scalar or under a boolean mask (generated seeds
  // 2027, 2917), where the fast kernel that then takes rows of the span fits its budget; the
  // next budget for 512 threads, 128, halves the warps.
  if (plan.getVector() * plan.getChunks() >= 24 && isPipelined(op, plan, target) &&
      hasStepWithOperand(op))
    return false;
  // Also the pipelined (16-bit) tiers whose fast kernel takes its lanes from the launch: at the
  // same budget, its lanes, warps and column strides are run-time values, which cost bf16
  // 4096 columns (the 512 x 8 tier) 0.953 -> 0.937x copy against the static kernel (compare-
  // 5214e64.txt in bench/results/2026-12-02-h200).
  return getRowKernelRegisters(op, plan, RowKernelVariant::Full, target) <
             getRowKernelRegisters(op, plan, RowKernelVariant::Fast, target) ||
         (isPipelined(op, plan, target) && hasElasticLanes(op, plan, RowKernelVariant::Fast));
}

Value mlir::softmax::buildFastVariantCondition(OpBuilder &builder, FusedOp op, StrategyAttr plan,
                                               ValueRange kernelOperands) {
  assert(hasFastVariant(op, plan) && "the plan has no fast variant");
  return KernelEmitter(builder, op, plan, nullptr, nullptr).fastCondition(kernelOperands);
}

gpu::GPUFuncOp mlir::softmax::buildRowKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                             StringRef name, FusedOp op, StrategyAttr plan,
                                             RowKernelVariant variant, const TargetInfo &target) {
  assert((variant != RowKernelVariant::Fast || hasFastVariant(op, plan)) &&
         "the plan has no fast variant");
  if (plan.getPlan() == KernelPlan::row_staged)
    return buildRowStagedKernel(builder, module, name, op, plan);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  MLIRContext *context = builder.getContext();
  auto type = FunctionType::get(context, getRowKernelParameterTypes(op), {});

  // Shared memory for the cross-warp reductions: two buffers (max, sum) of one slot per warp.
  SmallVector<Type> workgroup;
  int64_t warpsPerRow = plan.getLanes() / 32;
  auto space = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  if (warpsPerRow > 1 && op.getNormalization() != Normalization::none &&
      plan.getPlan() != KernelPlan::row_shared) {
    workgroup.push_back(MemRefType::get({2 * plan.getRows() * warpsPerRow}, builder.getF32Type(),
                                        MemRefLayoutAttrInterface(), space));
  }
  // row_cluster: the block's (max, sum), read by the other blocks of its cluster.
  if (plan.getPlan() == KernelPlan::row_cluster && op.getNormalization() != Normalization::none)
    workgroup.push_back(
        MemRefType::get({2}, builder.getF32Type(), MemRefLayoutAttrInterface(), space));
  auto func = gpu::GPUFuncOp::create(builder, op.getLoc(), name, type, workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), builder.getUnitAttr());
  int32_t threads = static_cast<int32_t>(plan.getBlockSize());
  // An elastic kernel's block is the launch's (buildBlockSize).
  if (!hasElasticLanes(op, plan, variant))
    func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr({threads, 1, 1}));
  func->setAttr("nvvm.maxnreg", builder.getI32IntegerAttr(static_cast<int32_t>(
                                   getRowKernelRegisters(op, plan, variant, target))));
  // LLVM assumes 16-byte aligned shared arrays and merges accesses; the PTX must say so too.
  for (unsigned i = 0; i < workgroup.size(); ++i)
    func.setWorkgroupAttributionAttr(i, "llvm.align", builder.getI64IntegerAttr(16));

  KernelEmitter(builder, op, plan, func, &target).emit(variant);
  return func;
}

StrategyAttr mlir::softmax::getRowSplitFallback(StrategyAttr plan) {
  return StrategyAttr::get(plan.getContext(), KernelPlan::chunked_online, plan.getLanes(), 1,
                           plan.getVector(), plan.getChunks());
}

Value mlir::softmax::buildRowSplitBlocks(OpBuilder &builder, Location loc, StrategyAttr plan,
                                         Value width) {
  return arith::CeilDivUIOp::create(builder, loc, width,
                                    arith::ConstantIndexOp::create(builder, loc, plan.getSpan()));
}

Value mlir::softmax::buildRowSplitCondition(OpBuilder &builder, FusedOp op, StrategyAttr plan,
                                            ValueRange kernelOperands, Value rowCount,
                                            Value width) {
  return KernelEmitter(builder, op, plan, nullptr, nullptr)
      .splitCondition(kernelOperands, rowCount, width);
}

gpu::GPUFuncOp mlir::softmax::buildRowSplitKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                                  StringRef name, FusedOp op, StrategyAttr plan,
                                                  RowSplitPhase phase, bool dependentLaunches,
                                                  const TargetInfo &target) {
  assert(plan.getPlan() == KernelPlan::row_split && "not a row_split plan");
  assert((phase == RowSplitPhase::Cluster) == (plan.getCluster() > 1) &&
         "a row_split plan over a cluster has the one Cluster kernel");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  MLIRContext *context = builder.getContext();
  auto type = FunctionType::get(context, getRowKernelParameterTypes(op), {});
  // The cross-warp slots of the block's (max, sum) reduction.
  SmallVector<Type> workgroup;
  auto space = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  if (plan.getLanes() > 32 && phase != RowSplitPhase::Normalize)
    workgroup.push_back(MemRefType::get({2 * plan.getLanes() / 32}, builder.getF32Type(),
                                        MemRefLayoutAttrInterface(), space));
  // The Cluster phase: the block's (max, sum), read by the other blocks of its cluster.
  if (phase == RowSplitPhase::Cluster)
    workgroup.push_back(
        MemRefType::get({2}, builder.getF32Type(), MemRefLayoutAttrInterface(), space));
  auto func = gpu::GPUFuncOp::create(builder, op.getLoc(), name, type, workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({static_cast<int32_t>(plan.getLanes()), 1, 1}));
  // A span a block, as a chunked_online kernel's: its budget.
  func->setAttr("nvvm.maxnreg",
                builder.getI32IntegerAttr(static_cast<int32_t>(getRowKernelRegisters(
                    op, getRowSplitFallback(plan), RowKernelVariant::General, target))));
  for (unsigned i = 0; i < workgroup.size(); ++i)
    func.setWorkgroupAttributionAttr(i, "llvm.align", builder.getI64IntegerAttr(16));
  KernelEmitter(builder, op, plan, func, &target).emitSplit(phase, dependentLaunches);
  return func;
}
