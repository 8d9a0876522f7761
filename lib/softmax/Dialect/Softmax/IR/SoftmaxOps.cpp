//===- SoftmaxOps.cpp - Verifiers, folds and canonicalizations ------------===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::softmax;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// Prints a shape the way tensor types spell it: 4x?x8 (or "[]" for rank 0).
std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "[]";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return s;
}

LogicalResult verifyAxis(Operation *op, int64_t axis, RankedTensorType type) {
  int64_t rank = type.getRank();
  if (rank == 0)
    return op->emitOpError("expects a tensor of rank >= 1, got ") << type;
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range for a tensor of rank "
                             << rank << " (expected " << -rank << " <= axis < " << rank << ")";
  return success();
}

/// NumPy broadcasting: `from` aligns with the trailing dimensions of `to`, each dimension 1 or
/// equal. A dynamic size on either side is accepted here; it must agree at run time.
LogicalResult verifyBroadcast(Operation *op, StringRef what, ArrayRef<int64_t> from,
                              ArrayRef<int64_t> to, StringRef toWhat) {
  if (from.size() > to.size())
    return op->emitOpError() << what << " of shape " << formatShape(from)
                             << " has more dimensions than the " << toWhat << " shape "
                             << formatShape(to);
  size_t lead = to.size() - from.size();
  for (auto [i, f] : llvm::enumerate(from)) {
    int64_t t = to[lead + i];
    if (f == 1 || f == t || ShapedType::isDynamic(f) || ShapedType::isDynamic(t))
      continue;
    return op->emitOpError() << what << " of shape " << formatShape(from)
                             << " does not broadcast to the " << toWhat << " shape "
                             << formatShape(to) << ": its dimension " << i << " has size " << f
                             << ", expected 1 or " << t;
  }
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// softmax.softmax, softmax.log_softmax
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() { return verifyAxis(*this, getAxis(), getInput().getType()); }

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getInput().getType());
}

//===----------------------------------------------------------------------===//
// softmax.scale
//===----------------------------------------------------------------------===//

void ScaleOp::build(OpBuilder &builder, OperationState &state, Value input, double factor) {
  build(builder, state, input.getType(), input, /*dynamic_factor=*/Value(),
        builder.getF64FloatAttr(factor));
}

void ScaleOp::build(OpBuilder &builder, OperationState &state, Value input, Value factor) {
  build(builder, state, input.getType(), input, factor, /*factor=*/FloatAttr());
}

LogicalResult ScaleOp::verify() {
  bool hasConstant = getFactorAttr() != nullptr;
  bool hasOperand = getDynamicFactor() != nullptr;
  if (hasConstant == hasOperand)
    return emitOpError("requires exactly one factor: a constant ('by 0.5') or a scalar operand "
                       "('by %f : tensor<...>, f32')");
  if (hasConstant && !std::isfinite(getFactorAttr().getValueAsDouble()))
    return emitOpError("constant factor must be finite, got ") << getFactorAttr().getValueAsDouble();
  return success();
}

OpFoldResult ScaleOp::fold(FoldAdaptor) {
  if (FloatAttr factor = getFactorAttr(); factor && factor.getValueAsDouble() == 1.0)
    return getInput();
  return {};
}

namespace {
/// scale(scale(x, a), b) -> scale(x, a * b) for constant factors, when the inner scale has no
/// other user (otherwise both products would be computed).
struct CombineConstantScales : OpRewritePattern<ScaleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScaleOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ScaleOp>();
    if (!inner || !op.getFactorAttr() || !inner.getFactorAttr())
      return rewriter.notifyMatchFailure(op, "needs a constant scale of a constant scale");
    if (!inner->hasOneUse())
      return rewriter.notifyMatchFailure(op, "the inner scale has other users");
    double product =
        op.getFactorAttr().getValueAsDouble() * inner.getFactorAttr().getValueAsDouble();
    if (!std::isfinite(product))
      return rewriter.notifyMatchFailure(op, "the combined factor overflows");
    rewriter.replaceOpWithNewOp<ScaleOp>(op, inner.getInput(), product);
    return success();
  }
};
} // namespace

void ScaleOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<CombineConstantScales>(context);
}

//===----------------------------------------------------------------------===//
// softmax.add_bias
//===----------------------------------------------------------------------===//

LogicalResult AddBiasOp::verify() {
  return verifyBroadcast(*this, "bias", getBias().getType().getShape(),
                         getInput().getType().getShape(), "input");
}

//===----------------------------------------------------------------------===//
// softmax.mask
//===----------------------------------------------------------------------===//

LogicalResult MaskOp::verify() {
  RankedTensorType type = getInput().getType();
  if (failed(verifyAxis(*this, getAxis(), type)))
    return failure();
  if (getFill().isNaN())
    return emitOpError("fill value must not be NaN");
  if (getKind() != MaskKind::causal && getOffset() != 0)
    return emitOpError("'offset' applies only to causal masks");

  int64_t axis = getNormalizedAxis();
  auto maskType = getMask() ? cast<RankedTensorType>(getMask().getType()) : RankedTensorType();
  switch (getKind()) {
  case MaskKind::padding: {
    if (!maskType)
      return emitOpError("padding mask requires a lengths operand ('padding %lengths')");
    Type elementType = maskType.getElementType();
    if (!elementType.isInteger(32) && !elementType.isInteger(64))
      return emitOpError("padding lengths must have i32 or i64 elements, got ") << elementType;
    SmallVector<int64_t> rowShape(type.getShape());
    rowShape.erase(rowShape.begin() + axis);
    return verifyBroadcast(*this, "lengths", maskType.getShape(), rowShape, "row");
  }
  case MaskKind::causal:
    if (maskType)
      return emitOpError("causal mask takes no operand");
    if (axis == 0)
      return emitOpError("causal mask needs a query dimension before the column axis, but the "
                         "column axis is dimension 0");
    return success();
  case MaskKind::tensor:
    if (!maskType)
      return emitOpError("tensor mask requires an i1 mask operand ('tensor %mask')");
    if (!maskType.getElementType().isInteger(1))
      return emitOpError("tensor mask must have i1 elements, got ") << maskType.getElementType();
    return verifyBroadcast(*this, "mask", maskType.getShape(), type.getShape(), "input");
  }
  llvm_unreachable("unknown mask kind");
}

//===----------------------------------------------------------------------===//
// softmax.cast
//===----------------------------------------------------------------------===//

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto in = dyn_cast<RankedTensorType>(inputs.front());
  auto out = dyn_cast<RankedTensorType>(outputs.front());
  // The shapes are checked by the verifier, which says which differ.
  return in && out && isa<FloatType>(in.getElementType()) && isa<FloatType>(out.getElementType());
}

LogicalResult CastOp::verify() {
  if (getInput().getType().getShape() != getResult().getType().getShape())
    return emitOpError("changes the element type only, but the shapes differ: ")
           << getInput().getType() << " to " << getResult().getType();
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  // f16 -> f32 -> f16 and bf16 -> f32 -> bf16 are exact round trips: f32 holds every f16 and
  // bf16 value.
  if (auto inner = getInput().getDefiningOp<CastOp>();
      inner && inner.getInput().getType() == getResult().getType() &&
      getInput().getType().getElementType().isF32())
    return inner.getInput();
  return {};
}

#define GET_OP_CLASSES
#include "softmax/Dialect/Softmax/IR/SoftmaxOps.cpp.inc"
