//===- Passes.h - Passes over the softmax dialect ---------------*- C++ -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H
#define SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::softmax {

#define GEN_PASS_DECL
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"

/// The patterns of softmax-raise, for embedders that run them in their own pass: linalg.softmax
/// and decomposed linalg softmax / log_softmax to softmax-dialect ops, and the element-wise
/// neighbours feeding them to scale, add_bias, mask and cast. The patterns create softmax, arith
/// and tensor ops: those dialects must be loaded (a pass lists them in its dependent dialects).
/// `maskedRows` is the policy of the raised softmax and log_softmax ops for rows of -inf (`nan`
/// keeps linalg's meaning).
void populateRaisePatterns(RewritePatternSet &patterns, MaskedRows maskedRows = MaskedRows::nan);

#define GEN_PASS_REGISTRATION
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"

} // namespace mlir::softmax

#endif // SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H
