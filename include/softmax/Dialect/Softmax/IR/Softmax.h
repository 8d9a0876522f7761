//===- Softmax.h - The softmax dialect, its attributes and ops --*- C++ -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAX_H
#define SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAX_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cstdint>
#include <limits>

namespace mlir::softmax {
/// Maps an axis in [-rank, rank) to [0, rank). The verifiers reject anything else.
inline int64_t normalizeAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }
} // namespace mlir::softmax

#include "softmax/Dialect/Softmax/IR/SoftmaxDialect.h.inc"
#include "softmax/Dialect/Softmax/IR/SoftmaxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "softmax/Dialect/Softmax/IR/SoftmaxAttrs.h.inc"

#define GET_OP_CLASSES
#include "softmax/Dialect/Softmax/IR/SoftmaxOps.h.inc"

#endif // SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAX_H
