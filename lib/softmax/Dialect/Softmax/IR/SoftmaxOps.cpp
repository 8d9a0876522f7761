//===- SoftmaxOps.cpp - Verifiers, folds and canonicalizations ------------===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

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

/// Tensors hold fewer elements than this, and causal offsets are smaller in magnitude, so that
/// the 64-bit index arithmetic of the kernels and host code (row * stride + column, row +
/// offset) cannot wrap.
constexpr int64_t kMaxElements = int64_t(1) << 62;

/// The tensors of every op: no encoding (the lowering would drop it).
LogicalResult verifyNoEncodings(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getEncoding())
      return success();
    return op->emitOpError() << what << " #" << index << " has a tensor encoding, which the "
                             << "softmax ops do not support (it would be dropped), got " << type;
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

/// The input of every op: rank >= 1, fewer than 2^62 elements, no encodings anywhere.
LogicalResult verifyInput(Operation *op, RankedTensorType type) {
  if (failed(verifyNoEncodings(op)))
    return failure();
  if (type.getRank() == 0)
    return op->emitOpError("expects a tensor of rank >= 1, got ") << type;
  int64_t elements = 1;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size))
      continue;
    if (llvm::MulOverflow(elements, size, elements) || elements >= kMaxElements)
      return op->emitOpError() << "tensor " << type
                               << " has 2^62 elements or more, more than the kernels index";
  }
  return success();
}

LogicalResult verifyAxis(Operation *op, int64_t axis, RankedTensorType type) {
  int64_t rank = type.getRank();
  if (rank == 0)
    return op->emitOpError("expects a tensor of rank >= 1, got ") << type;
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range for a tensor of rank "
                             << rank << " (expected " << -rank << " <= axis < " << rank << ")";
  int64_t width = type.getDimSize(normalizeAxis(axis, rank));
  if (!ShapedType::isDynamic(width) && width >= kMaxElements)
    return op->emitOpError() << "row width " << width
                             << " is too large: a row holds fewer than 2^62 elements";
  return verifyInput(op, type);
}

/// The kernels compute in f32: a constant finite as a double but not as a float (1.0e39) would
/// silently become infinite.
bool isFiniteInF32(APFloat value) {
  bool losesInfo;
  value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return value.isFinite();
}

/// Scalar factors the kernels read and widen or narrow to f32.
bool isSupportedScalarType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

/// Element types of the float tensors the kernels read.
bool isSupportedElementType(Type type) { return type.isF16() || type.isBF16() || type.isF32(); }

LogicalResult verifyCausalOffset(Operation *op, int64_t offset) {
  if (offset <= -kMaxElements || offset >= kMaxElements)
    return op->emitOpError() << "causal offset " << offset
                             << " is out of range: its magnitude must be below 2^62";
  return success();
}

/// Why a constant must fit f32, for the messages.
constexpr StringLiteral kF32Range = "the kernels compute in f32, whose largest finite value is "
                                    "3.40282347e+38";

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
  if (hasConstant && !isFiniteInF32(getFactorAttr().getValue()))
    return emitOpError() << "constant factor " << getFactorAttr().getValueAsDouble()
                         << " is not finite in f32 (" << kF32Range << ")";
  if (hasOperand && !isSupportedScalarType(getDynamicFactor().getType()))
    return emitOpError() << "scalar factor must be f16, bf16, f32 or f64, got "
                         << getDynamicFactor().getType();
  return verifyInput(*this, getInput().getType());
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
    if (!std::isfinite(product) || !isFiniteInF32(APFloat(product)))
      return rewriter.notifyMatchFailure(op, "the combined factor overflows f32");
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
  if (failed(verifyInput(*this, getInput().getType())))
    return failure();
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
  if (getFill().isFinite() && !isFiniteInF32(getFill()))
    return emitOpError() << "fill value " << getFill().convertToDouble()
                         << " is not finite in f32 (" << kF32Range
                         << "; write -inf for an infinite fill)";
  if (getKind() != MaskKind::causal && getOffset() != 0)
    return emitOpError("'offset' applies only to causal masks");
  if (failed(verifyCausalOffset(*this, getOffset())))
    return failure();

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
  if (failed(verifyInput(*this, getInput().getType())))
    return failure();
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

//===----------------------------------------------------------------------===//
// softmax.fused
//===----------------------------------------------------------------------===//

LogicalResult FusedOp::verify() {
  RankedTensorType type = getInput().getType();
  if (failed(verifyAxis(*this, getAxis(), type)))
    return failure();
  if (type.getShape() != getResult().getType().getShape())
    return emitOpError("result shape must match the input shape, got ")
           << type << " and " << getResult().getType();
  int64_t axis = getNormalizedAxis();

  SmallVector<bool> used(getSideOperands().size(), false);
  auto operandAt = [&](int64_t index, Attribute step) -> FailureOr<Value> {
    if (index < 0 || index >= static_cast<int64_t>(getSideOperands().size()))
      return emitOpError() << "prologue step " << step << " refers to operand " << index
                           << ", but the op has " << getSideOperands().size() << " side operands";
    used[index] = true;
    return getSideOperands()[index];
  };
  auto tensorOperand = [&](int64_t index, Attribute step) -> FailureOr<RankedTensorType> {
    FailureOr<Value> value = operandAt(index, step);
    if (failed(value))
      return failure();
    auto t = dyn_cast<RankedTensorType>(value->getType());
    if (!t)
      return emitOpError() << "prologue step " << step << " needs a ranked tensor operand, got "
                           << value->getType();
    return t;
  };

  for (Attribute step : getPrologue()) {
    if (auto scale = dyn_cast<ScaleStepAttr>(step)) {
      if (!scale.getFactor().isFinite())
        return emitOpError() << "prologue step " << step << " has a non-finite factor";
      if (!isFiniteInF32(scale.getFactor()))
        return emitOpError() << "prologue step " << step << " has a factor that is not finite "
                             << "in f32 (" << kF32Range << ")";
    } else if (auto scaleBy = dyn_cast<ScaleByStepAttr>(step)) {
      FailureOr<Value> value = operandAt(scaleBy.getOperand(), step);
      if (failed(value))
        return failure();
      if (!isa<FloatType>(value->getType()))
        return emitOpError() << "prologue step " << step << " needs a float scalar operand, got "
                             << value->getType();
      if (!isSupportedScalarType(value->getType()))
        return emitOpError() << "prologue step " << step
                             << " needs an f16, bf16, f32 or f64 scalar, got " << value->getType();
    } else if (auto bias = dyn_cast<BiasStepAttr>(step)) {
      FailureOr<RankedTensorType> t = tensorOperand(bias.getOperand(), step);
      if (failed(t) || failed(verifyBroadcast(*this, "bias", t->getShape(), type.getShape(),
                                              "input")))
        return failure();
      if (!isSupportedElementType(t->getElementType()))
        return emitOpError() << "prologue step " << step
                             << " needs a tensor of f16, bf16 or f32 elements, got " << *t;
    } else if (auto mask = dyn_cast<MaskStepAttr>(step)) {
      if (mask.getFill().isNaN())
        return emitOpError() << "prologue step " << step << " has a NaN fill value";
      if (mask.getFill().isFinite() && !isFiniteInF32(mask.getFill()))
        return emitOpError() << "prologue step " << step << " has a fill value that is not "
                             << "finite in f32 (" << kF32Range
                             << "; write -inf for an infinite fill)";
      if (mask.getKind() == MaskKind::causal) {
        if (axis == 0)
          return emitOpError("a causal mask needs a query dimension before the column axis");
        if (mask.getOperand() != -1)
          return emitOpError() << "prologue step " << step
                               << ": a causal mask takes no operand, got operand = "
                               << mask.getOperand();
        if (failed(verifyCausalOffset(*this, mask.getOffset())))
          return failure();
        continue;
      }
      if (mask.getOffset() != 0)
        return emitOpError() << "prologue step " << step << ": 'offset' applies only to causal "
                             << "masks";
      FailureOr<RankedTensorType> t = tensorOperand(mask.getOperand(), step);
      if (failed(t))
        return failure();
      if (mask.getKind() == MaskKind::padding) {
        if (!t->getElementType().isInteger(32) && !t->getElementType().isInteger(64))
          return emitOpError() << "padding lengths must have i32 or i64 elements, got " << *t;
        SmallVector<int64_t> rowShape(type.getShape());
        rowShape.erase(rowShape.begin() + axis);
        if (failed(verifyBroadcast(*this, "lengths", t->getShape(), rowShape, "row")))
          return failure();
      } else {
        if (!t->getElementType().isInteger(1))
          return emitOpError() << "a tensor mask must have i1 elements, got " << *t;
        if (failed(verifyBroadcast(*this, "mask", t->getShape(), type.getShape(), "input")))
          return failure();
      }
    } else if (auto round = dyn_cast<RoundStepAttr>(step)) {
      Type t = round.getType();
      if (!t.isF16() && !t.isBF16() && !t.isF32())
        return emitOpError() << "prologue step " << step << " must round to f16, bf16 or f32";
    } else {
      return emitOpError() << "prologue entries must be #softmax.scale, #softmax.scale_by, "
                              "#softmax.bias, #softmax.mask or #softmax.round, got "
                           << step;
    }
  }
  for (auto [index, isUsed] : llvm::enumerate(used))
    if (!isUsed)
      return emitOpError() << "side operand " << index << " is not used by any prologue step";

  return verifyStrategies();
}

bool FusedOp::hasLimitingMask() {
  return llvm::any_of(getPrologue(), [](Attribute step) {
    auto mask = dyn_cast<MaskStepAttr>(step);
    return mask && mask.getKind() != MaskKind::tensor && mask.getFill().isInfinity() &&
           mask.getFill().isNegative();
  });
}

bool FusedOp::stepKeepsNegInf(Attribute step, bool positiveScalars) {
  if (auto mask = dyn_cast<MaskStepAttr>(step))
    return mask.getFill().isInfinity() && mask.getFill().isNegative();
  if (auto scale = dyn_cast<ScaleStepAttr>(step))
    return scale.getFactor().isFiniteNonZero() && !scale.getFactor().isNegative();
  if (isa<ScaleByStepAttr>(step))
    return positiveScalars;
  return isa<RoundStepAttr>(step);
}

bool FusedOp::hasRoundingPrologue() {
  return llvm::any_of(getPrologue(), [](Attribute step) {
    auto round = dyn_cast<RoundStepAttr>(step);
    return round && !round.getType().isF32();
  });
}

SmallVector<Value> FusedOp::getBiasAndMaskOperands() {
  SmallVector<Value> operands;
  for (Attribute step : getPrologue()) {
    if (auto bias = dyn_cast<BiasStepAttr>(step))
      operands.push_back(getSideOperands()[bias.getOperand()]);
    else if (auto mask = dyn_cast<MaskStepAttr>(step); mask && mask.getKind() == MaskKind::tensor)
      operands.push_back(getSideOperands()[mask.getOperand()]);
  }
  return operands;
}

std::optional<int64_t> FusedOp::getStaticInnerSize() {
  RankedTensorType type = getInput().getType();
  int64_t inner = 1;
  for (int64_t d = getNormalizedAxis() + 1; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d))
      return std::nullopt;
    inner *= type.getDimSize(d);
  }
  return inner;
}

int64_t FusedOp::getRowSideOperandRegisters(int64_t values) {
  int64_t registers = 0;
  for (Value operand : getBiasAndMaskOperands()) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!type || type.getRank() == 0 || type.getShape().back() == 1)
      continue; // a scalar, or one value a row
    int64_t bits = type.getElementTypeBitWidth();
    registers += bits == 1 ? values : llvm::divideCeil(values * bits, 32);
  }
  return registers;
}

int64_t FusedOp::getPrologueStateRegisters() {
  // f32 inputs leave room: their plans are not pipelined (no next row's raw values).
  if (getInput().getType().getElementTypeBitWidth() >= 32)
    return 0;
  int64_t registers = 0;
  // log_softmax keeps its values (not their exps) to the end; beside a row's limit and a
  // scalar factor the 32-value tiers spilled 20 bytes (generated seed 1291).
  if (getNormalization() == Normalization::log_softmax && hasLimitingMask() &&
      hasScalarScale())
    registers += 8;
  // Each mask keeps its bound or bits beside the values, and one with a finite fill compares
  // and selects every element it keeps: two of them spilled 8-12 bytes at the 32-value tiers
  // (generated seeds 683, a boolean and a padding mask with finite fills, and 2005, a causal
  // mask filling -10000 and a padding mask).
  int64_t masks = llvm::count_if(getPrologue(), llvm::IsaPred<MaskStepAttr>);
  if (masks >= 2)
    registers += 8;
  // Three, two of them with finite fills (each compares and selects every element it keeps),
  // take 8 more: a boolean, a padding and a causal mask on 16-bit rows spilled 4 bytes in the
  // 32-value multi_row tier at 128 and fit 136 (generated seed 683, once straddling vectors
  // compare their columns' offsets with the columns kept). Not three -inf masks (the Python
  // builder's chain fits its budgets).
  int64_t finiteFills = llvm::count_if(getPrologue(), [](Attribute step) {
    return isa<MaskStepAttr>(step) && !stepKeepsNegInf(step);
  });
  if (masks >= 3 && finiteFills >= 2)
    registers += 8;
  return registers;
}

LogicalResult FusedOp::verifyStrategies() {
  ArrayAttr strategies = getStrategiesAttr();
  if (!strategies)
    return success();
  if (strategies.empty())
    return emitOpError("'strategies' must list at least one kernel plan");
  // Each entry on its own: the parser verifies hand-written ones, but a pass building them
  // with StrategyAttr::get does not.
  for (auto [i, entry] : llvm::enumerate(strategies)) {
    auto plan = dyn_cast<StrategyAttr>(entry);
    if (!plan)
      return emitOpError() << "'strategies' entry " << i << " must be a #softmax.strategy, got "
                           << entry;
    if (failed(StrategyAttr::verify(
            [&] { return emitOpError() << "'strategies' entry " << i << " (" << plan << "): "; },
            plan.getPlan(), plan.getLanes(), plan.getRows(), plan.getVector(), plan.getChunks(),
            plan.getCluster())))
      return failure();
    if (int64_t work = getUnrolledWork(plan); work > kMaxUnrolledWork)
      return emitOpError() << "'strategies' entry " << i << " (" << plan << ") unrolls "
                           << plan.getVector() * plan.getChunks()
                           << " values a thread through " << getPrologue().size()
                           << " prologue steps: vector * chunks * (" << kOpsPerValue
                           << " + steps) = " << work << " exceeds the kernel size bound of "
                           << kMaxUnrolledWork
                           << " (compile time grows with it); give a thread fewer values a span "
                              "or split the prologue";
  }
  // A softmax over a non-last axis takes strided_axis plans: one for a static axis size; for a
  // dynamic one, tiers of the register path (each launched, on aligned layouts, for the C its
  // capacity covers and the previous one's does not) before the general plan (any C, any
  // layout). The row plans are for the last axis.
  bool lastAxis = getNormalizedAxis() == getInput().getType().getRank() - 1;
  bool dynamicAxis = ShapedType::isDynamic(getRowWidth());
  for (auto [i, entry] : llvm::enumerate(strategies.getAsRange<StrategyAttr>())) {
    if (!lastAxis && (entry.getPlan() != KernelPlan::strided_axis ||
                      (strategies.size() != 1 && !dynamicAxis)))
      return emitOpError() << "a softmax over axis " << getNormalizedAxis() << " of a rank-"
                           << getInput().getType().getRank()
                           << " tensor (not the last) takes "
                           << (dynamicAxis ? "strided_axis entries" : "one strided_axis entry")
                           << " in 'strategies', got " << strategies;
    if (!lastAxis && i + 1 < strategies.size()) {
      if (entry.getVector() == 1)
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << ") is a tier of a dynamic axis size, which runs on aligned "
                                "vectors only: vector = 1 would never run; give it vectors of "
                                "more than one element or drop it";
      auto next = cast<StrategyAttr>(strategies[i + 1]);
      if (i + 2 < strategies.size() && next.getAxisCapacity() <= entry.getAxisCapacity())
        return emitOpError() << "'strategies' entry " << i + 1 << " (" << next
                             << ") holds " << next.getAxisCapacity()
                             << " axis values (rows * chunks), no more than the tier before it ("
                             << entry.getAxisCapacity()
                             << "): the tiers of a dynamic axis size go from the smallest "
                                "capacity to the largest";
    }
    // A column over a cluster is held in registers (the register path only): a static C
    // within its capacity, or a dynamic C's tier; the general plan of a dynamic C, which also
    // takes the online path, has one block a column.
    if (!lastAxis && entry.getCluster() > 1) {
      if (dynamicAxis && i + 1 == strategies.size())
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << ") is the general plan of a dynamic axis size, which takes any "
                                "C (two reads beyond its capacity): it needs cluster = 1; a "
                                "cluster spreads the column of a tier before it";
      if (!dynamicAxis && getRowWidth() > entry.getAxisCapacity())
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << ") spreads a column over a cluster, which holds it in "
                                "registers: at most rows * chunks * cluster = "
                             << entry.getAxisCapacity() << " axis values, but C is "
                             << getRowWidth();
    }
    if (entry.getPlan() == KernelPlan::row_staged) {
      // The row is staged as stored and normalised from there (RowStagedKernel.cpp): words of
      // 16 bytes of the input, written back as words of the same type.
      Type inputType = getInput().getType().getElementType();
      if (entry.getVector() * inputType.getIntOrFloatBitWidth() != 128)
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << "): row_staged moves 16-byte words, vector = "
                             << 128 / inputType.getIntOrFloatBitWidth() << " elements of "
                             << inputType;
      if (!getPrologue().empty() || getNormalization() == Normalization::none ||
          getResult().getType().getElementType() != inputType)
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << "): row_staged takes a softmax or log_softmax without a "
                                "prologue whose result has the input's element type";
    }
    if (entry.getPlan() == KernelPlan::row_split) {
      // The blocks of a row hand their (max, sum) on through the first vector of their span in
      // the output row: two f32 words (RowKernel.cpp, emitRowSplitKernel).
      int64_t outputBits = getResult().getType().getElementTypeBitWidth();
      if (getNormalization() == Normalization::none)
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << "): row_split merges the max and sum of a row's blocks; this op "
                                "has no normalization (use chunked_online)";
      if (entry.getVector() * outputBits < 64)
        return emitOpError() << "'strategies' entry " << i << " (" << entry
                             << "): row_split passes each block's (max, sum) through the first "
                                "vector of its span in the output, which needs 8 bytes: vector "
                                "* "
                             << outputBits / 8 << " output bytes = "
                             << entry.getVector() * outputBits / 8;
    }
    if (lastAxis && entry.getPlan() == KernelPlan::strided_axis)
      return emitOpError() << "'strategies' entry " << i << " (" << entry
                           << "): strided_axis is for a softmax over a non-last axis; this one is "
                              "over the last (use a row plan)";
  }
  if (!lastAxis)
    return success();
  int64_t width = getRowWidth();
  auto plans = strategies.getAsRange<StrategyAttr>();
  // Alternatives of one tier (entries of the same maximum width): each but the last runs only
  // as a fast kernel, which needs vectors of more than one element.
  for (size_t i = 0; i + 1 < strategies.size(); ++i) {
    auto plan = cast<StrategyAttr>(strategies[i]);
    auto next = cast<StrategyAttr>(strategies[i + 1]);
    if (plan.holdsWholeRow() && next.holdsWholeRow() &&
        plan.getMaxWidth() == next.getMaxWidth() && plan.getVector() == 1)
      return emitOpError() << "'strategies' entry " << i << " (" << plan
                           << ") is an alternative of entry " << i + 1
                           << " (the same maximum width) on vectors of 1, which has no fast "
                              "kernel and would never run; put it last among them";
  }
  if (ShapedType::isDynamic(width)) {
    KernelPlan last = cast<StrategyAttr>(strategies[strategies.size() - 1]).getPlan();
    if (last != KernelPlan::chunked_online && last != KernelPlan::row_split)
      return emitOpError("a dynamic row width needs a final chunked_online or row_split entry "
                         "in 'strategies' (any width), got ")
             << strategies;
    return success();
  }
  if (llvm::any_of(plans, [&](StrategyAttr s) { return succeeded(s.verifyRowWidth(nullptr, width)); }))
    return success();
  // None fits: report against the last (widest) plan.
  return cast<StrategyAttr>(strategies[strategies.size() - 1])
      .verifyRowWidth([&] { return emitOpError(); }, width);
}

//===----------------------------------------------------------------------===//
// custom<RankedTensor>: a tensor type in the custom forms
//===----------------------------------------------------------------------===//

/// Parses a type and rejects anything but a ranked tensor with a message that says so (ODS's
/// own would say "invalid kind of type specified").
static ParseResult parseRankedTensor(OpAsmParser &parser, Type &type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (!isa<RankedTensorType>(type))
    return parser.emitError(loc) << "expects a ranked tensor type (the softmax ops work on "
                                    "ranked tensors), got "
                                 << type;
  return success();
}

static void printRankedTensor(OpAsmPrinter &printer, Operation *, Type type) {
  printer.printType(type);
}

#define GET_OP_CLASSES
#include "softmax/Dialect/Softmax/IR/SoftmaxOps.cpp.inc"
