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

/// The patterns of softmax-fuse, for embedders that run them in their own pass: each softmax or
/// log_softmax with its prologue (the scale, add_bias, mask and cast ops feeding it whose results
/// have no other user) and an epilogue cast becomes one softmax.fused op; an element-wise chain
/// without a softmax becomes one with `normalization = none`. The result does not depend on the
/// order the patterns are applied in (a chain is fused at its last op). They create softmax.fused
/// ops only. softmax-fuse then gives a returned argument, or a value returned twice, a copy of
/// its own, which softmax-lower-to-gpu needs.
void populateFusePatterns(RewritePatternSet &patterns);

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
