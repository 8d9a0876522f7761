//===- RowStagedKernel.h - The row_staged kernel -----------------*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: the kernel of a row_staged plan (one block a row,
// the row staged in dynamic shared memory by a bulk asynchronous copy; RowStagedKernel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWSTAGEDKERNEL_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWSTAGEDKERNEL_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::softmax {

/// The register budget (`nvvm.maxnreg`) of a row_staged kernel: three blocks of 512 threads a
/// multiprocessor (40 x 1536 registers), as many as shared memory holds rows of up to 37 KB;
/// a thread holds one 16-byte word at a time, and ptxas -v fits the kernels in it without
/// spilling (the plain 16-bit programs of test/Pipelines/ptxas-no-spills.mlir and
/// ptxas-no-spills-dynamic.mlir; 36-40 registers).
constexpr int64_t kRowStagedRegisters = 40;

/// Host code: the blocks (index) a launch of a row_staged `plan` stages each row of `width`
/// (index) elements across: StrategyAttr::getStagedClusterBlocks at run time (1 without a
/// cluster).
Value buildRowStagedClusterBlocks(OpBuilder &builder, Location loc, StrategyAttr plan,
                                  Value width);

/// Host code: the dynamic shared memory (i32) of a launch of a row_staged `plan` for rows of
/// `width` (index) elements: StrategyAttr::getStagedSharedBytes at run time.
Value buildRowStagedSharedBytes(OpBuilder &builder, Location loc, StrategyAttr plan, Value width);

/// Builds `gpu.func @name` in `module` computing `op` with the row_staged `plan`.
gpu::GPUFuncOp buildRowStagedKernel(OpBuilder &builder, gpu::GPUModuleOp module, StringRef name,
                                    FusedOp op, StrategyAttr plan);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_ROWSTAGEDKERNEL_H
