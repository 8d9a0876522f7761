//===- AxisKernel.cpp - Softmax over a non-last axis, without a transpose -===//
//
// The strided_axis plan (docs/strategies.md). The input and output are viewed as
// [outer, C, mid, last]: C is the softmax axis, `outer` the dimensions before it collapsed, `mid`
// those between it and the last one collapsed (1 when the axis is the second to last), and the
// `inner = mid * last` columns are contiguous along `last`. A block of `lanes * rows` threads
// takes `lanes * vector` consecutive columns of one outer index:
//
//   thread (row r, lane l): columns  ib * lanes * vector + l * vector + v,  v < vector
//                           axis values c = r + k * rows,  k < chunks (then the next span)
//
// so that consecutive lanes touch consecutive 16-byte vectors of each C slice (coalesced), and
// a column's C values, `stride(C)` elements apart, are spread over the `rows` threads of the
// block. Each thread reduces its values as a tree, then the rows combine: butterfly shuffles
// between the rows that share a warp (lanes < 32), then one shared-memory slot per column a
// warp and a barrier.
//
//  - C <= rows * chunks (the register path): a thread's values stay in registers between the
//    reductions and the store: one read, one write.
//  - Wider C (the online path): spans of rows * chunks values with a running max and sum per
//    column, combined across the rows, then a second pass that reads the column again (from L2
//    where the block's columns are still there) and writes it normalised.
//  A static C emits one path; a dynamic C both, chosen uniformly over the grid, in the general
//  plan's kernels. A dynamic C's tiers (the plans before the general one, AxisPlan.cpp) have
//  the register path only: the host launches the first whose capacity covers C.
//
// A plan with `cluster` > 1 spreads each column over the blocks of a thread-block cluster
// (sm_90): block `q` of a cluster holds axis values q * rows * chunks onwards, in registers; the
// blocks' (max, sum) pairs of each column are merged through distributed shared memory
// (combineCluster), so a column of up to rows * chunks * cluster values is read once. Its
// vector kernel only: the scalar kernel of such a plan has one block a column (the online path
// where the column does not fit it).
//
// Two kernels a plan, chosen by the host once per launch: the vector kernel (16-byte accesses)
// when both operands' pointers are aligned to a vector and their offsets, strides and `last`
// are multiples of it; else the scalar kernel, in which lane l takes columns
// ib * lanes * vector + v * lanes + l (still coalesced, one element an access).
//
// Arithmetic is f32 whatever the storage type; exp and log are ex2.approx / lg2.approx, the
// masked-column policy goes through the normalising factors: the row kernels' normalisation
// (Normalization.h), a column taking the place of a row.
//
//===----------------------------------------------------------------------===//

#include "AxisKernel.h"

#include "EmitterSupport.h"
#include "Normalization.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::softmax;

namespace {

/// memref<?x?x?x?xT, strided<[?, ?, ?, 1], offset: ?>>: [outer, C, mid, last].
MemRefType getAxisViewType(Type elementType) {
  int64_t d = ShapedType::kDynamic;
  auto layout = StridedLayoutAttr::get(elementType.getContext(), d, {d, d, d, 1});
  return MemRefType::get({d, d, d, d}, elementType, layout);
}

/// The [outer, C, mid, last] view of a full-rank strided memref (host code): collapse_shape of
/// the dimensions before the axis and of those between it and the last one (contiguous groups,
/// as the row kernels' views assume of the leading dimensions), expand_shape for the absent
/// groups (size 1). Both are ops the C++ API's host interpreter models.
Value buildAxisView(OpBuilder &b, Location loc, Value memref, int64_t axis) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  bool hasOuter = axis > 0, hasMid = axis + 1 < rank - 1;
  SmallVector<ReassociationIndices> groups;
  if (hasOuter)
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, axis)));
  groups.push_back({axis});
  if (hasMid)
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(axis + 1, rank - 1)));
  groups.push_back({rank - 1});
  Value view = memref;
  if (static_cast<int64_t>(groups.size()) < rank)
    view = memref::CollapseShapeOp::create(b, loc, memref, groups);
  auto viewType = cast<MemRefType>(view.getType());
  if (viewType.getRank() < 4) {
    auto sizeOf = [&](int64_t d) -> OpFoldResult {
      if (viewType.isDynamicDim(d))
        return memref::DimOp::create(b, loc, view, d).getResult();
      return b.getIndexAttr(viewType.getDimSize(d));
    };
    SmallVector<ReassociationIndices> expand;
    SmallVector<int64_t> staticShape;
    SmallVector<OpFoldResult> shape;
    int64_t source = 0;
    auto unit = [&] {
      staticShape.push_back(1);
      shape.push_back(b.getIndexAttr(1));
    };
    auto from = [&](int64_t d) {
      staticShape.push_back(viewType.getDimSize(d));
      shape.push_back(sizeOf(d));
    };
    // [outer, C]
    if (hasOuter) {
      expand.push_back({0});
      expand.push_back({1});
      from(source++);
      from(source++);
    } else {
      expand.push_back({0, 1});
      unit();
      from(source++);
    }
    // [mid, last]
    if (hasMid) {
      expand.push_back({2});
      expand.push_back({3});
      from(source++);
      from(source++);
    } else {
      expand.push_back({2, 3});
      unit();
      from(source++);
    }
    FailureOr<MemRefType> expanded =
        memref::ExpandShapeOp::computeExpandedType(viewType, staticShape, expand);
    assert(succeeded(expanded) && "a strided memref always expands");
    view = memref::ExpandShapeOp::create(b, loc, *expanded, view, expand, shape);
  }
  return memref::CastOp::create(b, loc, getAxisViewType(type.getElementType()), view);
}

SmallVector<Type> getAxisKernelParameterTypes(FusedOp op) {
  SmallVector<Type> types{getAxisViewType(op.getInput().getType().getElementType()),
                          getAxisViewType(op.getResult().getType().getElementType())};
  for (Value side : op.getSideOperands())
    types.push_back(side.getType());
  return types;
}

/// Rows of a column that share a warp (combined by shuffles), and the groups of them that
/// combine through shared memory.
int64_t rowsPerWarp(StrategyAttr plan) {
  return std::min<int64_t>(plan.getRows(), std::max<int64_t>(1, 32 / plan.getLanes()));
}
int64_t sharedGroups(StrategyAttr plan) { return plan.getRows() / rowsPerWarp(plan); }

/// Whether the groups' partials of each column are merged once, by one thread a column slot,
/// and the results read by every thread (two barriers), rather than merged by every thread of
/// the column (one barrier): where that reads fewer than half the partials a thread. Every
/// thread merging them read `groups * vector` a reduction, as many as the values it holds in
/// the 16-bit plans of C >= 2048 (4 lanes x 128 rows: 16 groups x 8 column slots), in blocks
/// alone on their multiprocessor, whose loads nothing overlaps meanwhile. Not over a cluster:
/// there the f32 tiers at three quarters (8 lanes x 32 rows x 16 over 3, 6 and 12 blocks, after
/// scales, over a dynamic inner size) spilled 32 bytes at their 128 registers so (generator
/// seed 6 of the strided_axis family).
bool mergesGroupsOnce(StrategyAttr plan) {
  if (plan.getCluster() > 1)
    return false;
  int64_t groups = sharedGroups(plan), vector = plan.getVector();
  int64_t columns = plan.getLanes() * vector, threads = plan.getLanes() * plan.getRows();
  int64_t once = llvm::divideCeil(columns, threads) * groups + vector;
  return groups * vector > 2 * once;
}

/// Whether a kernel holds its loaded values as they came rather than as f32: 16-bit storage,
/// two values a 32-bit register, converted again at each of their three uses (max, sum,
/// normalisation; the exp is computed twice). Values held as f32 took twice the registers of
/// their bytes: 64 bf16 values a thread needed 138-168 registers, one block of 256 threads a
/// multiprocessor, a quarter of the f32 kernels' bytes in flight (0.26-0.63x copy, against
/// 0.95-0.99 for f32: bench/results/2026-12-01-h200/axis-bench-f712367.txt, profile-f712367.txt);
/// packed they need 72-80, and the plans hold up to 128 (AxisPlan.cpp). FusedOp::
/// mayHoldPackedAxisValues says for which ops (a log_softmax packed needed 112-120 registers
/// for 64 values: ptxas keeps the shifted values it shares with the sum); the vector kernel's
/// register path only, with vectors of an even size (the scalar kernel's elements, each with
/// its own column's indices, spilled when packed the same way). After a prologue, only where a
/// thread holds more values than it could as f32 (holdsPackedAfterPrologue).
/// A tier may where the scalar factors are positive (launchesForPositiveScalars).
bool holdsPackedValues(FusedOp op, StrategyAttr plan, bool vectorized, bool tier) {
  return vectorized && op.mayHoldPackedAxisValues(tier, /*positiveScalars=*/tier) &&
         plan.getVector() % 2 == 0 &&
         (op.getPrologue().empty() ||
          holdsPackedAfterPrologue(plan.getVector() * plan.getChunks())) &&
         (tier || (!ShapedType::isDynamic(op.getRowWidth()) &&
                   op.getRowWidth() <= plan.getAxisCapacity()));
}

/// Whether the host code launches the tier kernel of `plan` only where every scalar factor of
/// the prologue is positive: one that holds its values packed after a scale by a scalar, and
/// loads -inf as raw words past C (AxisEmitter::loadPacked), which such a factor must keep
/// -inf. The other calls take a later tier or the general plan.
bool launchesForPositiveScalars(FusedOp op, StrategyAttr plan) {
  return op.hasScalarScale() && holdsPackedValues(op, plan, /*vectorized=*/true, /*tier=*/true);
}

/// The register budget of a dynamic C's tier of 16-bit values held packed over a cluster
/// (buildAxisKernel).
constexpr int64_t kPackedClusterTierRegisters = 112;

/// The register budget of a kernel in blocks of fewer than 256 threads holding 16-bit values
/// packed over a cluster (buildAxisKernel), whatever the blocks a multiprocessor would give.
constexpr int64_t kPackedSmallBlockClusterRegisters = 136;

/// The register budget of an f32 log_softmax's lean kernel over a dynamic inner size
/// (buildAxisKernel).
constexpr int64_t kDynamicInnerLogRegisters = 120;

/// The most threads a block of the scalar kernel has (scalarKernelPlan).
constexpr int64_t kMaxScalarKernelBlock = 256;

/// The plan of the scalar kernel of `plan`: its columns (lanes and vector, so the same grid) in
/// blocks of at most kMaxScalarKernelBlock threads (fewer rows a column), one block a column.
/// The scalar kernel holds each column's indices and validity apart; in the blocks of 512 of
/// the plans that hold 64 values a thread (f32 C = 2048 and 4096) it spilled 16-204 bytes at
/// the 128 registers there, whatever the values a thread (generator seeds 8, 168, 181, 283,
/// 337 and 376 of the strided_axis family); blocks of 256 may have 255.
StrategyAttr scalarKernelPlan(StrategyAttr plan) {
  int64_t rows = std::max<int64_t>(
      1, std::min(plan.getRows(), kMaxScalarKernelBlock / plan.getLanes()));
  return StrategyAttr::get(plan.getContext(), KernelPlan::strided_axis, plan.getLanes(), rows,
                           plan.getVector(), plan.getChunks());
}

/// Whether a kernel of `plan` takes the sizes its op's type knows as constants, checks only the
/// chunks that may pass C, and addresses its chunks through one view an operand
/// (AxisEmitter::columnView): the vector kernel of a static C, or of a dynamic C's tier, whose
/// values are f32. Four-index accesses kept each chunk's 64-bit axis index live from its load
/// to its store: 64 values a thread took 112-128 registers, 88-96 so (f32 C = 4096 on 2 lanes x 256 rows x 16 chunks
/// spilled at 128 before, none from 88 now). Not where the kernel holds 16-bit values packed,
/// in the scalar kernel, or in a dynamic C's general kernels: with loads that no compare
/// guards, or with budgets fitted to the new code, ptxas spilled those (the packed bf16 C = 4096 on 16 chunks of
/// 8, 16 bytes at 112 and at every budget up to 136; the scalar kernel of generator seed 181,
/// 176 bytes at 128; with lean kernels everywhere, 32 of 261 programs of the generator's
/// strided_axis family spilled 4-184 bytes, most in a dynamic C's tiers and general kernels),
/// so they keep the code of their measured plans. A dynamic C's f32 tiers are lean with
/// budgets of their own (getStridedAxisRegisters' `tier`); its general kernels are not.
bool usesLeanAddressing(FusedOp op, StrategyAttr plan, bool vectorized, bool tier) {
  return vectorized && (tier || !ShapedType::isDynamic(op.getRowWidth())) &&
         !holdsPackedValues(op, plan, vectorized, tier);
}

/// Blocks of a cluster that share each column in a kernel of `plan`: its cluster in the vector
/// kernel; the scalar kernel (rare layouts) has one block a column.
int64_t getAxisKernelClusterBlocks(StrategyAttr plan, bool vectorized) {
  return vectorized ? plan.getCluster() : 1;
}

/// The most values a thread of the scalar kernel holds as f32 in registers (the register path)
/// in a block of up to 256 threads (64 took up to 200 registers of the 255 it is given), half
/// as many in blocks of 512 (at the 128 registers there, 40 values of a log_softmax spilled
/// 204 bytes and 36 spilled 8: generated seeds 283 and 376 of the strided_axis family,
/// docs/fuzzing.md). Where a plan holds more, the scalar kernel takes fewer chunks, so the
/// online path where the column no longer fits (rare layouts: two reads).
constexpr int64_t kMaxScalarKernelValues = 64;
int64_t getMaxScalarKernelValues(StrategyAttr plan) {
  return kMaxScalarKernelValues * 256 / std::max<int64_t>(256, plan.getBlockSize());
}
/// The most spans of the online path whose sums a thread adds to its running sum plainly; a
/// column of more (a dynamic C, or a static one past it) gets a compensated running sum. A
/// plain f32 sum of n terms is within (n - 1) 2^-24 of the exact one, 4e-6 relative at 64;
/// 14465 spans (generator seed 440, C = 57857 in spans of 4) lost 7.5e-5. The compensation's
/// registers (one a column) made the scalar kernel of a static f16 C = 2304 in blocks of 512,
/// 3 spans, spill 112 bytes (test/Pipelines/ptxas-no-spills-axis.mlir, c2304_f16).
constexpr int64_t kMaxPlainSpans = 64;

/// Emits the body of one strided_axis kernel.
class AxisEmitter : public KernelEmitterBase {
public:
  AxisEmitter(OpBuilder &builder, FusedOp op, StrategyAttr plan, gpu::GPUFuncOp func,
              bool vectorized, bool tier, int64_t axisAbove)
      : KernelEmitterBase(builder, op, plan, func), vectorized(vectorized), tier(tier),
        axisAbove(axisAbove),
        packedValues(holdsPackedValues(op, plan, vectorized, tier)),
        clusterBlocks(getAxisKernelClusterBlocks(plan, vectorized)),
        lean(usesLeanAddressing(op, plan, vectorized, tier)) {}

  void emit();

private:
  /// The prologue on one value: scales and roundings (checkStridedAxisSupported).
  Value applyPrologue(Value value);
  /// One of a thread's chunks: its axis index `c`, its row `index` in the thread's column
  /// views (the vector kernel's inView / outView), and whether `c` may be past C (else no
  /// compare is emitted: a static C that the chunk's rows cannot pass).
  struct Chunk {
    Value c, index;
    bool mayPassAxis;
  };
  /// The condition under which `chunk`'s loads (or stores) of column slot `v` are in the
  /// tensor, null where they always are (a lean kernel's loads read a valid column in place of
  /// one past the tensor's: addColumn in emit).
  Value inTensor(const Chunk &chunk, int64_t v, bool store);
  /// The f32 values (prologue applied) of this thread's columns at `chunk`; -inf for columns
  /// outside the tensor or c >= C.
  SmallVector<Value> load(const Chunk &chunk);
  void store(const Chunk &chunk, ArrayRef<Value> values);
  /// The vector kernel's view of `memref` for this thread's columns: [chunk, vector] at axis
  /// index `first` + chunk * rows. One 64-bit address and one stride for all the chunks, where
  /// four-index accesses kept each chunk's 64-bit axis index live from its load to its store
  /// (f32 C = 4096 on 2 lanes x 256 rows x 16 chunks spilled at 128 registers).
  Value columnView(Value memref, Value first);
  /// Where the vector kernel accesses `chunk` of `memref` (in or out): through `view`, its
  /// column view, where the kernel has one, else at the four indices.
  std::pair<Value, SmallVector<Value>> vectorAt(Value view, Value memref, const Chunk &chunk) {
    if (view)
      return {view, {chunk.index, idx(0)}};
    return {memref, {outer, chunk.c, colMid[0], colLast[0]}};
  }
  void setColumnViews(Value first) {
    if (!leanAddressing())
      return;
    inView = columnView(in, first);
    outView = columnView(out, first);
  }

  /// A vector as loaded (16-bit storage: two values a register; -inf past C where the prologue
  /// keeps -inf, FusedOp::prologueKeepsNegInf, else zeros outside the tensor) and, where its
  /// axis index `c` may be past C and it holds zeros there, whether it is not; `expand` gives
  /// its f32 values (prologue applied, -inf past C) at each use. Zeros in columns past the
  /// tensor's need no -inf: each column is reduced on its own and those are never stored.
  struct Packed {
    Value raw, inAxis;
  };
  Packed loadPacked(const Chunk &chunk);
  SmallVector<Value> expand(const Packed &packed);

  using Tuple = SmallVector<Value, 2>;
  /// Combines each column's partials (one tuple a column slot) over the `rows` threads of the
  /// column, tuple element i in shared buffer `buffer + i`.
  SmallVector<Tuple> combineRows(SmallVector<Tuple> parts,
                                 function_ref<Tuple(const Tuple &, const Tuple &)> merge,
                                 int64_t buffer);
  SmallVector<Value> combineRows(ArrayRef<Value> parts, bool isMax, int64_t buffer);
  /// The shared-memory slot of a column slot's partial: tuple element `element` (buffer
  /// `buffer + element`), group `group` of `groups`, column `column` of the block's.
  Value slotAt(int64_t buffer, int64_t groups, size_t element, Value group, Value column) {
    int64_t columns = lanes * vector;
    Value base = mul(add(idx((buffer + static_cast<int64_t>(element)) * groups), group),
                     idx(columns));
    return add(base, column);
  }
  /// Over a cluster: each column's (max, sum) from those of the cluster's blocks (each sum
  /// relative to its block's max), the same in every block; every thread calls it once.
  void combineCluster(SmallVector<Value> &max, SmallVector<Value> &sum);
  /// The first axis value of this thread (row + the block's slice of the column).
  Value firstAxisValue();

  void emitRegisterPath();
  void emitPackedRegisterPath(ArrayRef<Chunk> axisChunks, ArrayRef<Packed> packed);
  void emitOnlinePath();

  bool vectorized;
  /// A tier of a dynamic C: launched only where C fits the plan's capacity (register path).
  bool tier;
  /// A tier's launch guarantees C > axisAbove (the capacity of an earlier tier of the same
  /// vector condition): its chunks below it need no compare.
  int64_t axisAbove;
  bool packedValues;
  /// Blocks of the cluster that share each column (1: a block a column).
  int64_t clusterBlocks;
  bool lean;

  Value in, out, smem;
  /// Over a cluster: this block's rank in it, and its (max, sum) exchange slots.
  Value clusterRank, exchange;
  SmallVector<Value> scalarFactors;
  Value lane, row, outer, axisSize;
  /// Per column slot (one in the vector kernel: the vector's first column): its mid and last
  /// indices and whether it is in the tensor (null where every column is: a static inner
  /// size that is whole blocks of columns).
  SmallVector<Value> colMid, colLast, colValid;
  /// The vector kernel's column views of the path being emitted (setColumnViews).
  Value inView, outView;
  /// Where clampsPastAxis: the last of this thread's chunks in the axis ((C - 1 - first) /
  /// rows; the first chunk always is).
  Value lastChunkInAxis;
  /// `chunk`'s place where it is past C: the thread's last chunk in the axis (clampsPastAxis).
  Chunk clampedToAxis(const Chunk &chunk);

  /// usesLeanAddressing for this kernel.
  bool leanAddressing() const { return lean; }
  /// Whether the load of a chunk that may pass C reads, where it does, the thread's last chunk
  /// in the axis instead, and masks the values (AxisEmitter::load): no branch before a load.
  /// A lean tier of 4 lanes x 128 rows x 16 chunks of 4 (8 of them may pass C) spilled 48
  /// bytes at 128 registers with each such load behind its compare, and none so (it needs
  /// 128, its static twin 96). The stores keep their compares (from C and the chunk's axis
  /// index, so that they are not the loads' predicates kept live): stores to the last chunk
  /// in the axis in their place, unguarded (last chunk stored last) or with the right value,
  /// needed as many registers or more (the clamped addresses live until the stores).
  /// A lean tier's, whose first chunk is always in the axis.
  bool clampsPastAxis() const {
    return lean && tier && clusterBlocks == 1 && rows <= axisAbove + 1;
  }
};

Value AxisEmitter::applyPrologue(Value value) {
  for (Attribute step : op.getPrologue()) {
    if (auto scale = dyn_cast<ScaleStepAttr>(step))
      value = mulf(value, f32Const(scale.getFactor().convertToDouble()));
    else if (auto scaleBy = dyn_cast<ScaleByStepAttr>(step))
      value = mulf(value, scalarFactors[scaleBy.getOperand()]);
    else if (auto round = dyn_cast<RoundStepAttr>(step); round && !round.getType().isF32())
      value = toF32(fromF32(value, round.getType()));
  }
  return value;
}

AxisEmitter::Chunk AxisEmitter::clampedToAxis(const Chunk &chunk) {
  Chunk clamped = chunk;
  clamped.index = arith::MinUIOp::create(b, loc, chunk.index, lastChunkInAxis);
  clamped.mayPassAxis = false;
  return clamped;
}

Value AxisEmitter::inTensor(const Chunk &chunk, int64_t v, bool store) {
  // A lean kernel's loads read a valid column in place of one past the tensor (addColumn).
  Value cond = store || !leanAddressing() ? colValid[v] : Value();
  if (chunk.mayPassAxis || !leanAddressing()) {
    Value inAxis = cmpi(arith::CmpIPredicate::ult, chunk.c, axisSize);
    cond = cond ? andi(inAxis, cond) : inAxis;
  }
  return cond;
}

Value AxisEmitter::columnView(Value memref, Value first) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  ValueRange strides = meta.getStrides();
  Value offset = add(meta.getOffset(), mul(outer, strides[0]));
  offset = add(offset, mul(first, strides[1]));
  offset = add(offset, mul(colMid[0], strides[2]));
  offset = add(offset, colLast[0]);
  Value step = mul(idx(rows), strides[1]);
  int64_t d = ShapedType::kDynamic;
  Type elementType = cast<MemRefType>(memref.getType()).getElementType();
  auto type = MemRefType::get({d, vector}, elementType,
                              StridedLayoutAttr::get(b.getContext(), d, {d, 1}));
  // Sizes are not checked: the accesses are guarded by inTensor.
  return memref::ReinterpretCastOp::create(
      b, loc, type, memref, OpFoldResult(offset),
      ArrayRef<OpFoldResult>{OpFoldResult(axisSize), OpFoldResult(b.getIndexAttr(vector))},
      ArrayRef<OpFoldResult>{OpFoldResult(step), OpFoldResult(b.getIndexAttr(1))});
}

SmallVector<Value> AxisEmitter::load(const Chunk &chunk) {
  Type elementType = op.getInput().getType().getElementType();
  SmallVector<Value> values;
  if (vectorized) {
    auto valuesType = VectorType::get({vector}, f32);
    auto loadValuesAt = [&](const Chunk &chunk) {
      int64_t bytes = vector * elementType.getIntOrFloatBitWidth() / 8;
      auto [source, indices] = vectorAt(inView, in, chunk);
      Value loaded = vector::LoadOp::create(b, loc, VectorType::get({vector}, elementType),
                                            source, indices, /*nontemporal=*/false,
                                            llvm::MaybeAlign(bytes));
      SmallVector<Value> elements;
      for (int64_t v = 0; v < vector; ++v)
        elements.push_back(applyPrologue(toF32(vector::ExtractOp::create(b, loc, loaded, v))));
      return vector::FromElementsOp::create(b, loc, valuesType, elements).getResult();
    };
    auto loadValues = [&] { return loadValuesAt(chunk); };
    if (chunk.mayPassAxis && clampsPastAxis()) {
      // Where past C, the thread's last chunk in the axis again, masked (clampsPastAxis).
      Value loaded = loadValuesAt(clampedToAxis(chunk));
      Value inAxis = cmpi(arith::CmpIPredicate::ule, chunk.index, lastChunkInAxis);
      for (int64_t v = 0; v < vector; ++v)
        values.push_back(
            select(inAxis, vector::ExtractOp::create(b, loc, loaded, v), negInf()));
      return values;
    }
    Value cond = inTensor(chunk, 0, /*store=*/false);
    Value packed =
        cond ? ifElse(cond, valuesType, loadValues,
                      [&] {
                        return vector::BroadcastOp::create(b, loc, valuesType, negInf())
                            .getResult();
                      })
             : loadValues();
    for (int64_t v = 0; v < vector; ++v)
      values.push_back(vector::ExtractOp::create(b, loc, packed, v));
    return values;
  }
  for (int64_t v = 0; v < vector; ++v) {
    auto loadValue = [&] {
      Value x = memref::LoadOp::create(b, loc, in,
                                       ValueRange{outer, chunk.c, colMid[v], colLast[v]});
      return applyPrologue(toF32(x));
    };
    Value cond = inTensor(chunk, v, /*store=*/false);
    values.push_back(cond ? ifElse(cond, f32, loadValue, [&] { return negInf(); })
                          : loadValue());
  }
  return values;
}

AxisEmitter::Packed AxisEmitter::loadPacked(const Chunk &chunk) {
  Type elementType = op.getInput().getType().getElementType();
  auto rawType = VectorType::get({vector}, elementType);
  auto loadRaw = [&] {
    return vector::LoadOp::create(b, loc, rawType, in,
                                  ValueRange{outer, chunk.c, colMid[0], colLast[0]},
                                  /*nontemporal=*/false, llvm::MaybeAlign(vector * 2))
        .getResult();
  };
  // A tier's scalar factors are positive (launchesForPositiveScalars).
  bool keepsNegInf = op.prologueKeepsNegInf(/*positiveScalars=*/tier);
  // Packed kernels are never lean (usesLeanAddressing): every chunk is guarded.
  Value raw = ifElse(inTensor(chunk, 0, /*store=*/false), rawType, loadRaw, [&] {
    // Past C: -inf as loaded, where the prologue keeps it (constant factors positive: a
    // negative or zero one would make it +inf or NaN; a scalar one in a tier, which is
    // launched where it is positive only), so that no use
    // selects (a select at each use of each chunk that may pass C kept f32 copies: 9 chunks
    // of f16 over a cluster of 8 spilled 12 bytes at 128 registers, C = 2049). Zeros
    // otherwise, and in columns past the tensor's (each column is reduced on its own and
    // those are never stored).
    if (chunk.mayPassAxis && keepsNegInf)
      return negInfOf(rawType);
    return arith::ConstantOp::create(b, loc, rawType, b.getZeroAttr(rawType)).getResult();
  });
  if (!chunk.mayPassAxis || keepsNegInf)
    return {raw, Value()};
  return {raw, cmpi(arith::CmpIPredicate::ult, chunk.c, axisSize)};
}

SmallVector<Value> AxisEmitter::expand(const Packed &packed) {
  Value raw = opaqueWords(packed.raw);
  SmallVector<Value> values;
  for (int64_t v = 0; v < vector; ++v) {
    Value x = applyPrologue(toF32(vector::ExtractOp::create(b, loc, raw, v)));
    values.push_back(packed.inAxis ? select(packed.inAxis, x, negInf()) : x);
  }
  return values;
}

void AxisEmitter::store(const Chunk &chunk, ArrayRef<Value> values) {
  Type elementType = op.getResult().getType().getElementType();
  auto guarded = [&](Value cond, function_ref<void()> body) {
    if (cond)
      ifThen(cond, body);
    else
      body();
  };
  if (vectorized) {
    // Converted as one vector: the back end packs pairs (cvt.rn.bf16x2.f32 / f16x2).
    Value wide = vector::FromElementsOp::create(b, loc, VectorType::get({vector}, f32), values);
    auto vectorType = VectorType::get({vector}, elementType);
    Value packed =
        elementType.isF32() ? wide : Value(arith::TruncFOp::create(b, loc, vectorType, wide));
    int64_t bytes = vector * elementType.getIntOrFloatBitWidth() / 8;
    guarded(inTensor(chunk, 0, /*store=*/true), [&] {
      auto [target, indices] = vectorAt(outView, out, chunk);
      vector::StoreOp::create(b, loc, packed, target, indices, /*nontemporal=*/false,
                              llvm::MaybeAlign(bytes));
    });
    return;
  }
  for (int64_t v = 0; v < vector; ++v) {
    Value converted = fromF32(values[v], elementType);
    guarded(inTensor(chunk, v, /*store=*/true), [&] {
      memref::StoreOp::create(b, loc, converted, out,
                              ValueRange{outer, chunk.c, colMid[v], colLast[v]});
    });
  }
}

SmallVector<AxisEmitter::Tuple>
AxisEmitter::combineRows(SmallVector<Tuple> parts,
                         function_ref<Tuple(const Tuple &, const Tuple &)> merge,
                         int64_t buffer) {
  // Within a warp: the rows of a lane are `lanes` threads apart. The shuffle width stays 32 (a
  // smaller width is not CUDA's segment: MLIR22-NOTES.md); offsets below 32 keep lanes apart.
  int64_t perWarp = rowsPerWarp(plan);
  for (int64_t offset = lanes; offset < lanes * perWarp; offset *= 2) {
    for (Tuple &part : parts) {
      Tuple other;
      for (Value value : part)
        other.push_back(gpu::ShuffleOp::create(b, loc, value, i32Const(offset), i32Const(32),
                                               gpu::ShuffleMode::XOR)
                            .getShuffleResult());
      part = merge(part, other);
    }
  }
  int64_t groups = sharedGroups(plan);
  if (groups == 1)
    return parts;
  // Across warps: one slot per column slot, group and tuple element.
  int64_t columns = lanes * vector;
  auto slot = [&](int64_t element, Value group, int64_t v) {
    return slotAt(buffer, groups, element, group, add(mul(lane, idx(vector)), idx(v)));
  };
  Value group = arith::DivUIOp::create(b, loc, row, idx(perWarp));
  Value writer = cmpi(arith::CmpIPredicate::eq, arith::RemUIOp::create(b, loc, row, idx(perWarp)),
                      idx(0));
  ifThen(writer, [&] {
    for (auto [v, part] : llvm::enumerate(parts))
      for (auto [element, value] : llvm::enumerate(part))
        memref::StoreOp::create(b, loc, value, smem,
                                ValueRange{slot(element, group, static_cast<int64_t>(v))});
  });
  gpu::BarrierOp::create(b, loc);
  size_t n = parts.front().size();
  // Merges, over the groups, the partials of `slots` column slots, those of slot i at
  // `column(i)`: a loop, not unrolled, so that the partials of all groups are not loaded (and
  // held) at once.
  auto mergeGroups = [&](int64_t slots, function_ref<Value(int64_t)> column) {
    auto read = [&](Value g) {
      SmallVector<Value> values;
      for (int64_t i = 0; i < slots; ++i)
        for (size_t element = 0; element < n; ++element)
          values.push_back(memref::LoadOp::create(
              b, loc, smem, ValueRange{slotAt(buffer, groups, element, g, column(i))}));
      return values;
    };
    auto loop = scf::ForOp::create(b, loc, idx(1), idx(groups), idx(1), read(idx(0)));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> other = read(loop.getInductionVar());
      SmallVector<Value> merged;
      for (int64_t i = 0; i < slots; ++i) {
        Tuple l(loop.getRegionIterArgs().begin() + i * n,
                loop.getRegionIterArgs().begin() + (i + 1) * n);
        Tuple r(other.begin() + i * n, other.begin() + (i + 1) * n);
        llvm::append_range(merged, merge(l, r));
      }
      scf::YieldOp::create(b, loc, merged);
    }
    SmallVector<Tuple> results;
    for (int64_t i = 0; i < slots; ++i)
      results.push_back(Tuple(loop.getResults().begin() + i * n,
                              loop.getResults().begin() + (i + 1) * n));
    return results;
  };
  if (!mergesGroupsOnce(plan)) {
    // Every thread of a column merges its groups' partials.
    return mergeGroups(vector, [&](int64_t v) { return add(mul(lane, idx(vector)), idx(v)); });
  }
  SmallVector<Tuple> results;
  // One thread a column slot merges the groups' partials into group 0's slot (only it reads
  // or writes that column's slots), then every thread reads its column slots' results.
  Value thread = add(mul(row, idx(lanes)), lane);
  int64_t threads = lanes * rows;
  for (int64_t start = 0; start < columns; start += threads) {
    Value column = add(thread, idx(start));
    auto body = [&] {
      SmallVector<Tuple> merged = mergeGroups(1, [&](int64_t) { return column; });
      for (auto [element, value] : llvm::enumerate(merged.front()))
        memref::StoreOp::create(b, loc, value, smem,
                                ValueRange{slotAt(buffer, groups, element, idx(0), column)});
    };
    if (start + threads <= columns)
      body();
    else
      ifThen(cmpi(arith::CmpIPredicate::ult, column, idx(columns)), body);
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t v = 0; v < vector; ++v) {
    Value column = add(mul(lane, idx(vector)), idx(v));
    Tuple result;
    for (size_t element = 0; element < n; ++element)
      result.push_back(memref::LoadOp::create(
          b, loc, smem, ValueRange{slotAt(buffer, groups, element, idx(0), column)}));
    results.push_back(result);
  }
  return results;
}

SmallVector<Value> AxisEmitter::combineRows(ArrayRef<Value> parts, bool isMax, int64_t buffer) {
  SmallVector<Tuple> tuples;
  for (Value part : parts)
    tuples.push_back({part});
  SmallVector<Tuple> combined = combineRows(
      tuples,
      [&](const Tuple &l, const Tuple &r) -> Tuple {
        return {isMax ? maxf(l[0], r[0]) : addf(l[0], r[0])};
      },
      buffer);
  return llvm::map_to_vector(combined, [](const Tuple &t) { return t[0]; });
}

Value AxisEmitter::firstAxisValue() {
  if (clusterBlocks == 1)
    return row;
  return add(row, mul(clusterRank, idx(rows * chunks)));
}

void AxisEmitter::combineCluster(SmallVector<Value> &max, SmallVector<Value> &sum) {
  // Row 0 of each block publishes its columns' pairs in its own shared memory (maxima then
  // sums, `lanes * vector` each); after the cluster barrier (arrive has release, wait acquire
  // semantics; it also makes sure every block of the cluster runs, which remote shared memory
  // needs) row 0 reads the pairs of every block through `mapa`, merges them in rank order (so
  // every block computes the same statistics), and hands them to the block's other rows
  // through the second half of the slots and a block barrier. Only row 0 reads remotely: a
  // column's other rows would read the same words. After reading, the block arrives again;
  // the matching wait ends the kernel, so that no block exits while another reads its slots.
  int64_t columns = lanes * vector;
  Value isFirstRow = cmpi(arith::CmpIPredicate::eq, row, idx(0));
  Value slot0 = mul(lane, idx(vector));
  ifThen(isFirstRow, [&] {
    for (int64_t v = 0; v < vector; ++v) {
      memref::StoreOp::create(b, loc, max[v], exchange, ValueRange{add(slot0, idx(v))});
      memref::StoreOp::create(b, loc, sum[v], exchange,
                              ValueRange{add(slot0, idx(columns + v))});
    }
  });
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  ifThen(isFirstRow, [&] {
    auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
    auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
    Value address = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, exchange));
    Value mine = LLVM::IntToPtrOp::create(b, loc, sharedPtr, address);
    Value laneSlots = LLVM::GEPOp::create(
        b, loc, sharedPtr, f32, mine,
        ArrayRef<LLVM::GEPArg>{
            arith::IndexCastOp::create(b, loc, b.getI32Type(), slot0).getResult()});
    // Merged one block after another (rank order), one column at a time: a tree over all
    // the pairs at once held 2 * cluster * vector loaded words live beside the thread's
    // values (a bf16 plan of 32 values over 8 blocks spilled 20 bytes at 64 registers).
    for (int64_t v = 0; v < vector; ++v) {
      Value max, sum;
      for (int64_t r = 0; r < clusterBlocks; ++r) {
        Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, laneSlots, i32Const(r));
        Value remoteMax = LLVM::GEPOp::create(b, loc, clusterPtr, f32, remote,
                                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(v)});
        Value remoteSum = LLVM::GEPOp::create(
            b, loc, clusterPtr, f32, remote,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(columns + v)});
        Value m = LLVM::LoadOp::create(b, loc, f32, remoteMax, /*alignment=*/4);
        Value s = LLVM::LoadOp::create(b, loc, f32, remoteSum, /*alignment=*/4);
        if (r == 0)
          std::tie(max, sum) = std::make_pair(m, s);
        else
          std::tie(max, sum) = mergeMaxSum(max, sum, m, s);
      }
      memref::StoreOp::create(b, loc, max, exchange,
                              ValueRange{add(slot0, idx(2 * columns + v))});
      memref::StoreOp::create(b, loc, sum, exchange,
                              ValueRange{add(slot0, idx(3 * columns + v))});
    }
  });
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  gpu::BarrierOp::create(b, loc);
  for (int64_t v = 0; v < vector; ++v) {
    max[v] = memref::LoadOp::create(b, loc, exchange, ValueRange{add(slot0, idx(2 * columns + v))});
    sum[v] = memref::LoadOp::create(b, loc, exchange, ValueRange{add(slot0, idx(3 * columns + v))});
  }
}

void AxisEmitter::emitRegisterPath() {
  // Axis values c = first + k * rows, k < chunks, all of them in registers (first: the row,
  // plus the block's slice of the column over a cluster).
  SmallVector<Chunk> axisChunks;
  SmallVector<SmallVector<Value>> values;
  SmallVector<Packed> packed;
  Value first = firstAxisValue();
  setColumnViews(first);
  if (clampsPastAxis()) {
    Value lastInAxis = arith::SubIOp::create(b, loc, axisSize, idx(1));
    lastChunkInAxis = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, lastInAxis, first), idx(rows));
  }
  for (int64_t k = 0; k < chunks; ++k) {
    // A static C: chunk k is past C only in rows >= C - k * rows (of the cluster's last
    // block). A tier's C is above axisAbove: a chunk whose axis indices are all at most
    // axisAbove is in it (a lean tier's only: the four-index tiers keep their measured code).
    // Other dynamic C may end before any chunk.
    int64_t staticC = op.getRowWidth();
    int64_t lastSlice = (clusterBlocks - 1) * rows * chunks;
    int64_t reach = lastSlice + (k + 1) * rows; // past the chunk's last axis index
    bool mayPassAxis = !ShapedType::isDynamic(staticC) ? reach > staticC
                       : tier && leanAddressing()  ? reach > axisAbove + 1
                                                   : true;
    axisChunks.push_back({add(first, idx(k * rows)), idx(k), mayPassAxis});
    if (packedValues)
      packed.push_back(loadPacked(axisChunks.back()));
    else
      values.push_back(load(axisChunks.back()));
  }
  if (packedValues) {
    emitPackedRegisterPath(axisChunks, packed);
    return;
  }
  if (op.getNormalization() == Normalization::none) {
    for (int64_t k = 0; k < chunks; ++k)
      store(axisChunks[k], values[k]);
    return;
  }
  SmallVector<Value> localMax;
  for (int64_t v = 0; v < vector; ++v) {
    SmallVector<Value> column;
    for (int64_t k = 0; k < chunks; ++k)
      column.push_back(values[k][v]);
    localMax.push_back(combineAll(column, /*isMax=*/true));
  }
  SmallVector<Value> max = combineRows(localMax, /*isMax=*/true, /*buffer=*/0);
  SmallVector<Value> maxSafe = llvm::map_to_vector(max, [&](Value m) { return safeMax(m); });
  SmallVector<SmallVector<Value>> exps(chunks);
  SmallVector<Value> localSum;
  for (int64_t v = 0; v < vector; ++v) {
    SmallVector<Value> column;
    for (int64_t k = 0; k < chunks; ++k) {
      exps[k].push_back(emitExpShifted(b, loc, values[k][v], maxSafe[v]));
      column.push_back(exps[k].back());
    }
    localSum.push_back(combineAll(column, /*isMax=*/false));
  }
  SmallVector<Value> sum = combineRows(localSum, /*isMax=*/false, /*buffer=*/1);
  // Over a cluster the exps above are relative to the block's max: the normalisation
  // computes them again with the column's.
  if (clusterBlocks > 1)
    combineCluster(max, sum);
  SmallVector<NormalizationStats> stats;
  for (int64_t v = 0; v < vector; ++v)
    stats.push_back(emitNormalizationStats(b, loc, op, max[v], sum[v]));
  for (int64_t k = 0; k < chunks; ++k) {
    SmallVector<Value> results;
    for (int64_t v = 0; v < vector; ++v)
      results.push_back(emitNormalize(b, loc, op, values[k][v],
                                      clusterBlocks > 1 ? Value() : exps[k][v], stats[v]));
    store(axisChunks[k], results);
  }
}

void AxisEmitter::emitPackedRegisterPath(ArrayRef<Chunk> axisChunks, ArrayRef<Packed> packed) {
  SmallVector<Value> localMax;
  if (op.getPrologue().empty()) {
    // Without a prologue each column's max is that of its 16-bit values as loaded, taken two
    // columns an instruction (max.NaN.bf16x2 / f16x2: exact, NaN-propagating as the f32 max,
    // no conversion), -inf past C.
    SmallVector<Value> raw;
    for (const Packed &p : packed)
      raw.push_back(p.inAxis ? select(p.inAxis, p.raw, negInfOf(p.raw.getType())) : p.raw);
    Value rawMax = combineAll(raw, /*isMax=*/true);
    for (int64_t v = 0; v < vector; ++v)
      localMax.push_back(toF32(vector::ExtractOp::create(b, loc, rawMax, v)));
  } else {
    SmallVector<SmallVector<Value>> columns(vector);
    for (int64_t k = 0; k < chunks; ++k) {
      SmallVector<Value> values = expand(packed[k]);
      for (int64_t v = 0; v < vector; ++v)
        columns[v].push_back(values[v]);
    }
    for (int64_t v = 0; v < vector; ++v)
      localMax.push_back(combineAll(columns[v], /*isMax=*/true));
  }
  SmallVector<Value> max = combineRows(localMax, /*isMax=*/true, /*buffer=*/0);
  SmallVector<Value> maxSafe = llvm::map_to_vector(max, [&](Value m) { return safeMax(m); });
  SmallVector<SmallVector<Value>> exps(vector);
  for (int64_t k = 0; k < chunks; ++k) {
    SmallVector<Value> values = expand(packed[k]);
    for (int64_t v = 0; v < vector; ++v)
      exps[v].push_back(emitExpShifted(b, loc, values[v], maxSafe[v]));
  }
  SmallVector<Value> localSum;
  for (int64_t v = 0; v < vector; ++v)
    localSum.push_back(combineAll(exps[v], /*isMax=*/false));
  SmallVector<Value> sum = combineRows(localSum, /*isMax=*/false, /*buffer=*/1);
  if (clusterBlocks > 1)
    combineCluster(max, sum);
  SmallVector<NormalizationStats> stats;
  for (int64_t v = 0; v < vector; ++v)
    stats.push_back(emitNormalizationStats(b, loc, op, max[v], sum[v]));
  for (int64_t k = 0; k < chunks; ++k) {
    SmallVector<Value> values = expand(packed[k]);
    for (int64_t v = 0; v < vector; ++v)
      values[v] = emitNormalize(b, loc, op, values[v], Value(), stats[v]);
    store(axisChunks[k], values);
  }
}

void AxisEmitter::emitOnlinePath() {
  // The scalar kernel's spans hold up to kMaxScalarKernelValues values whatever its block size:
  // with half as many in blocks of 512, a static C of a few spans (whose loops LLVM unrolls)
  // spilled 16 bytes where these did not (test/Pipelines/ptxas-no-spills-axis.mlir, c2304_f16).
  int64_t chunks = vectorized ? this->chunks
                              : std::min(plan.getChunks(),
                                         std::max<int64_t>(1, kMaxScalarKernelValues / vector));
  Value span = idx(rows * chunks);
  int64_t staticC = op.getRowWidth();
  bool compensated =
      ShapedType::isDynamic(staticC) || llvm::divideCeil(staticC, rows * chunks) > kMaxPlainSpans;
  // The loops' bound from the view's C even where the type's is static (the loops stay
  // rolled; the chunk guards use the static C).
  Value spans =
      arith::CeilDivUIOp::create(b, loc, memref::DimOp::create(b, loc, in, 1), span);
  // Chunk k of span i: axis index i * span + row + k * rows, row i * chunks + k of the column
  // views. Past C only in a span that C ends within.
  setColumnViews(row);
  bool mayPassAxis = ShapedType::isDynamic(staticC) || staticC % (rows * chunks) != 0;
  auto chunkAt = [&](Value i, int64_t k) -> Chunk {
    return {add(add(mul(i, span), row), idx(k * rows)), add(mul(i, idx(chunks)), idx(k)),
            mayPassAxis};
  };
  SmallVector<NormalizationStats> stats;
  if (op.getNormalization() != Normalization::none) {
    // Pass 1: a running max and sum per column over this thread's axis values. Over many
    // spans (kMaxPlainSpans) the sum is compensated (Neumaier): a few additions a span and
    // column, and one register a column.
    SmallVector<Value> init;
    for (int64_t v = 0; v < vector; ++v)
      init.push_back(negInf());
    for (int64_t v = 0; v < (compensated ? 2 : 1) * vector; ++v)
      init.push_back(f32Const(0.0));
    auto loop = scf::ForOp::create(b, loc, idx(0), spans, idx(1), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<SmallVector<Value>> values;
      for (int64_t k = 0; k < chunks; ++k)
        values.push_back(load(chunkAt(loop.getInductionVar(), k)));
      SmallVector<Value> newMaxes, newSums, newCompensations;
      for (int64_t v = 0; v < vector; ++v) {
        Value max = loop.getRegionIterArgs()[v];
        Value sum = loop.getRegionIterArgs()[vector + v];
        Value compensation = compensated ? loop.getRegionIterArgs()[2 * vector + v] : Value();
        SmallVector<Value> column;
        for (int64_t k = 0; k < chunks; ++k)
          column.push_back(values[k][v]);
        Value newMax = maxf(max, combineAll(column, /*isMax=*/true));
        Value safe = safeMax(newMax);
        // The running sum and its compensation rescaled to the new max: * exp(max - newMax).
        Value rescale = emitExpShifted(b, loc, max, safe);
        Value running = mulf(sum, rescale);
        SmallVector<Value> terms;
        for (Value x : column)
          terms.push_back(emitExpShifted(b, loc, x, safe));
        Value spanSum = combineAll(terms, /*isMax=*/false);
        Value total = addf(running, spanSum);
        newMaxes.push_back(newMax);
        newSums.push_back(total);
        if (!compensated)
          continue;
        // Neumaier's step: the rounding error of running + spanSum, from the larger operand
        // (both are >= 0).
        Value runningLarger =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, running, spanSum);
        Value large = select(runningLarger, running, spanSum);
        Value small = select(runningLarger, spanSum, running);
        Value error = addf(arith::SubFOp::create(b, loc, large, total), small);
        newCompensations.push_back(addf(mulf(compensation, rescale), error));
      }
      SmallVector<Value> yielded = newMaxes;
      llvm::append_range(yielded, newSums);
      llvm::append_range(yielded, newCompensations);
      scf::YieldOp::create(b, loc, yielded);
    }
    SmallVector<Tuple> parts;
    for (int64_t v = 0; v < vector; ++v)
      parts.push_back({loop.getResult(v),
                       compensated ? addf(loop.getResult(vector + v),
                                          loop.getResult(2 * vector + v))
                                   : loop.getResult(vector + v)});
    // (max, sum) pairs, each sum relative to its own max (mergeMaxSum).
    SmallVector<Tuple> combined = combineRows(
        parts,
        [&](const Tuple &l, const Tuple &r) -> Tuple {
          auto [m, s] = mergeMaxSum(l[0], l[1], r[0], r[1]);
          return {m, s};
        },
        /*buffer=*/0);
    for (const Tuple &t : combined)
      stats.push_back(emitNormalizationStats(b, loc, op, t[0], t[1]));
  }
  // Pass 2: the column read again, normalised and stored.
  auto loop = scf::ForOp::create(b, loc, idx(0), spans, idx(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  for (int64_t k = 0; k < chunks; ++k) {
    Chunk chunk = chunkAt(loop.getInductionVar(), k);
    SmallVector<Value> values = load(chunk);
    if (op.getNormalization() != Normalization::none)
      for (int64_t v = 0; v < vector; ++v)
        values[v] = emitNormalize(b, loc, op, values[v], Value(), stats[v]);
    store(chunk, values);
  }
}

void AxisEmitter::emit() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  in = entry.getArgument(0);
  out = entry.getArgument(1);
  for (unsigned i = 0; i < op.getSideOperands().size(); ++i) {
    Value arg = entry.getArgument(2 + i);
    scalarFactors.push_back(isa<FloatType>(arg.getType()) ? toF32(arg) : Value());
  }
  // Workgroup buffers (buildAxisKernel): the rows' reduction slots, then a cluster's exchange.
  auto buffers = func.getWorkgroupAttributions();
  if (clusterBlocks > 1 && op.getNormalization() != Normalization::none) {
    exchange = buffers.back();
    buffers = buffers.drop_back();
  }
  if (!buffers.empty())
    smem = buffers.front();

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = arith::RemUIOp::create(b, loc, tid, idx(lanes));
  row = arith::DivUIOp::create(b, loc, tid, idx(lanes));
  // Sizes the op's type knows are constants (a static C then needs no compare in the chunks
  // it cannot pass, a static `last` no division by a value).
  RankedTensorType inputType = op.getInput().getType();
  int64_t rank = inputType.getRank();
  int64_t axis = op.getNormalizedAxis();
  bool hasMid = axis + 1 < rank - 1;
  auto sizeOf = [&](int64_t viewDim, int64_t from, int64_t to) -> Value {
    if (!leanAddressing())
      return memref::DimOp::create(b, loc, in, viewDim);
    int64_t size = 1;
    for (int64_t d = from; d < to; ++d) {
      if (inputType.isDynamicDim(d))
        return memref::DimOp::create(b, loc, in, viewDim);
      size *= inputType.getDimSize(d);
    }
    return idx(size);
  };
  axisSize = sizeOf(1, axis, axis + 1);
  Value mid = sizeOf(2, axis + 1, hasMid ? rank - 1 : axis + 1);
  Value last = sizeOf(3, rank - 1, rank);
  std::optional<int64_t> staticMid = getConstantIntValue(mid),
                         staticLast = getConstantIntValue(last);
  std::optional<int64_t> staticInner;
  if (staticMid && staticLast)
    staticInner = *staticMid * *staticLast;
  Value inner = staticInner ? idx(*staticInner) : mul(mid, last);
  // Block (outer index, column block): the grid is outer * ceil(inner / (lanes * vector)).
  int64_t columns = lanes * vector;
  Value columnBlocks = arith::CeilDivUIOp::create(b, loc, inner, idx(columns));
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  if (clusterBlocks > 1) {
    // `clusterBlocks` consecutive blocks (a cluster of (clusterBlocks, 1, 1)) share columns.
    clusterRank = arith::RemUIOp::create(b, loc, block, idx(clusterBlocks));
    block = arith::DivUIOp::create(b, loc, block, idx(clusterBlocks));
  }
  outer = arith::DivUIOp::create(b, loc, block, columnBlocks);
  Value first = mul(arith::RemUIOp::create(b, loc, block, columnBlocks), idx(columns));
  // The axis is the second to last: mid is 1 and a column is its `last` index. Every column
  // is in the tensor where a static inner size is whole blocks of columns.
  bool wholeBlocks = leanAddressing() && staticInner && *staticInner % columns == 0;
  auto addColumn = [&](Value j) {
    colValid.push_back(wholeBlocks ? Value() : cmpi(arith::CmpIPredicate::ult, j, inner));
    // A lean kernel loads a column past the tensor's from column 0 instead (each column is
    // reduced on its own, and those are not stored), so that no load waits on the column's
    // guard: with each chunk's load guarded so, ptxas spilled 12-96 bytes at every budget from
    // 96 to 128 (f32 C = 4096 over 147 columns, generator seed 50 of the strided_axis family).
    if (leanAddressing() && colValid.back())
      j = select(colValid.back(), j, idx(0));
    if (!hasMid) {
      colMid.push_back(idx(0));
      colLast.push_back(j);
      return;
    }
    colMid.push_back(arith::DivUIOp::create(b, loc, j, last));
    colLast.push_back(arith::RemUIOp::create(b, loc, j, last));
  };
  if (vectorized) {
    addColumn(add(first, mul(lane, idx(vector))));
  } else {
    for (int64_t v = 0; v < vector; ++v)
      addColumn(add(first, add(idx(v * lanes), lane)));
  }

  // The scalar kernel holds f32 values: a plan of more than it may hold (packed 16-bit) gives
  // it fewer chunks, and so a smaller capacity (the online path beyond it).
  if (!vectorized)
    chunks = std::min(chunks, std::max<int64_t>(1, getMaxScalarKernelValues(plan) / vector));
  int64_t capacity = rows * chunks * clusterBlocks;
  int64_t staticC = op.getRowWidth();
  if (tier) {
    assert(vectorized && "a tier has a vector kernel only");
    emitRegisterPath();
  } else if (!ShapedType::isDynamic(staticC)) {
    if (staticC <= capacity)
      emitRegisterPath();
    else
      emitOnlinePath();
  } else {
    // Uniform over the grid: every thread takes the same path (the barriers of the reductions
    // are reached by the whole block).
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{},
                                  cmpi(arith::CmpIPredicate::ule, axisSize, idx(capacity)),
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    emitRegisterPath();
    b.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
    emitOnlinePath();
  }
  // The wait of the cluster barrier's last phase (combineCluster): no block leaves while
  // another may still read its slots.
  if (clusterBlocks > 1 && op.getNormalization() != Normalization::none)
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  gpu::ReturnOp::create(b, loc);
}

/// `tier`: the kernel of a dynamic C's tier (the register path only; AxisEmitter::tier).
gpu::GPUFuncOp buildAxisKernel(OpBuilder &builder, gpu::GPUModuleOp module, StringRef name,
                               FusedOp op, StrategyAttr plan, bool vectorized, bool tier,
                               int64_t axisAbove, const TargetInfo &target) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  MLIRContext *context = builder.getContext();
  auto type = FunctionType::get(context, getAxisKernelParameterTypes(op), {});
  SmallVector<Type> workgroup;
  int64_t groups = sharedGroups(plan);
  auto space = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto sharedF32 = [&](int64_t size) {
    return MemRefType::get({size}, builder.getF32Type(), MemRefLayoutAttrInterface(), space);
  };
  if (groups > 1 && op.getNormalization() != Normalization::none)
    workgroup.push_back(sharedF32(2 * groups * plan.getLanes() * plan.getVector()));
  // Over a cluster: the block's (max, sum) pairs, read by the cluster, and the merged ones.
  if (getAxisKernelClusterBlocks(plan, vectorized) > 1 &&
      op.getNormalization() != Normalization::none)
    workgroup.push_back(sharedF32(4 * plan.getLanes() * plan.getVector()));
  auto func = gpu::GPUFuncOp::create(builder, op.getLoc(), name, type, workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), builder.getUnitAttr());
  int32_t threads = static_cast<int32_t>(plan.getBlockSize());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr({threads, 1, 1}));
  // The register budget the plan was sized for (SelectStrategy's axis planner), not the
  // occupancy that `.maxntid` alone would make ptxas aim at. The scalar kernel, for layouts
  // that are not whole aligned vectors (rare), holds each column's indices and validity apart:
  // it gets every register a block of its size may have, so that it does not spill either.
  int64_t limit = target.registersPerThread(threads);
  bool packed = holdsPackedValues(op, plan, vectorized, tier);
  bool converted = op.getInput().getType().getElementTypeBitWidth() < 32;
  bool overCluster = vectorized && getAxisKernelClusterBlocks(plan, vectorized) > 1;
  int64_t needed = packed ? getPackedStridedAxisRegisters(plan.getLanes(), plan.getRows(),
                                                       plan.getVector(), plan.getChunks(),
                                                       !op.getPrologue().empty(), tier)
                       : getStridedAxisRegisters(plan.getVector(), plan.getChunks(),
                                                 op.getNormalization() ==
                                                     Normalization::log_softmax,
                                                 !op.getPrologue().empty(),
                                                 usesLeanAddressing(op, plan, vectorized, tier),
                                                 tier, converted, overCluster);
  // At least 64 (80 over a cluster: a bf16 plan of 32 values, which took the 64 it had, spilled
  // 20 bytes there with the exchange), at most the block's limit.
  int64_t floor = std::min<int64_t>(overCluster ? 80 : 64, limit);
  int64_t registers =
      vectorized ? std::clamp<int64_t>(llvm::alignTo(needed, 8), floor, limit) : limit;
  // A lean vector kernel (usesLeanAddressing), any over a cluster and any that holds 16-bit
  // values packed gets every register its blocks a multiprocessor leave: the most that keeps
  // as many blocks resident as the estimate does. ptxas's spills are not monotone in the
  // budget (f32 C = 512 on 16 chunks of 4: none at 88, 16 bytes at 96; a dynamic C's tier of
  // 16 chunks in blocks of 512: 96 bytes at 96, none at 128; 12 packed chunks of 8 in blocks
  // of 512, bf16 C = 1500 and 3000 static and the tiers at three quarters: 16 bytes at 112,
  // none at 120 or 128), and registers under the occupancy's step buy nothing. Over a
  // cluster, room for the exchange's addresses and merged pairs without a block less: 9
  // chunks of f16 values over 8 blocks spilled 32 bytes at 96 registers, where up to 128 keep
  // the same two blocks of 256; bf16 plans at 128 with 8 registers more would have one block
  // of 256 a multiprocessor.
  if (overCluster || usesLeanAddressing(op, plan, vectorized, tier) || packed) {
    int64_t resident = std::max<int64_t>(1, target.registersPerSM / (threads * registers));
    registers = std::clamp<int64_t>(
        llvm::alignDown(target.registersPerSM / (threads * resident), 8), registers, limit);
  }
  // A dynamic C's packed tier over a cluster (rule 6, 2 lanes x 128 rows x 16 chunks of 8 in
  // blocks of 256) takes 112, the same two blocks a multiprocessor as 128: over a static inner
  // size of 1024 (axis 0 of `?x?x1024`) the tiers of 8192 and 16384 spilled 4-16 bytes at 128,
  // bf16 and f16, and elsewhere 16 at 120; none of the 32 probed spilled at 112 (ptxas -v,
  // 2026-12-06; its spills are not monotone in the budget). Blocks of 256 or more only: a
  // hand-written tier of 64 lanes x 2 rows x 16 chunks of 8 over 8 blocks (blocks of 128, four
  // a multiprocessor at 112 or 128) spilled 8 bytes at 112, none at 120-255 (generator seed 81
  // of the strided_axis family, 2026-12-06, fifteenth session).
  if (packed && tier && overCluster && threads >= 256)
    registers = std::min<int64_t>(registers, kPackedClusterTierRegisters);
  // Blocks of fewer than 256 threads holding packed values over a cluster take 136 (in the
  // examples and test/Pipelines only hand-written plans have them): ptxas's spills there are
  // not monotone in the budget, and 136 is the one budget probed that none spilled at: 2 lanes
  // x 64 rows x 16 chunks of 8, f16 to bf16 over 2 blocks, 4 bytes at 128, none at 104-120 or
  // 136 (generator seed 1551 of the strided_axis family); 2 lanes x 16 rows x 16 after a scale
  // by a scalar over 4 blocks, 24 and 12 bytes at 112 and 120, none at 128 and 136, 12 at 144
  // (seed 1805); seed 81's tier above none at 120-255; the 61 such programs of seeds 1-2400
  // none (2026-12-07). It costs a block of 128 threads one of its four blocks a multiprocessor.
  if (packed && overCluster && threads < 256)
    registers = std::min<int64_t>(kPackedSmallBlockClusterRegisters, limit);
  // An f32 log_softmax over a dynamic inner size, with no prologue, in blocks of 256 takes 120
  // where its lean kernel would take 128 (the same two blocks a multiprocessor): the tier of
  // C = 64 (64 lanes x 4 rows x 16 chunks of 4) spilled 8 bytes at 128, none at 120, as none
  // of the others of the probe did there (getStridedAxisRegisters; with a scale some tiers
  // spill 4 bytes at 120 and none at 128, and the tier of 1536 in blocks of 512 32 bytes at
  // 120, so those keep 128; ptxas -v, 2026-12-07).
  if (usesLeanAddressing(op, plan, vectorized, tier) && !overCluster && !converted &&
      threads <= 256 &&
      op.getNormalization() == Normalization::log_softmax && op.getPrologue().empty() &&
      !op.getStaticInnerSize())
    registers = std::min<int64_t>(registers, kDynamicInnerLogRegisters);
  func->setAttr("nvvm.maxnreg", builder.getI32IntegerAttr(static_cast<int32_t>(registers)));
  // LLVM assumes 16-byte aligned shared arrays and merges accesses; the PTX must say so too.
  for (unsigned i = 0; i < workgroup.size(); ++i)
    func.setWorkgroupAttributionAttr(i, "llvm.align", builder.getI64IntegerAttr(16));
  AxisEmitter(builder, op, plan, func, vectorized, tier, axisAbove).emit();
  return func;
}

/// Host code: whether the vector kernel applies (uniform over the grid): both pointers aligned
/// to a vector, and offsets, the strides of outer, C and mid and the size of `last` multiples
/// of one, so that every thread's vector lies within one `last` row and is aligned.
Value buildVectorCondition(OpBuilder &b, Location loc, StrategyAttr plan, Value inView,
                           Value outView) {
  int64_t vector = plan.getVector();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  auto isMultiple = [&](Value v, int64_t of) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(b, loc, v, c(of)), c(0));
  };
  Value ok;
  auto both = [&](Value cond) { ok = ok ? arith::AndIOp::create(b, loc, ok, cond) : cond; };
  for (Value view : {inView, outView}) {
    auto type = cast<MemRefType>(view.getType());
    int64_t bytes = vector * type.getElementTypeBitWidth() / 8;
    both(isMultiple(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view), bytes));
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
    both(isMultiple(meta.getOffset(), vector));
    for (int64_t d = 0; d < 3; ++d)
      both(isMultiple(meta.getStrides()[d], vector));
    if (view == inView)
      both(isMultiple(meta.getSizes()[3], vector));
  }
  return ok;
}

} // namespace

bool mlir::softmax::isStridedAxisOp(FusedOp op) {
  return op.getNormalizedAxis() != op.getInput().getType().getRank() - 1;
}

LogicalResult mlir::softmax::checkStridedAxisSupported(FusedOp op) {
  for (Attribute step : op.getPrologue())
    if (!isa<ScaleStepAttr, ScaleByStepAttr, RoundStepAttr>(step))
      return op.emitOpError()
             << "softmax-lower-to-gpu: prologue step " << step
             << " is not supported over a non-last axis (axis " << op.getNormalizedAxis()
             << " of a rank-" << op.getInput().getType().getRank()
             << " tensor): the strided_axis kernels take scale, scale_by and round steps only; "
                "move the axis last (a transpose) to use the row kernels";
  return success();
}

void mlir::softmax::lowerStridedAxis(OpBuilder &builder, gpu::GPUModuleOp module, FusedOp op,
                                     Value input, Value output, ValueRange scalars,
                                     function_ref<std::string(StringRef)> kernelName,
                                     const TargetInfo &target) {
  Location loc = op.getLoc();
  auto plans = llvm::to_vector(op.getStrategiesAttr().getAsRange<StrategyAttr>());
  StrategyAttr plan = plans.back(); // the general plan: any C, any layout
  ArrayRef<StrategyAttr> tiers = ArrayRef(plans).drop_back();
  int64_t axis = op.getNormalizedAxis();
  bool hasVectorKernel = plan.getVector() > 1;
  gpu::GPUFuncOp vectorKernel;
  if (hasVectorKernel)
    vectorKernel = buildAxisKernel(builder, module, kernelName("strided_axis"), op, plan,
                                   /*vectorized=*/true, /*tier=*/false, /*axisAbove=*/0, target);
  StrategyAttr scalarPlan = scalarKernelPlan(plan);
  gpu::GPUFuncOp scalarKernel =
      buildAxisKernel(builder, module,
                      kernelName(hasVectorKernel ? "strided_axis_scalar" : "strided_axis"), op,
                      scalarPlan, /*vectorized=*/false, /*tier=*/false, /*axisAbove=*/0, target);
  // A dynamic C's tiers, each named after its capacity. The dispatch below launches a tier
  // where no earlier one applied: C is past the capacity of each earlier tier of the same
  // vector size (the same vector condition).
  SmallVector<gpu::GPUFuncOp> tierKernels;
  for (auto [i, tier] : llvm::enumerate(tiers)) {
    int64_t axisAbove = 0;
    // An earlier tier for positive scalar factors (launchesForPositiveScalars) counts for
    // tiers for them only: elsewhere it may have been passed over for a factor's sign.
    for (StrategyAttr earlier : tiers.take_front(i))
      if (earlier.getVector() == tier.getVector() &&
          (!launchesForPositiveScalars(op, earlier) || launchesForPositiveScalars(op, tier)))
        axisAbove = std::max(axisAbove, earlier.getAxisCapacity());
    tierKernels.push_back(buildAxisKernel(
        builder, module, kernelName(("strided_axis_c" + Twine(tier.getAxisCapacity())).str()),
        op, tier, /*vectorized=*/true, /*tier=*/true, axisAbove, target));
  }

  SmallVector<Value> operands{buildAxisView(builder, loc, input, axis),
                              buildAxisView(builder, loc, output, axis)};
  llvm::append_range(operands, scalars);

  // Sizes from the full-rank input (the host interpreter of the C++ API reads them there).
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); };
  auto type = cast<MemRefType>(input.getType());
  Value outer = c(1), inner = c(1), axisSize, nonEmpty;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = memref::DimOp::create(builder, loc, input, d);
    Value positive = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, size, c(0));
    nonEmpty = nonEmpty ? arith::AndIOp::create(builder, loc, nonEmpty, positive) : positive;
    if (d < axis)
      outer = arith::MulIOp::create(builder, loc, outer, size);
    else if (d > axis)
      inner = arith::MulIOp::create(builder, loc, inner, size);
    else
      axisSize = size;
  }
  // Nothing to do for an empty tensor (and a grid of zero blocks is a launch error).
  auto guard = scf::IfOp::create(builder, loc, TypeRange{}, nonEmpty, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertionGuard(builder);
  builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  // A plan's grid: a block for each `lanes * vector` columns of each outer index.
  auto gridOf = [&](StrategyAttr kernelPlan) -> Value {
    Value columnBlocks = arith::CeilDivUIOp::create(
        builder, loc, inner, c(kernelPlan.getLanes() * kernelPlan.getVector()));
    return arith::MulIOp::create(builder, loc, outer, columnBlocks);
  };
  // A kernel that spreads columns over a cluster has `cluster` consecutive blocks for each
  // of the plan's blocks, launched in clusters of (cluster, 1, 1).
  auto launch = [&](gpu::GPUFuncOp kernel, StrategyAttr kernelPlan, Value blocks,
                    bool vectorized) {
    int64_t clusterBlocks = getAxisKernelClusterBlocks(kernelPlan, vectorized);
    std::optional<gpu::KernelDim3> cluster;
    if (clusterBlocks > 1) {
      blocks = arith::MulIOp::create(builder, loc, blocks, c(clusterBlocks));
      cluster = gpu::KernelDim3{c(clusterBlocks), c(1), c(1)};
    }
    gpu::LaunchFuncOp::create(builder, loc, kernel, gpu::KernelDim3{blocks, c(1), c(1)},
                              gpu::KernelDim3{c(kernelPlan.getBlockSize()), c(1), c(1)},
                              /*dynamicSharedMemorySize=*/Value(), operands,
                              /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, cluster);
  };
  Value blocks = gridOf(plan);
  // Whether the vector kernels of `vector` elements apply, built once a vector size.
  llvm::SmallDenseMap<int64_t, Value> vectorConditions;
  auto vectorCondition = [&](StrategyAttr kernelPlan) {
    Value &cond = vectorConditions[kernelPlan.getVector()];
    if (!cond)
      cond = buildVectorCondition(builder, loc, kernelPlan, operands[0], operands[1]);
    return cond;
  };
  // Whether every scalar factor is positive as the kernels read it (in f32; a tier of
  // launchesForPositiveScalars needs it), built once.
  Value positiveScalars;
  auto positiveCondition = [&]() {
    if (positiveScalars)
      return positiveScalars;
    for (Attribute step : op.getPrologue()) {
      auto scaleBy = dyn_cast<ScaleByStepAttr>(step);
      if (!scaleBy)
        continue;
      Value factor = scalars[scaleBy.getOperand()];
      // f16 and bf16 widen to f32 exactly: compared as they are; f64 as rounded to f32 (a
      // positive f64 may round to zero there).
      if (factor.getType().isF64())
        factor = arith::TruncFOp::create(builder, loc, builder.getF32Type(), factor);
      Value zero = arith::ConstantOp::create(builder, loc, factor.getType(),
                                             builder.getZeroAttr(factor.getType()));
      Value positive =
          arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGT, factor, zero);
      positiveScalars =
          positiveScalars ? arith::AndIOp::create(builder, loc, positiveScalars, positive)
                          : positive;
    }
    return positiveScalars;
  };
  // if (C <= capacity of tier 0 && its vectors apply) launch tier 0, else if ... tier 1, ...,
  // else the general plan's kernels.
  for (auto [tier, kernel] : llvm::zip_equal(tiers, tierKernels)) {
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule, axisSize,
                                       c(tier.getAxisCapacity()));
    Value cond = arith::AndIOp::create(builder, loc, fits, vectorCondition(tier));
    if (launchesForPositiveScalars(op, tier))
      cond = arith::AndIOp::create(builder, loc, cond, positiveCondition());
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, cond, /*withElseRegion=*/true);
    builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    launch(kernel, tier, gridOf(tier), /*vectorized=*/true);
    builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  }
  if (!hasVectorKernel)
    return launch(scalarKernel, scalarPlan, blocks, /*vectorized=*/false);
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, vectorCondition(plan),
                                /*withElseRegion=*/true);
  builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
  launch(vectorKernel, plan, blocks, /*vectorized=*/true);
  builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  launch(scalarKernel, scalarPlan, blocks, /*vectorized=*/false);
}
