//===- AxisKernel.h - Softmax over a non-last axis --------------*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: the kernels and the launch of a softmax.fused op
// whose axis is not the last (plan strided_axis), computed in place of the transpose that the
// row kernels would need. The tensor is viewed as [outer, C, mid, last] (C the axis; mid the
// dimensions between the axis and the last one, collapsed; inner = mid * last the columns), so
// that consecutive threads take consecutive inner elements (coalesced along the contiguous
// axis) and each column's C values are reduced by one or more threads of a block.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_AXISKERNEL_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_AXISKERNEL_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <string>

namespace mlir::softmax {

/// Whether `op` reduces over a non-last axis (and so takes the strided_axis kernels).
bool isStridedAxisOp(FusedOp op);

/// Checks that the strided_axis kernels compute `op`: its prologue may scale (by a constant or
/// a scalar operand) and round; bias and mask steps are rejected with a diagnostic at the op.
LogicalResult checkStridedAxisSupported(FusedOp op);

/// Host code at `builder`'s insertion point: builds the kernels of `op` in `module` (the vector
/// and scalar kernels of its general strided_axis plan, the last; the vector kernel of each
/// tier before it, a dynamic C's) and launches them on `input` and `output`, full-rank strided
/// memrefs: the first tier whose capacity covers C where its vectors apply, else the general
/// plan's, with `scalars` the op's side operands (scalars only: checkStridedAxisSupported).
/// `kernelName(suffix)` gives a kernel a unique symbol name; `target` the register file the
/// kernels' budgets come from.
void lowerStridedAxis(OpBuilder &builder, gpu::GPUModuleOp module, FusedOp op, Value input,
                      Value output, ValueRange scalars,
                      function_ref<std::string(StringRef suffix)> kernelName,
                      const TargetInfo &target);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_AXISKERNEL_H
