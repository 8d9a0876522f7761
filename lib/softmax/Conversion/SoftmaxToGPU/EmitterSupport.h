//===- EmitterSupport.h - What the kernel emitters share ---------*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: the base of the row kernels' emitter
// (RowKernel.cpp) and of the strided_axis kernels' emitter (AxisKernel.cpp). It holds what both
// emit from (the builder, the op, its plan, the kernel) and the small IR-building helpers that
// mean the same in both: constants, integer and f32 arithmetic, structured control flow, the
// f32 conversions and the (max, sum) combinations. Helpers that depend on an emitter's own
// choices (the row kernels' `it` arithmetic type) stay in that emitter.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_EMITTERSUPPORT_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_EMITTERSUPPORT_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

#include <limits>
#include <utility>

namespace mlir::softmax {

/// Emits into one kernel of `op`'s plan `plan`; the emitters derive from it. Every helper
/// creates its ops at `b`'s insertion point, with the op's location.
class KernelEmitterBase {
protected:
  KernelEmitterBase(OpBuilder &builder, FusedOp op, StrategyAttr plan, gpu::GPUFuncOp func)
      : b(builder), loc(op.getLoc()), op(op), plan(plan), func(func), lanes(plan.getLanes()),
        rows(plan.getRows()), vector(plan.getVector()), chunks(plan.getChunks()),
        f32(builder.getF32Type()) {}

  // Constants.
  /// An index-typed constant (memref metadata, addresses).
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32Const(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(static_cast<float>(v)));
  }
  Value i32Const(int32_t v) { return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v)); }
  Value negInf() { return f32Const(-std::numeric_limits<double>::infinity()); }
  /// -inf of `type`: a float type, or a vector of one (every element).
  Value negInfOf(Type type);

  // Integer arithmetic, of whatever integer or index type the operands have.
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value cmpi(arith::CmpIPredicate p, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, p, l, r);
  }
  Value andi(Value l, Value r) { return arith::AndIOp::create(b, loc, l, r); }
  Value select(Value c, Value t, Value f) { return arith::SelectOp::create(b, loc, c, t, f); }

  // f32 arithmetic.
  Value maxf(Value l, Value r) { return arith::MaximumFOp::create(b, loc, l, r); }
  Value addf(Value l, Value r) { return arith::AddFOp::create(b, loc, l, r); }
  Value mulf(Value l, Value r) { return arith::MulFOp::create(b, loc, l, r); }
  Value isNegInf(Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v, negInf());
  }
  /// The max `m` made safe to shift by: 0 for -inf (a masked row or column, or one not read
  /// yet), so that x - m is never NaN (emitExpShifted).
  Value safeMax(Value m) { return select(isNegInf(m), f32Const(0.0), m); }
  /// A vector of f32 `values`.
  Value packF32(ArrayRef<Value> values) {
    return vector::FromElementsOp::create(
        b, loc, VectorType::get({static_cast<int64_t>(values.size())}, f32), values);
  }
  /// A storage value as f32: widened from 16 bits, or narrowed from an f64 scalar operand.
  Value toF32(Value v);
  /// An f32 value as `type` (a storage type, or a prologue's rounding type).
  Value fromF32(Value v, Type type);
  /// `raw` (a vector of 16-bit storage values, of an even size) passed word by word through an
  /// opaque `mov.b32`, so that LLVM does not merge the conversions of several uses of the same
  /// packed values into one set of f32 values live across the reductions: the kernels that
  /// hold 16-bit values packed (two a register) convert them again at each use.
  Value opaqueWords(Value raw);

  /// The max (`isMax`) or the sum of two f32 values.
  Value combine(Value l, Value r, bool isMax) { return isMax ? maxf(l, r) : addf(l, r); }
  /// Combines `values` pairwise (a tree: independent operations in flight, not a chain).
  Value combineAll(SmallVector<Value> values, bool isMax);
  /// Merges running (max, sum) pairs, each sum relative to its own max: m = max(m_a, m_b),
  /// sum = sum_a e^(m_a - m) + sum_b e^(m_b - m), shifted by safeMax(m) so that two pairs of
  /// -inf merge to (-inf, 0), not NaN.
  std::pair<Value, Value> mergeMaxSum(Value ma, Value sa, Value mb, Value sb);

  // Structured control flow (scf.if).
  /// `then` runs when `cond` holds.
  void ifThen(Value cond, function_ref<void()> then);
  /// `then` yields one value of `type` when `cond` holds, `otherwise` is yielded else.
  Value ifElse(Value cond, Type type, function_ref<Value()> then, function_ref<Value()> otherwise);
  /// `then` yields values of `types` when `cond` holds, `otherwise` else.
  SmallVector<Value> ifElseValues(Value cond, TypeRange types,
                                  function_ref<SmallVector<Value>()> then,
                                  function_ref<SmallVector<Value>()> otherwise);

  OpBuilder &b;
  Location loc;
  FusedOp op;
  StrategyAttr plan;
  gpu::GPUFuncOp func;
  int64_t lanes, rows, vector, chunks; ///< the plan's
  Type f32;
};

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_EMITTERSUPPORT_H
