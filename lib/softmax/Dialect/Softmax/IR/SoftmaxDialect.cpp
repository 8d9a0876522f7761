//===- SoftmaxDialect.cpp - The softmax dialect and its attributes --------===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::softmax;

#include "softmax/Dialect/Softmax/IR/SoftmaxDialect.cpp.inc"
#include "softmax/Dialect/Softmax/IR/SoftmaxEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "softmax/Dialect/Softmax/IR/SoftmaxAttrs.cpp.inc"

void SoftmaxDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "softmax/Dialect/Softmax/IR/SoftmaxAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "softmax/Dialect/Softmax/IR/SoftmaxOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #softmax.strategy
//===----------------------------------------------------------------------===//

LogicalResult StrategyAttr::verify(function_ref<InFlightDiagnostic()> emitError, KernelPlan plan,
                                   int64_t lanes, int64_t rows, int64_t vector, int64_t chunks,
                                   int64_t cluster) {
  // Each parameter is bounded before any product is formed, so nothing below overflows.
  // A row's lanes are whole warps beyond one warp (the cross-warp reductions combine one slot a
  // warp, any number of them), and a power of two within one (the butterfly shuffles).
  if (lanes < 1 || lanes > 1024 ||
      !(lanes <= 32 ? llvm::isPowerOf2_64(lanes) : lanes % 32 == 0))
    return emitError() << "lanes must be a power of two up to 32 or a multiple of 32 up to "
                          "1024, got "
                       << lanes;
  // strided_axis's lanes are a block's columns, combined by power-of-two shuffles.
  if (plan == KernelPlan::strided_axis && !llvm::isPowerOf2_64(lanes))
    return emitError() << "strided_axis needs lanes a power of two, got " << lanes;
  if (rows < 1 || rows > 1024)
    return emitError() << "rows must be in [1, 1024], got " << rows;
  if (lanes * rows > 1024 || (lanes * rows) % 32 != 0)
    return emitError() << "a block of lanes * rows = " << lanes * rows
                       << " threads must be a multiple of 32 and at most 1024";
  if (vector != 1 && vector != 2 && vector != 4 && vector != 8)
    return emitError() << "vector must be 1, 2, 4 or 8 elements, got " << vector;
  if (chunks < 1 || chunks > 64)
    return emitError() << "chunks must be in [1, 64], got " << chunks;
  if (cluster != 1 && plan != KernelPlan::row_cluster && plan != KernelPlan::row_staged &&
      plan != KernelPlan::row_split && plan != KernelPlan::strided_axis)
    return emitError() << "cluster is a parameter of row_cluster, row_staged, row_split and "
                          "strided_axis: "
                       << stringifyKernelPlan(plan) << " needs cluster = 1 (or none), got "
                       << cluster;
  if ((plan == KernelPlan::multi_row || plan == KernelPlan::row_registers ||
       plan == KernelPlan::row_cluster || plan == KernelPlan::strided_axis) &&
      vector * chunks > kMaxValuesPerThread)
    return emitError() << stringifyKernelPlan(plan) << " keeps vector * chunks = "
                       << vector * chunks << " values a thread in registers, at most "
                       << kMaxValuesPerThread;
  switch (plan) {
  case KernelPlan::multi_row:
    if (lanes > 32)
      return emitError() << "multi_row shares a warp between rows: lanes must be at most 32, got "
                         << lanes;
    break;
  case KernelPlan::row_cluster:
    if (cluster < 2 || cluster > kMaxClusterBlocks)
      return emitError() << "row_cluster spreads a row over 2 to " << kMaxClusterBlocks
                         << " blocks: cluster must be in that range, got " << cluster;
    // With one row a block, a block of whole warps gives each row at least a warp.
    if (rows != 1)
      return emitError() << "row_cluster gives a row whole blocks: rows must be 1, got " << rows;
    break;
  case KernelPlan::row_shared:
    if (rows != 1)
      return emitError() << "row_shared keeps one row a block in shared memory: rows must be 1, "
                            "got "
                         << rows;
    [[fallthrough]];
  case KernelPlan::strided_axis: {
    if (plan == KernelPlan::strided_axis && (cluster < 1 || cluster > kMaxClusterBlocks))
      return emitError() << "strided_axis spreads a column over a cluster of 1 to "
                         << kMaxClusterBlocks << " blocks: cluster must be in that range, got "
                         << cluster;
    // Partial results of the rows of a column combine through shared memory: (max, sum) for
    // each `lanes * vector` columns of each warp's rows (AxisKernel.cpp); over a cluster, the
    // block's pairs and the merged ones besides (4 * lanes * vector * 4 bytes).
    int64_t rowsPerWarp = std::min<int64_t>(rows, std::max<int64_t>(1, 32 / lanes));
    int64_t bytes = (rows > 1 ? 2 * (rows / rowsPerWarp) * lanes * vector * 4 : 0) +
                    (cluster > 1 ? 4 * lanes * vector * 4 : 0);
    if (bytes > kMaxAxisSharedBytes)
      return emitError() << "strided_axis combines the rows of a column in " << bytes
                         << " bytes of shared memory (2 * rows / max(1, 32 / lanes) * lanes * "
                            "vector * 4, and 4 * lanes * vector * 4 over a cluster), at most "
                         << kMaxAxisSharedBytes;
    break;
  }
  case KernelPlan::row_staged:
    // One block a row; the row's 16-byte words are the unit of every access (the op's verifier
    // checks that `vector` elements of its input are 16 bytes).
    if (rows != 1)
      return emitError() << "row_staged keeps one row a block in shared memory: rows must be 1, "
                            "got "
                         << rows;
    if (vector != 4 && vector != 8)
      return emitError() << "row_staged moves 16-byte words: vector must be 4 (f32) or 8 (f16, "
                            "bf16), got "
                         << vector;
    if (chunks != 1)
      return emitError() << "row_staged takes one word a thread at a time: chunks must be 1, got "
                         << chunks;
    if (cluster < 1 || cluster > kMaxClusterBlocks)
      return emitError() << "row_staged stages a row across 1 to " << kMaxClusterBlocks
                         << " blocks: cluster must be in that range, got " << cluster;
    [[fallthrough]];
  case KernelPlan::row_split:
    // A block a span of one row (the partial results of a row's blocks are merged by one block).
    if (plan == KernelPlan::row_split && rows != 1)
      return emitError() << "row_split gives each block a span of one row: rows must be 1, got "
                         << rows;
    if (plan == KernelPlan::row_split && (cluster < 1 || cluster > kMaxClusterBlocks))
      return emitError() << "row_split spreads a row over a cluster of 1 (three launches) to "
                         << kMaxClusterBlocks << " blocks: cluster must be in that range, got "
                         << cluster;
    [[fallthrough]];
  case KernelPlan::row_registers:
  case KernelPlan::chunked_online:
    if (lanes < 32)
      return emitError() << stringifyKernelPlan(plan)
                         << " gives each row at least a warp: lanes must be at least 32, got "
                         << lanes << " (use multi_row)";
    break;
  }
  return success();
}

LogicalResult StrategyAttr::verifyRowWidth(function_ref<InFlightDiagnostic()> emitError,
                                           int64_t width) const {
  if (ShapedType::isDynamic(width) || width <= getMaxWidth())
    return success();
  if (!emitError)
    return failure();
  if (getPlan() == KernelPlan::row_shared || getPlan() == KernelPlan::row_staged)
    return emitError() << "strategy " << *this << " holds rows of at most " << getMaxWidth()
                       << " elements in shared memory, but the row has " << width;
  if (getPlan() == KernelPlan::row_cluster)
    return emitError() << "strategy " << *this << " holds rows of at most " << getMaxWidth()
                       << " elements (cluster * lanes * vector * chunks), but the row has "
                       << width;
  return emitError() << "strategy " << *this << " holds rows of at most " << getSpan()
                     << " elements (lanes * vector * chunks), but the row has " << width;
}

int64_t StrategyAttr::getMaxWidth() const {
  switch (getPlan()) {
  case KernelPlan::multi_row:
  case KernelPlan::row_registers:
    return getSpan();
  case KernelPlan::row_cluster:
    return getSpan() * getCluster();
  case KernelPlan::row_shared:
    return kSharedRowBytes / 4;
  case KernelPlan::row_staged:
    // Whole 16-byte words of the row as stored, one more than the row fills when its start is
    // off a word boundary, over `cluster` blocks.
    return (kSharedRowBytes / 16 * getCluster() - 1) * getVector();
  case KernelPlan::chunked_online:
  case KernelPlan::row_split:
  case KernelPlan::strided_axis:
    return std::numeric_limits<int64_t>::max();
  }
  llvm_unreachable("unknown plan");
}
