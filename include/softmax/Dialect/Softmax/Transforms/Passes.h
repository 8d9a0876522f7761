//===- Passes.h - Passes over the softmax dialect ---------------*- C++ -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H
#define SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::softmax {

#define GEN_PASS_DECL
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"

} // namespace mlir::softmax

#endif // SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_H
