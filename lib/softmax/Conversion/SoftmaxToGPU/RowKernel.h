//===- RowKernel.h - GPU kernels for one softmax.fused plan -----*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: the kernel of one (fused op, plan) pair and the
// memref types shared by the kernels and the host code that launches them.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

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
/// consecutive groups of `plan.getRows()` rows, as many as ceil(groups / grid): the register
/// pipelined plans take several once the rows are plenty, loading each group while computing the
/// last.
Value buildBlockCount(OpBuilder &builder, Location loc, FusedOp op, StrategyAttr plan,
                      Value rowCount);

/// Whether the kernel of `op` with `plan` loads each row group while computing the last one
/// (register plans over 16-bit inputs: TargetInfo.h, isPipelinedInput).
bool isPipelined(FusedOp op, StrategyAttr plan);

/// Builds `gpu.func @name` in `module` computing `op` with `plan`. Rows are the input's
/// leading dimensions collapsed; the op's axis must be the last.
gpu::GPUFuncOp buildRowKernel(OpBuilder &builder, gpu::GPUModuleOp module, StringRef name,
                              FusedOp op, StrategyAttr plan);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWKERNEL_H
