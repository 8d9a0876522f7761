//===- Passes.h - Conversions out of the softmax dialect --------*- C++ -*-===//

#ifndef SOFTMAX_CONVERSION_PASSES_H
#define SOFTMAX_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::softmax {

#define GEN_PASS_DECL
#include "softmax/Conversion/Passes.h.inc"

// softmax-lower-to-gpu has no populate...Patterns: it is not a set of patterns but a rewrite of
// whole functions (tensor signatures to destination-passing memrefs, one gpu.module for every
// kernel of the module). Embedders add createLowerToGPUPass() (or the softmax-to-nvvm pipeline,
// softmax/Pipelines/Pipelines.h) to their own pass manager.

#define GEN_PASS_REGISTRATION
#include "softmax/Conversion/Passes.h.inc"

/// The unit attribute softmax-lower-to-gpu puts on a `gpu.launch_func` whose kernel may start
/// as a programmatic dependent launch of the launch before it on the stream
/// (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION; the kernel waits for that grid at
/// `griddepcontrol.wait` before reading its results). The C++ API's launcher honours it; a
/// launcher that ignores it (the JIT-compiled host code) is correct too, one launch after the
/// other.
inline constexpr llvm::StringLiteral kDependentLaunchAttrName = "softmax.dependent_launch";

} // namespace mlir::softmax

#endif // SOFTMAX_CONVERSION_PASSES_H
