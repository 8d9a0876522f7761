//===- AxisPlan.h - The plan of a softmax over a non-last axis --*- C++ -*-===//
//
// Internal to softmax-select-strategy: the strided_axis plan (docs/strategies.md).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_DIALECT_SOFTMAX_TRANSFORMS_AXISPLAN_H
#define SOFTMAX_LIB_DIALECT_SOFTMAX_TRANSFORMS_AXISPLAN_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Target/TargetInfo.h"

namespace mlir::softmax {

/// The strided_axis plans of `op`, whose axis is not the last, for `target` with at most
/// `registerBudget` registers a thread and `maxThreads` threads a block: one for a static axis
/// size; for a dynamic one, the tiers of the register path in increasing capacity, then the
/// general plan (FusedOp::verifyStrategies, docs/strategies.md).
SmallVector<StrategyAttr> selectStridedAxisPlans(FusedOp op, const TargetInfo &target,
                                                 int64_t registerBudget, int64_t maxThreads);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_DIALECT_SOFTMAX_TRANSFORMS_AXISPLAN_H
