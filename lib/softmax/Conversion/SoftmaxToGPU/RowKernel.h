//===- RowKernel.h - GPU kernels for one softmax.fused plan -----*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: the kernel of one (fused op, plan) pair and the
// memref types shared by the kernels and the host code that launches them.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>

namespace mlir::softmax {

/// The memref a tensor becomes on the host and in kernels: the same shape, any offset, any
/// strides but a unit innermost one.
MemRefType getStridedMemRefType(ShapedType type);

/// The two-dimensional view of rows that a kernel reads or writes: memref<?x?xT, strided<[?, 1],
/// offset: ?>>.
MemRefType getRowsMemRefType(Type elementType);

/// The parameters of the kernel of `op`, in order: input rows, output rows, the side operands
/// (strided memrefs or scalars), then the sizes of the input's leading dimensions (index).
SmallVector<Type> getRowKernelParameterTypes(FusedOp op);

/// f32 slots for the reductions at the start of a row_shared kernel's dynamic shared memory;
/// the row follows them.
int64_t getRowSharedReductionSlots(StrategyAttr plan);

/// The grid of the kernel of `plan` for `rowCount` rows (host code). A block works through
/// groups of `plan.getRows()` rows, as many as ceil(groups / grid): the register pipelined
/// plans take several once the rows are plenty, loading each group while computing the last;
/// consecutive groups, or groups a grid apart where a group holds 8 KB of input or more
/// (getStridedWalkWidth), as many a block as leave about 16 blocks for each one the
/// multiprocessors hold at once. `width`: the row width (index).
enum class RowKernelVariant;
Value buildBlockCount(OpBuilder &builder, Location loc, FusedOp op, StrategyAttr plan,
                      RowKernelVariant variant, Value rowCount, Value width,
                      const TargetInfo &target);

/// The narrowest row whose groups the kernel of `plan` walks a grid apart (blockId, blockId +
/// grid, ...) rather than consecutively: the pipelined plans of rows no -inf mask cuts short,
/// from 8 KB of input a group; none for the others.
std::optional<int64_t> getStridedWalkWidth(FusedOp op, StrategyAttr plan,
                                           const TargetInfo &target);

/// Whether the kernel of `op` with `plan` loads each row group while computing the last one
/// (register plans over 16-bit inputs: TargetInfo.h, isPipelinedInput), where a block of the
/// plan's threads leaves `target`'s registers for the next row's values.
bool isPipelined(FusedOp op, StrategyAttr plan, const TargetInfo &target);

/// Whether the row_cluster kernel of `op` with `plan` holds its row's 16-bit values as loaded,
/// two a 32-bit register, converting them again at each of their three uses (the max, the sum,
/// the normalisation, whose exps are computed again): FusedOp::mayHoldPackedRowValues, on
/// vectors of an even size, more than 32 values a thread. It needs about 24 registers fewer
/// for 64 values a thread (ptxas: 80 against 104), which gives 16-bit rows three blocks of 256
/// threads a multiprocessor rather than two (getRowKernelRegisters). Where f32 values fit
/// without costing occupancy, the conversions and exps a second time cost more than they
/// gain: 32 values a thread (bf16 32768 columns on 2 blocks of 512 lanes: 0.76x copy with f32
/// values, 0.69x packed), and row_registers plans (1024 lanes of 32: 0.85x against 0.71x;
/// bench/results/2026-12-03-h200/packed-rows-*.txt).
bool holdsPackedRowValues(FusedOp op, StrategyAttr plan);

/// The code a kernel of a plan holds. A plan whose rows can be fast (hasFastVariant) gets two
/// kernels, and the host launches one of them for the whole grid:
///  - Fast: every row starts on a vector boundary and is whole vectors, input and output (and
///    any bias along the row) aligned alike, sizes below 2^30: 32-bit row and column arithmetic,
///    no edge columns, no per-row alignment arithmetic (buildFastVariantCondition);
///  - General: any rows; vectors with edge columns and 64-bit indices where the operands are
///    misaligned alike, else one scalar column a lane in a loop.
/// Two kernels rather than one with both paths: ptxas gives a kernel the registers of its
/// hungriest path, and the general path's 64-bit arithmetic costs the fast one occupancy (bf16
/// N = 1024 on sm_90: 104 registers with both, 77 for the fast path alone).
///  - Full (hasFullVariant): the fast kernel of a dynamic width's tier built for rows exactly
///    as wide as the plan's span, launched where the width is the span (the top of the tier:
///    4096, 16384...). It is the static kernel of that width: its tests a chunk fold away and
///    it keeps the occupancy budget that the tier's fast kernel cannot (its live tests spill
///    there), and its lanes, warps and column strides are constants where an elastic fast
///    kernel's are run-time values, so a dynamic program runs as its static twin does.
enum class RowKernelVariant { Fast, Full, General };

/// Whether `op`'s prologue has a step with an operand: a scalar factor, a bias, a boolean mask.
bool hasStepWithOperand(FusedOp op);

/// The register budget (`nvvm.maxnreg`) of the kernel of `op` with `plan` in `variant`
/// (RowKernelRegisters.cpp).
int64_t getRowKernelRegisters(FusedOp op, StrategyAttr plan, RowKernelVariant variant,
                              const TargetInfo &target);

/// The registers a thread of that kernel needs by the plans' estimate (its values, side
/// operands, edge columns, the prologue's state), before the budget clamps it to the block's
/// share of the multiprocessor or an occupancy target. Not for row_staged plans or values held
/// packed (holdsPackedRowValues), whose budgets are their own.
int64_t getRowKernelRegisterNeed(FusedOp op, StrategyAttr plan, RowKernelVariant variant,
                                 const TargetInfo &target);

/// Whether a dynamic-width `op` gets a Full kernel for `plan` beside the fast one: a
/// multi_row or row_registers plan whose fast kernel would get a smaller budget at a width of
/// exactly its span, or a pipelined (16-bit) one whose fast kernel takes its lanes from the
/// launch (hasElasticLanes).
bool hasFullVariant(FusedOp op, StrategyAttr plan, const TargetInfo &target);

/// Whether the kernel of `op` with `plan` in `variant` takes its lanes from the launch: a
/// row_registers plan of several warps a row, for a dynamic width, in the fast and general
/// variants (the Full one runs rows of the plan's span). The block is then (lanes, rows): the
/// warps that a row's values fill at the plan's values a thread, up to the plan's lanes
/// (buildBlockSize), so that a row narrower than its tier's span keeps every warp busy as its
/// static twin does (bf16 3000 columns in the 4096 tier of 512 lanes x 8: 384 lanes, not 512).
bool hasElasticLanes(FusedOp op, StrategyAttr plan, RowKernelVariant variant);

/// Host code: the block of a launch of the kernel of `op` with `plan` in `variant` for rows of
/// `width` columns: the plan's block, or for elastic lanes (hasElasticLanes) the lanes that
/// the width needs and the plan's rows.
gpu::KernelDim3 buildBlockSize(OpBuilder &builder, Location loc, FusedOp op, StrategyAttr plan,
                               RowKernelVariant variant, Value width);

/// Whether rows of `op` can take the fast variant with `plan` (its vectors are wider than one
/// element, the static width allows it, and a thread's span is wide enough to profit).
bool hasFastVariant(FusedOp op, StrategyAttr plan);

/// Host code: whether the fast variant applies to the launch of `op` with `plan` on
/// `kernelOperands` (the kernel's parameters, getRowKernelParameterTypes). Needs
/// hasFastVariant(op, plan).
Value buildFastVariantCondition(OpBuilder &builder, FusedOp op, StrategyAttr plan,
                                ValueRange kernelOperands);

/// Builds `gpu.func @name` in `module` computing `op` with `plan`, holding `variant`'s code
/// (Fast needs hasFastVariant, Full hasFullVariant). Rows are the input's leading dimensions
/// collapsed; the op's axis must be the last.
gpu::GPUFuncOp buildRowKernel(OpBuilder &builder, gpu::GPUModuleOp module, StringRef name,
                              FusedOp op, StrategyAttr plan, RowKernelVariant variant,
                              const TargetInfo &target);

/// The kernels of a row_split plan, in launch order. Rows are split into spans of
/// `lanes * vector * chunks` columns past the row's head, one block each:
///  - Partial (rows * G blocks, G = ceil(width / span)): each block's (max, sum) of its span
///    (and of the row's edge columns, in the first block), written as two f32 words into the
///    first vector of its span in the output row;
///  - Combine (one block a row): the row's (max, sum) from its blocks', written back into every
///    block's words;
///  - Normalize (rows * G blocks): each block reads the row's (max, sum) from its words, then
///    normalises its span, reading it again (from L2 where the rows are few), and writes it
///    over them.
/// The output is the only workspace, so a launch needs no allocation, and concurrent launches
/// on other streams (or in CUDA graphs) share nothing.
/// With `cluster` K > 1 the plan is one launch instead:
///  - Cluster (rows * K blocks in clusters of K): each block takes ceil(spans / K) consecutive
///    spans of its row, the blocks' (max, sum) merged through distributed shared memory (as
///    row_cluster's), then each normalises its spans, reading them again.
enum class RowSplitPhase { Partial, Combine, Normalize, Cluster };

/// Builds `gpu.func @name` in `module` computing `phase` of `op` with the row_split `plan`.
/// With `dependentLaunches` (sm_90 on) the three phases overlap their launches: Partial and
/// Combine let the next phase's blocks start at once (`griddepcontrol.launch_dependents`), and
/// Combine and Normalize wait for the phase before them to finish and its words to be visible
/// (`griddepcontrol.wait`) before they read any; the host launches Combine and Normalize as
/// programmatic dependent launches (kDependentLaunchAttrName). Launched without, the wait
/// returns at once and the phases run one after the other as any launches on a stream.
gpu::GPUFuncOp buildRowSplitKernel(OpBuilder &builder, gpu::GPUModuleOp module, StringRef name,
                                   FusedOp op, StrategyAttr plan, RowSplitPhase phase,
                                   bool dependentLaunches, const TargetInfo &target);


/// Host code: the blocks a row_split launch gives each row of `width` (index) columns,
/// ceil(width / span).
Value buildRowSplitBlocks(OpBuilder &builder, Location loc, StrategyAttr plan, Value width);

/// Host code: whether the row_split kernels take a launch of `op` on `kernelOperands` with
/// `rowCount` rows of `width` columns: the input and output rows misaligned alike (vectors
/// with edge columns) and sizes below 2^30; for the three launches also the grid within
/// 2^31 - 1, every row a whole span past its head, and the input and output disjoint. Otherwise the host launches the plan's
/// fallback (getRowSplitFallback), which takes any operands.
Value buildRowSplitCondition(OpBuilder &builder, FusedOp op, StrategyAttr plan,
                             ValueRange kernelOperands, Value rowCount, Value width);

/// The chunked_online plan of a row_split plan's lanes, vector and chunks: its one-block-a-row
/// kernel takes the launches the split kernels do not (buildRowSplitCondition).
StrategyAttr getRowSplitFallback(StrategyAttr plan);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H
