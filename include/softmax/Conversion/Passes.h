//===- Passes.h - Conversions out of the softmax dialect --------*- C++ -*-===//

#ifndef SOFTMAX_CONVERSION_PASSES_H
#define SOFTMAX_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::softmax {

#define GEN_PASS_DECL
#include "softmax/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "softmax/Conversion/Passes.h.inc"

} // namespace mlir::softmax

#endif // SOFTMAX_CONVERSION_PASSES_H
