//===- LowerToGPU.cpp - softmax.fused to kernels and host code ------------===//
//
// A function on tensors becomes a host function on memrefs in destination-passing style; each
// softmax.fused op becomes a kernel launch (one kernel per entry of its `strategies`, dispatched
// on the row width at run time when there are several).
//
//===----------------------------------------------------------------------===//

#include "softmax/Conversion/Passes.h"

#include "AxisKernel.h"
#include "RowKernel.h"
#include "RowStagedKernel.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_LOWERTOGPUPASS
#include "softmax/Conversion/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;
using namespace mlir::softmax;

namespace {

constexpr StringLiteral kKernelModuleName = "softmax_kernels";

bool isSoftmaxOp(Operation *op) { return isa<SoftmaxDialect>(op->getDialect()); }

/// `name` made a PTX identifier ([A-Za-z_][A-Za-z0-9_]*: every other byte becomes `_`) and,
/// with a `_<n>` suffix where needed, distinct from every symbol in `symbolTableOp`.
std::string uniqueSymbolName(Operation *symbolTableOp, StringRef name) {
  std::string base = name.str();
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (base.empty() || llvm::isDigit(base.front()))
    base.insert(base.begin(), '_');
  std::string candidate = base;
  for (int64_t n = 0; SymbolTable::lookupSymbolIn(symbolTableOp, candidate); ++n)
    candidate = base + "_" + std::to_string(n);
  return candidate;
}

/// The name of a new kernel in `kernels`: `name` sanitized and uniqued (see uniqueSymbolName).
std::string uniqueKernelName(gpu::GPUModuleOp kernels, StringRef name) {
  return uniqueSymbolName(kernels, name);
}

/// Checks the plans of `op` against the limits of `target`: the block size, the cluster size of
/// row_cluster, the bulk copies of row_staged, and for row_shared and row_staged the dynamic
/// shared memory the widest row it handles needs (as the launch in lowerFused and the kernels
/// lay it out).
LogicalResult checkTargetLimits(FusedOp op, const TargetInfo &target) {
  for (auto [i, plan] : llvm::enumerate(op.getStrategiesAttr().getAsRange<StrategyAttr>())) {
    if (plan.getBlockSize() > target.maxThreadsPerBlock)
      return op.emitOpError() << "'strategies' entry " << i << " (" << plan
                              << ") has blocks of " << plan.getBlockSize() << " threads, but "
                              << target.chip << " allows at most " << target.maxThreadsPerBlock;
    if ((plan.getPlan() == KernelPlan::row_cluster || plan.getPlan() == KernelPlan::row_staged ||
         plan.getPlan() == KernelPlan::row_split || plan.getPlan() == KernelPlan::strided_axis) &&
        plan.getCluster() > std::max<int64_t>(1, target.clusterBlocks))
      return op.emitOpError() << "'strategies' entry " << i << " (" << plan << ") spreads a "
                              << (plan.getPlan() == KernelPlan::strided_axis ? "column" : "row")
                              << " over a cluster of " << plan.getCluster()
                              << " blocks, but " << target.chip
                              << (target.clusterBlocks
                                      ? " allows at most " + std::to_string(target.clusterBlocks)
                                      : std::string(" has no thread-block clusters (sm_90 on)"));
    if (plan.getPlan() == KernelPlan::row_staged && !target.bulkCopies)
      return op.emitOpError() << "'strategies' entry " << i << " (" << plan
                              << ") stages rows by bulk asynchronous copies (cp.async.bulk), "
                                 "which "
                              << target.chip << " lacks (sm_90 on)";
    bool shared = plan.getPlan() == KernelPlan::row_shared;
    // A two-pass plan holds a span's values in registers: one whose estimate (the span's
    // values, its side operands) passes what a block of its threads may have spills, hundreds
    // of bytes (hand-written chunked_online plans of 64 values on 1024 threads: 208-356
    // bytes, generated seeds 650, 1382, 1386, 1522). The chosen plans fit by construction.
    if (shared || plan.getPlan() == KernelPlan::chunked_online) {
      int64_t need = getRowKernelRegisterNeed(op, plan, RowKernelVariant::Fast, target);
      int64_t room = target.registersPerThread(plan.getBlockSize());
      if (need > room)
        return op.emitOpError()
               << "'strategies' entry " << i << " (" << plan << ") needs about " << need
               << " registers a thread for its " << plan.getVector() * plan.getChunks()
               << " values a span, but a block of " << plan.getBlockSize() << " threads leaves "
               << room << " on " << target.chip
               << "; use fewer values a span (vector x chunks) or fewer threads a block";
    }
    if (!shared && plan.getPlan() != KernelPlan::row_staged)
      continue;
    int64_t width = op.getRowWidth();
    bool dynamic = ShapedType::isDynamic(width);
    if (dynamic)
      width = plan.getMaxWidth();
    // row_shared: the reduction slots, then the row as f32 in whole vectors; row_staged: its
    // header, then the row as stored in whole 16-byte words (RowStagedKernel.cpp).
    int64_t bytes = shared ? llvm::alignTo(width, plan.getVector()) * 4 +
                                 4 * getRowSharedReductionSlots(plan)
                           : plan.getStagedSharedBytes(width);
    if (bytes > target.sharedMemoryPerBlock)
      return op.emitOpError() << "'strategies' entry " << i << " (" << plan << ") needs "
                              << bytes << " bytes of shared memory for "
                              << (dynamic ? "the widest row it is dispatched (" : "a row of ")
                              << width << (dynamic ? " elements)" : " elements") << ", but "
                              << target.chip << " gives a block at most "
                              << target.sharedMemoryPerBlock
                              << "; use chunked_online (softmax-select-strategy chooses for the "
                                 "chip given by its 'chip' option)";
  }
  return success();
}

/// The rows of `memref` (any rank >= 1, last dimension the row) as
/// memref<?x?xT, strided<[?, 1], offset: ?>>.
Value viewAsRows(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value rows = memref;
  if (type.getRank() == 1) {
    SmallVector<OpFoldResult> shape{b.getIndexAttr(1)};
    if (type.isDynamicDim(0))
      shape.push_back(memref::DimOp::create(b, loc, memref, 0).getResult());
    else
      shape.push_back(b.getIndexAttr(type.getDimSize(0)));
    SmallVector<ReassociationIndices> reassociation{{0, 1}};
    SmallVector<int64_t> staticShape{1, type.getDimSize(0)};
    FailureOr<MemRefType> expanded =
        memref::ExpandShapeOp::computeExpandedType(type, staticShape, reassociation);
    rows = memref::ExpandShapeOp::create(b, loc, *expanded, memref, reassociation, shape);
  } else if (type.getRank() > 2) {
    ReassociationIndices leading = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank() - 1));
    SmallVector<ReassociationIndices> reassociation{leading, {type.getRank() - 1}};
    rows = memref::CollapseShapeOp::create(b, loc, memref, reassociation);
  }
  return memref::CastOp::create(b, loc, getRowsMemRefType(type.getElementType()), rows);
}

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, gpu::GPUModuleOp kernels, const TargetInfo &target)
      : func(func), kernels(kernels), target(target), builder(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult checkSupported();
  LogicalResult lowerFused(FusedOp op, Value destination);
  /// The kernels of one plan: the general one, and the fast one where the plan has it.
  struct PlanKernels {
    gpu::GPUFuncOp general, fast, full;
    /// row_split: its Partial, Combine and Normalize kernels (general is its fallback).
    SmallVector<gpu::GPUFuncOp, 3> split;
  };
  /// Launches `kernels`: its fast (and full) kernels behind their host tests, else its
  /// general one, built as `variant`.
  void launch(FusedOp op, StrategyAttr plan, PlanKernels kernels,
              ArrayRef<Value> kernelOperands, Value rowCount, Value width,
              RowKernelVariant variant = RowKernelVariant::General);
  /// Launches a row_split plan's three kernels where they apply, else its fallback.
  void launchSplit(FusedOp op, StrategyAttr plan, PlanKernels kernels,
                   ArrayRef<Value> kernelOperands, Value rowCount, Value width);
  /// Launches a row_split plan's kernels (three launches, or one over a cluster).
  void launchSplitKernels(FusedOp op, StrategyAttr plan, PlanKernels kernels,
                          ArrayRef<Value> kernelOperands, Value rowCount, Value width);
  /// Launches the fast kernel of `kernels`, or its full one where the width is the span; the
  /// caller has tested that the fast variant applies.
  void launchFast(FusedOp op, StrategyAttr plan, PlanKernels kernels,
                  ArrayRef<Value> kernelOperands, Value rowCount, Value width);
  Value memrefFor(Value tensor) { return memrefs.lookup(tensor); }

  func::FuncOp func;
  gpu::GPUModuleOp kernels;
  const TargetInfo &target;
  OpBuilder builder;
  IRMapping scalars;
  DenseMap<Value, Value> memrefs; ///< tensor value -> its device buffer
  int64_t kernelCount = 0;
};

LogicalResult FunctionLowering::checkSupported() {
  for (Type type : func.getArgumentTypes())
    if (!isa<RankedTensorType, IntegerType, FloatType, IndexType>(type))
      return func.emitError() << "softmax-lower-to-gpu: unsupported argument type " << type;
  for (Type type : func.getResultTypes())
    if (!isa<RankedTensorType>(type))
      return func.emitError() << "softmax-lower-to-gpu: results must be ranked tensors, got "
                              << type;
  WalkResult result = func.walk([&](Operation *op) {
    if (auto fused = dyn_cast<FusedOp>(op)) {
      if (isStridedAxisOp(fused) && failed(checkStridedAxisSupported(fused)))
        return WalkResult::interrupt();
      if (!fused.getStrategiesAttr()) {
        fused.emitOpError("has no 'strategies': run softmax-select-strategy first");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (isSoftmaxOp(op)) {
      op->emitOpError("must be fused before softmax-lower-to-gpu: run softmax-fuse first");
      return WalkResult::interrupt();
    }
    if (op == func || isa<func::ReturnOp>(op))
      return WalkResult::advance();
    if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<ShapedType>) ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<ShapedType>)) {
      op->emitOpError("on tensors is not supported by softmax-lower-to-gpu");
      return WalkResult::interrupt();
    }
    if (op->getNumRegions() != 0) {
      op->emitOpError("with regions is not supported by softmax-lower-to-gpu");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void FunctionLowering::launch(FusedOp op, StrategyAttr plan, PlanKernels planKernels,
                              ArrayRef<Value> kernelOperands, Value rowCount, Value width,
                              RowKernelVariant variant) {
  if (plan.getPlan() == KernelPlan::row_split)
    return launchSplit(op, plan, planKernels, kernelOperands, rowCount, width);
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard insertionGuard(builder);
  gpu::GPUFuncOp kernel = planKernels.general;
  if (planKernels.fast) {
    // if (the rows are aligned, whole vectors and small) fast else general (RowKernel.h).
    Value fast = buildFastVariantCondition(builder, op, plan, kernelOperands);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, fast, /*withElseRegion=*/true);
    builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    launchFast(op, plan, planKernels, kernelOperands, rowCount, width);
    builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  }
  Value blocks = buildBlockCount(builder, loc, op, plan, variant, rowCount, width, target);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  gpu::KernelDim3 threads = buildBlockSize(builder, loc, op, plan, variant, width);
  Value sharedBytes;
  if (plan.getPlan() == KernelPlan::row_shared) {
    // The reduction slots, then the row as f32 rounded up to whole vectors (RowKernel.cpp).
    Value vector = arith::ConstantIndexOp::create(builder, loc, plan.getVector());
    Value vectors = arith::CeilDivUIOp::create(builder, loc, width, vector);
    Value bytes = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, vectors,
                              arith::ConstantIndexOp::create(builder, loc, plan.getVector() * 4)),
        arith::ConstantIndexOp::create(builder, loc, 4 * getRowSharedReductionSlots(plan)));
    sharedBytes = arith::IndexCastOp::create(builder, loc, builder.getI32Type(), bytes);
  } else if (plan.getPlan() == KernelPlan::row_staged) {
    sharedBytes = buildRowStagedSharedBytes(builder, loc, plan, width);
  }
  // row_cluster, and row_staged with a cluster: a cluster of blocks a row (the grid is a whole
  // number of clusters; row_staged's size follows the width).
  std::optional<gpu::KernelDim3> cluster;
  if (plan.getPlan() == KernelPlan::row_cluster)
    cluster = gpu::KernelDim3{arith::ConstantIndexOp::create(builder, loc, plan.getCluster()),
                              one, one};
  auto launchKernel = [&] {
    gpu::LaunchFuncOp::create(builder, loc, kernel, gpu::KernelDim3{blocks, one, one},
                              threads, sharedBytes, kernelOperands,
                              /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, cluster);
  };
  if (plan.getPlan() == KernelPlan::row_staged && plan.getCluster() > 1) {
    // A row on one block is launched without a cluster (the kernel then finds a cluster of
    // one): a cluster launch of one block a row ran 10-27% slower on the H200 (bf16 20000-
    // 50257 columns, bench/results/2026-12-04-h200/staged-cluster.txt).
    Value clusterBlocks = buildRowStagedClusterBlocks(builder, loc, plan, width);
    std::optional<int64_t> constantBlocks = getConstantIntValue(clusterBlocks);
    if (constantBlocks == 1)
      return launchKernel();
    Value single;
    if (!constantBlocks) {
      single = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, clusterBlocks, one);
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, single, /*withElseRegion=*/true);
      builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
      launchKernel();
      builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
    }
    cluster = gpu::KernelDim3{clusterBlocks, one, one};
  }
  launchKernel();
}

void FunctionLowering::launchSplit(FusedOp op, StrategyAttr plan, PlanKernels planKernels,
                                   ArrayRef<Value> kernelOperands, Value rowCount, Value width) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard insertionGuard(builder);
  // if (the split kernels apply) partial; combine; normalize else fallback (RowKernel.h).
  Value applies = buildRowSplitCondition(builder, op, plan, kernelOperands, rowCount, width);
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, applies, /*withElseRegion=*/true);
  builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
  launchSplitKernels(op, plan, planKernels, kernelOperands, rowCount, width);
  builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  launch(op, getRowSplitFallback(plan), {planKernels.general, {}, {}, {}}, kernelOperands,
         rowCount, width);
}

void FunctionLowering::launchSplitKernels(FusedOp op, StrategyAttr plan, PlanKernels planKernels,
                                          ArrayRef<Value> kernelOperands, Value rowCount,
                                          Value width) {
  Location loc = op.getLoc();
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  gpu::KernelDim3 threads{arith::ConstantIndexOp::create(builder, loc, plan.getLanes()), one, one};
  if (plan.getCluster() > 1) {
    // One launch: a cluster of blocks a row.
    Value blocks = arith::ConstantIndexOp::create(builder, loc, plan.getCluster());
    gpu::LaunchFuncOp::create(builder, loc, planKernels.split.front(),
                              gpu::KernelDim3{arith::MulIOp::create(builder, loc, rowCount, blocks),
                                              one, one},
                              threads, /*dynamicSharedMemorySize=*/Value(), kernelOperands,
                              /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
                              gpu::KernelDim3{blocks, one, one});
  } else {
    Value spread = arith::MulIOp::create(builder, loc, rowCount,
                                         buildRowSplitBlocks(builder, loc, plan, width));
    // Launches on one stream run in order: each phase sees the last one's words. Where the
    // target has them, Combine and Normalize are dependent launches that start while the phase
    // before them finishes (buildRowSplitKernel).
    Value grids[] = {spread, rowCount, spread};
    for (auto [i, kernel, blocks] : llvm::enumerate(planKernels.split, grids)) {
      auto launch = gpu::LaunchFuncOp::create(builder, loc, kernel,
                                              gpu::KernelDim3{blocks, one, one}, threads,
                                              /*dynamicSharedMemorySize=*/Value(), kernelOperands);
      if (i > 0 && target.dependentLaunches)
        launch->setAttr(kDependentLaunchAttrName, builder.getUnitAttr());
    }
  }
}

void FunctionLowering::launchFast(FusedOp op, StrategyAttr plan, PlanKernels planKernels,
                                  ArrayRef<Value> kernelOperands, Value rowCount, Value width) {
  OpBuilder::InsertionGuard insertionGuard(builder);
  if (planKernels.full) {
    // if (width == span) full else fast.
    Location loc = op.getLoc();
    Value span = arith::ConstantIndexOp::create(builder, loc, plan.getSpan());
    Value isSpan = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, width, span);
    auto full = scf::IfOp::create(builder, loc, TypeRange{}, isSpan, /*withElseRegion=*/true);
    builder.setInsertionPoint(full.getThenRegion().front().getTerminator());
    launch(op, plan, {planKernels.full, {}, {}, {}}, kernelOperands, rowCount, width,
           RowKernelVariant::Full);
    builder.setInsertionPoint(full.getElseRegion().front().getTerminator());
  }
  launch(op, plan, {planKernels.fast, {}, {}, {}}, kernelOperands, rowCount, width,
         RowKernelVariant::Fast);
}

LogicalResult FunctionLowering::lowerFused(FusedOp op, Value destination) {
  Location loc = op.getLoc();
  Value input = memrefFor(op.getInput());
  if (isStridedAxisOp(op)) {
    // A non-last axis: the strided_axis kernels (AxisKernel.h); side operands are scalars.
    std::string base = (func.getSymName() + "_" + Twine(kernelCount++)).str();
    SmallVector<Value> sideScalars = llvm::map_to_vector(
        op.getSideOperands(), [&](Value side) { return scalars.lookup(side); });
    lowerStridedAxis(builder, kernels, op, input, destination, sideScalars,
                     [&](StringRef suffix) {
                       return uniqueKernelName(kernels, (base + "_" + suffix).str());
                     },
                     target);
    return success();
  }
  SmallVector<Value> operands{viewAsRows(builder, loc, input),
                              viewAsRows(builder, loc, destination)};
  for (Value side : op.getSideOperands())
    operands.push_back(isa<ShapedType>(side.getType()) ? memrefFor(side)
                                                       : scalars.lookup(side));
  auto inputType = cast<MemRefType>(input.getType());
  for (int64_t d = 0; d + 1 < inputType.getRank(); ++d)
    operands.push_back(memref::DimOp::create(builder, loc, input, d));

  Value rowCount = memref::DimOp::create(builder, loc, operands[0], 0);
  Value width = memref::DimOp::create(builder, loc, operands[0], 1);

  // The kernels, in dispatch order. With a static width only the first plan that fits runs.
  SmallVector<StrategyAttr> plans = llvm::to_vector(op.getStrategiesAttr().getAsRange<StrategyAttr>());
  int64_t staticWidth = op.getRowWidth();
  if (!ShapedType::isDynamic(staticWidth)) {
    auto fits = llvm::find_if(plans, [&](StrategyAttr plan) {
      return succeeded(plan.verifyRowWidth(nullptr, staticWidth));
    });
    if (fits == plans.end())
      return op.verifyStrategies();
    // A row_split followed by another entry keeps it: the rows are split where they are fewer
    // than the multiprocessors, the next entry runs the others (a dynamic row count).
    if (fits->getPlan() == KernelPlan::row_split && fits + 1 != plans.end())
      plans = {*fits, *(fits + 1)};
    else
      plans = {*fits};
  }
  // Alternatives (softmax.fused): a whole-row plan followed by one of the same maximum width
  // runs only its fast (and Full) kernel, where it applies; the last of them has the general
  // kernel too.
  auto hasAlternative = [&](size_t i) {
    return i + 1 < plans.size() && plans[i].holdsWholeRow() &&
           plans[i + 1].getMaxWidth() == plans[i].getMaxWidth();
  };
  std::string base = (func.getSymName() + "_" + Twine(kernelCount++)).str();
  SmallVector<PlanKernels> kernelFuncs;
  for (auto [i, plan] : llvm::enumerate(plans)) {
    std::string name = base + "_" + stringifyKernelPlan(plan.getPlan()).str();
    if (plans.size() > 1)
      name += "_" + std::to_string(i);
    PlanKernels planKernels;
    if (plan.getPlan() == KernelPlan::row_split) {
      // Followed by another entry, that entry takes what the split does not (no fallback of its
      // own).
      bool rowCountAlternative = i + 1 < plans.size();
      if (plan.getCluster() > 1)
        planKernels.split.push_back(
            buildRowSplitKernel(builder, kernels, uniqueKernelName(kernels, name + "_cluster"),
                                op, plan, RowSplitPhase::Cluster, /*dependentLaunches=*/false,
                                target));
      else
        for (auto [phase, suffix] : {std::pair{RowSplitPhase::Partial, "_partial"},
                                     std::pair{RowSplitPhase::Combine, "_combine"},
                                     std::pair{RowSplitPhase::Normalize, "_normalize"}})
          planKernels.split.push_back(buildRowSplitKernel(
              builder, kernels, uniqueKernelName(kernels, name + suffix), op, plan, phase,
              target.dependentLaunches, target));
      if (!rowCountAlternative)
        planKernels.general =
            buildRowKernel(builder, kernels, uniqueKernelName(kernels, name + "_fallback"), op,
                           getRowSplitFallback(plan), RowKernelVariant::General, target);
      kernelFuncs.push_back(planKernels);
      continue;
    }
    if (hasFastVariant(op, plan)) {
      planKernels.fast = buildRowKernel(builder, kernels, uniqueKernelName(kernels, name), op,
                                        plan, RowKernelVariant::Fast, target);
      // Only the first of a group of alternatives gets a Full kernel: a width of the span runs
      // its fast kernel wherever the rows are aligned.
      bool firstAlternative = i == 0 || !plans[i - 1].holdsWholeRow() ||
                              plans[i - 1].getMaxWidth() != plan.getMaxWidth();
      if (firstAlternative && hasFullVariant(op, plan, target))
        planKernels.full = buildRowKernel(builder, kernels,
                                          uniqueKernelName(kernels, name + "_full"), op, plan,
                                          RowKernelVariant::Full, target);
      name += "_general";
    }
    // An alternative followed by another has no general kernel (without a fast one it never
    // runs: the verifier does not know the variants).
    if (!hasAlternative(i))
      planKernels.general = buildRowKernel(builder, kernels, uniqueKernelName(kernels, name),
                                           op, plan, RowKernelVariant::General, target);
    kernelFuncs.push_back(planKernels);
  }

  // Nothing to do for an empty tensor (and a grid of zero blocks is a launch error).
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value nonEmpty = arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, rowCount, zero),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, width, zero));
  auto guard = scf::IfOp::create(builder, loc, TypeRange{}, nonEmpty, false);
  OpBuilder::InsertionGuard insertionGuard(builder);
  builder.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  // Dispatch: if (width <= max_0) plan_0 else if (width <= max_1) plan_1 ... else the last
  // (max_i: StrategyAttr::getDispatchWidth);
  // within a group of alternatives, if (fast_0 applies) plan_0's fast kernel else if ... else
  // the last alternative.
  for (size_t i = 0; i < plans.size(); ++i) {
    StrategyAttr plan = plans[i];
    if (plan.getPlan() == KernelPlan::row_split && i + 1 < plans.size()) {
      // A row-count alternative: if (rows < multiprocessors and the split applies) split else
      // the entries after it.
      Value few = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, rowCount,
          arith::ConstantIndexOp::create(builder, loc, target.multiprocessors));
      Value applies = arith::AndIOp::create(
          builder, loc, few,
          buildRowSplitCondition(builder, op, plan, operands, rowCount, width));
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, applies, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard splitGuard(builder);
        builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
        launchSplitKernels(op, plan, kernelFuncs[i], operands, rowCount, width);
      }
      builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
      continue;
    }
    if (i + 1 == plans.size() || !plan.holdsWholeRow()) {
      launch(op, plan, kernelFuncs[i], operands, rowCount, width);
      break;
    }
    Value maxWidth = arith::ConstantIndexOp::create(builder, loc, plan.getDispatchWidth());
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule, width, maxWidth);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, fits, true);
    builder.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    {
      OpBuilder::InsertionGuard alternativesGuard(builder);
      for (; hasAlternative(i); ++i) {
        if (!kernelFuncs[i].fast)
          continue;
        Value fast = buildFastVariantCondition(builder, op, plans[i], operands);
        auto alternative =
            scf::IfOp::create(builder, loc, TypeRange{}, fast, /*withElseRegion=*/true);
        builder.setInsertionPoint(alternative.getThenRegion().front().getTerminator());
        launchFast(op, plans[i], kernelFuncs[i], operands, rowCount, width);
        builder.setInsertionPoint(alternative.getElseRegion().front().getTerminator());
      }
      launch(op, plans[i], kernelFuncs[i], operands, rowCount, width);
    }
    builder.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  }
  return success();
}

LogicalResult FunctionLowering::run() {
  if (failed(checkSupported()))
    return failure();
  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  FunctionType oldType = func.getFunctionType();

  // Tensors become strided memrefs; results become trailing output arguments.
  auto convert = [](Type type) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return getStridedMemRefType(tensor);
    return type;
  };
  SmallVector<Type> argTypes = llvm::map_to_vector(oldType.getInputs(), convert);
  for (Type result : oldType.getResults())
    argTypes.push_back(convert(result));

  builder.setInsertionPoint(func);
  auto host = func::FuncOp::create(builder, loc, func.getSymName(),
                                   FunctionType::get(context, argTypes, {}));
  host.setVisibility(func.getVisibility());
  host->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
  Block *entry = host.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  unsigned numInputs = oldType.getNumInputs();
  for (auto [oldArg, newArg] : llvm::zip(func.getArguments(), entry->getArguments())) {
    if (isa<RankedTensorType>(oldArg.getType()))
      memrefs[oldArg] = newArg;
    else
      scalars.map(oldArg, newArg);
  }
  ArrayRef<BlockArgument> outputs = entry->getArguments().drop_front(numInputs);

  // A fused result that is returned is computed straight into its output buffer. Anything
  // else (an argument, a value returned twice) needs the copy that softmax-fuse inserts.
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  DenseMap<Value, Value> destinations;
  for (auto [i, value] : llvm::enumerate(returnOp.getOperands())) {
    if (!value.getDefiningOp<FusedOp>() || destinations.count(value))
      return returnOp.emitOpError()
             << "result " << i
             << " is not a softmax.fused result of its own (an argument, or a value returned "
                "twice): run softmax-fuse, which inserts the copy";
    destinations[value] = outputs[i];
  }

  SmallVector<Value> temporaries;
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (auto fused = dyn_cast<FusedOp>(op)) {
      Value destination = destinations.lookup(fused.getResult());
      if (!destination) {
        // An intermediate tensor: a device buffer for the rest of the call.
        auto type = cast<RankedTensorType>(fused.getType());
        SmallVector<Value> sizes;
        Value input = memrefFor(fused.getInput());
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(builder, loc, input, d));
        // gpu-to-llvm lowers the async forms only: wait on nothing, allocate, wait.
        auto tokenType = gpu::AsyncTokenType::get(context);
        Value ready = gpu::WaitOp::create(builder, loc, tokenType, ValueRange()).getAsyncToken();
        auto alloc = gpu::AllocOp::create(
            builder, fused.getLoc(), MemRefType::get(type.getShape(), type.getElementType()),
            tokenType, ValueRange{ready}, sizes, /*symbolOperands=*/ValueRange());
        gpu::WaitOp::create(builder, loc, Type(), ValueRange{alloc.getAsyncToken()});
        temporaries.push_back(alloc.getMemref());
        destination = memref::CastOp::create(builder, loc, getStridedMemRefType(type),
                                             alloc.getMemref());
      }
      if (failed(lowerFused(fused, destination)))
        return failure();
      memrefs[fused.getResult()] = destination;
      continue;
    }
    builder.clone(op, scalars);
  }
  for (Value buffer : temporaries) {
    auto tokenType = gpu::AsyncTokenType::get(context);
    Value ready = gpu::WaitOp::create(builder, loc, tokenType, ValueRange()).getAsyncToken();
    Value done = gpu::DeallocOp::create(builder, loc, tokenType, ValueRange{ready}, buffer)
                     .getAsyncToken();
    gpu::WaitOp::create(builder, loc, Type(), ValueRange{done});
  }
  func::ReturnOp::create(builder, loc);
  func.erase();
  return success();
}

struct LowerToGPUPass : softmax::impl::LowerToGPUPassBase<LowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetInfo> target = TargetInfo::forChip(chip);
    if (!target) {
      module.emitError() << "softmax-lower-to-gpu: unknown chip '" << chip
                         << "' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)";
      return signalPassFailure();
    }
    if (maxRegisters != 0 && (maxRegisters < 24 || maxRegisters > 255)) {
      module.emitError() << "softmax-lower-to-gpu: max-registers must be 0 (each plan's own "
                            "budget) or in [24, 255], got "
                         << static_cast<int64_t>(maxRegisters);
      return signalPassFailure();
    }
    if (failed(checkReachable(module)))
      return signalPassFailure();

    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>()) {
      bool hasSoftmaxOps = !func.isExternal() &&
                           func.walk([](Operation *op) {
                                 return isSoftmaxOp(op) ? WalkResult::interrupt()
                                                        : WalkResult::advance();
                               }).wasInterrupted();
      if (!hasSoftmaxOps) {
        if (failed(checkNoTensors(func)))
          return signalPassFailure();
        continue;
      }
      std::string cInterface = ("_mlir_ciface_" + func.getSymName()).str();
      if (Operation *clash = module.lookupSymbol(cInterface)) {
        InFlightDiagnostic diag = func.emitError()
                                  << "softmax-lower-to-gpu: the C interface of @"
                                  << func.getSymName() << " would be named '" << cInterface
                                  << "', but the module already has a symbol of that name";
        diag.attachNote(clash->getLoc()) << "that symbol";
        return signalPassFailure();
      }
      WalkResult limits = func.walk([&](FusedOp op) {
        if (op.getStrategiesAttr() && failed(checkTargetLimits(op, *target)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (limits.wasInterrupted())
        return signalPassFailure();
      functions.push_back(func);
    }
    if (functions.empty())
      return;

    MLIRContext *context = &getContext();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(context));
    OpBuilder builder(context);
    builder.setInsertionPointToEnd(module.getBody());
    // A module of its own, whatever symbols the user's module already has.
    auto kernels = gpu::GPUModuleOp::create(builder, module.getLoc(),
                                            uniqueSymbolName(module, kKernelModuleName));

    for (func::FuncOp func : functions) {
      if (func.getBody().getBlocks().size() != 1) {
        func.emitError("softmax-lower-to-gpu: functions must have a single block");
        return signalPassFailure();
      }
      if (failed(FunctionLowering(func, kernels, *target).run()))
        return signalPassFailure();
    }
    if (maxRegisters != 0)
      kernels.walk([&](gpu::GPUFuncOp kernel) {
        if (auto budget = kernel->getAttrOfType<IntegerAttr>("nvvm.maxnreg"))
          kernel->setAttr("nvvm.maxnreg",
                          builder.getI32IntegerAttr(static_cast<int32_t>(
                              std::min<int64_t>(budget.getInt(), maxRegisters))));
      });
    if (modulePerKernel)
      splitKernels(module, kernels);
  }

private:
  /// Moves each kernel of `kernels` into a gpu.module of its own, named after the kernel (made
  /// unique among `module`'s symbols), in the same order, and points the launches at it.
  static void splitKernels(ModuleOp module, gpu::GPUModuleOp kernels) {
    OpBuilder builder(module.getContext());
    builder.setInsertionPointAfter(kernels);
    StringAttr oldName = kernels.getSymNameAttr();
    llvm::DenseMap<StringAttr, SymbolRefAttr> moved;
    for (auto kernel : llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>())) {
      auto own = gpu::GPUModuleOp::create(builder, kernel.getLoc(),
                                          uniqueSymbolName(module, kernel.getName()));
      kernel->moveBefore(own.getBody(), own.getBody()->end());
      moved[kernel.getNameAttr()] = SymbolRefAttr::get(
          own.getSymNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
    }
    kernels.erase();
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() == oldName)
        launch.setKernelAttr(moved.lookup(launch.getKernelName()));
    });
  }

  /// The pass lowers the softmax ops of the functions directly in `module`; any other would
  /// be left behind and fail obscurely later.
  static LogicalResult checkReachable(ModuleOp module) {
    WalkResult result = module.walk([&](Operation *op) {
      if (!isSoftmaxOp(op))
        return WalkResult::advance();
      auto func = op->getParentOfType<func::FuncOp>();
      if (func && func->getParentOp() == module)
        return WalkResult::advance();
      Operation *outer = op;
      while (outer->getParentOp() != module)
        outer = outer->getParentOp();
      InFlightDiagnostic diag = op->emitOpError()
                                << "is not lowered by softmax-lower-to-gpu, which lowers the "
                                   "softmax ops of func.func functions directly in the "
                                   "top-level module; this one is inside '"
                                << op->getParentOp()->getName() << "'";
      if (outer != op->getParentOp())
        diag << " in '" << outer->getName() << "'";
      if (auto symbol = dyn_cast<SymbolOpInterface>(outer))
        diag << " @" << symbol.getName();
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  /// A function without softmax ops is left alone, unless it has tensors: nothing later in the
  /// pipeline lowers those.
  static LogicalResult checkNoTensors(func::FuncOp func) {
    auto isTensor = llvm::IsaPred<TensorType>;
    if (llvm::any_of(func.getArgumentTypes(), isTensor) ||
        llvm::any_of(func.getResultTypes(), isTensor)) {
      if (func.isExternal())
        return func.emitError() << "softmax-lower-to-gpu: declaration @" << func.getSymName()
                                << " has tensors in its signature, and nothing lowers it";
      return func.emitError() << "softmax-lower-to-gpu: function @" << func.getSymName()
                              << " has tensors but no softmax op, and nothing lowers it (a "
                                 "returned argument becomes a softmax op in softmax-fuse)";
    }
    WalkResult result = func.walk([&](Operation *op) {
      if (llvm::none_of(op->getOperandTypes(), isTensor) &&
          llvm::none_of(op->getResultTypes(), isTensor))
        return WalkResult::advance();
      op->emitOpError() << "on tensors is not supported by softmax-lower-to-gpu (function @"
                        << func.getSymName() << " has no softmax op)";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace
