//===- Normalization.cpp - The normalising step of the kernels ------------===//
//
// Shared by the row kernels and the strided_axis kernels: see Normalization.h.
//
//===----------------------------------------------------------------------===//

#include "Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <limits>

using namespace mlir;
using namespace mlir::softmax;

namespace {

constexpr double kLog2E = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;

Value f32Constant(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(static_cast<float>(v)));
}

/// A call of the one-operand f32 intrinsic `name`.
Value emitF32Intrinsic(OpBuilder &b, Location loc, StringRef name, Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(), b.getStringAttr(name),
                                       ValueRange{x})
      .getResult(0);
}

} // namespace

Value mlir::softmax::emitExp2(OpBuilder &b, Location loc, Value x) {
  return emitF32Intrinsic(b, loc, "llvm.nvvm.ex2.approx.ftz.f", x);
}

Value mlir::softmax::emitLog2(OpBuilder &b, Location loc, Value x) {
  return emitF32Intrinsic(b, loc, "llvm.nvvm.lg2.approx.f", x);
}

Value mlir::softmax::emitExpShifted(OpBuilder &b, Location loc, Value x, Value shift) {
  Value shifted = arith::SubFOp::create(b, loc, x, shift);
  return emitExp2(b, loc, arith::MulFOp::create(b, loc, shifted, f32Constant(b, loc, kLog2E)));
}

NormalizationStats mlir::softmax::emitNormalizationStats(OpBuilder &b, Location loc, FusedOp op,
                                                         Value max, Value sum) {
  NormalizationStats stats;
  Value negInf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  stats.masked = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max, negInf);
  stats.maxSafe = arith::SelectOp::create(b, loc, stats.masked, f32Constant(b, loc, 0.0), max);
  // The policy through the factors (Normalization.h): no per-element select.
  bool nanPolicy = op.getMaskedRows() == MaskedRows::nan;
  Value policy = f32Constant(b, loc, nanPolicy ? std::numeric_limits<double>::quiet_NaN() : 0.0);
  Value invSum = arith::DivFOp::create(b, loc, f32Constant(b, loc, 1.0), sum);
  stats.invSum = arith::SelectOp::create(b, loc, stats.masked, policy, invSum);
  // lg2 is an intrinsic call, which nothing removes when unused: emit it only where needed.
  if (op.getNormalization() == Normalization::log_softmax) {
    Value logSum = arith::MulFOp::create(b, loc, emitLog2(b, loc, sum), f32Constant(b, loc, kLn2));
    stats.logSum = arith::SelectOp::create(b, loc, stats.masked, policy, logSum);
  }
  return stats;
}

Value mlir::softmax::emitNormalize(OpBuilder &b, Location loc, FusedOp op, Value x,
                                   Value expValue, const NormalizationStats &stats) {
  switch (op.getNormalization()) {
  case Normalization::softmax:
    if (!expValue)
      expValue = emitExpShifted(b, loc, x, stats.maxSafe);
    return arith::MulFOp::create(b, loc, expValue, stats.invSum);
  case Normalization::log_softmax: {
    Value shifted = arith::SubFOp::create(b, loc, x, stats.maxSafe);
    return arith::SubFOp::create(b, loc, shifted, stats.logSum);
  }
  case Normalization::none:
    return x;
  }
  llvm_unreachable("unknown normalization");
}
