//===- Raise.cpp - Raise linalg softmax forms into the softmax dialect ----===//
//
// Front ends hand a softmax over as `linalg.softmax` or already decomposed into linalg ops: a max
// reduction, exp(x - max), a sum reduction and a division (IREE, torch-mlir, upstream's own
// decomposition). This pass recognises those forms and the element-wise neighbours that feed
// them (scale, bias, masks, casts) and rewrites them into softmax-dialect ops. What is raised and
// why each near miss is not is listed in docs/raising.md.
//
//===----------------------------------------------------------------------===//

#include "softmax/Dialect/Softmax/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_RAISEPASS
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;
using namespace mlir::softmax;

//===----------------------------------------------------------------------===//
// Reading linalg bodies
//===----------------------------------------------------------------------===//

/// Whether the dialect can hold tensors of this element type.
static bool isStorageType(Type type) { return type.isF32() || type.isF16() || type.isBF16(); }

/// Whether `op` computes each element of its one result from the elements of its inputs at the
/// same position (or broadcasts of them): tensors only, every loop parallel, an identity map on
/// its one init, whose value the body ignores.
static bool isElementwise(linalg::LinalgOp op) {
  if (!op || !op.hasPureTensorSemantics() || op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return op.getMatchingIndexingMap(init).isIdentity() && !op.payloadUsesValueFromOperand(init);
}

/// The value `op`'s body yields for its (first) result.
Value getYielded(linalg::LinalgOp op) { return op.getBlock()->getTerminator()->getOperand(0); }

/// The input operand that `value`, a block argument of a linalg body, reads; null otherwise.
static OpOperand *getReadOperand(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return nullptr;
  auto op = dyn_cast<linalg::LinalgOp>(arg.getOwner()->getParentOp());
  if (!op || arg.getOwner() != op.getBlock())
    return nullptr;
  OpOperand *operand = op.getMatchingOpOperand(arg);
  return op.isDpsInput(operand) ? operand : nullptr;
}

static AffineMap getMap(OpOperand *operand) {
  return cast<linalg::LinalgOp>(operand->getOwner()).getMatchingIndexingMap(operand);
}

/// Follows `value`, a value in a linalg body, into the element-wise linalg op that produces the
/// tensor it reads at the same position, and on as long as there is one. This sees through the
/// way a front end splits or fuses element-wise generics (upstream fuses x - max into the exp,
/// IREE keeps them apart). With `singleUse`, stops at a tensor with other users (raising through
/// it would compute it twice). Records the ops passed in `passed`.
static Value resolve(Value value, SmallPtrSetImpl<Operation *> *passed, bool singleUse = false) {
  while (OpOperand *operand = getReadOperand(value)) {
    if (!getMap(operand).isIdentity() || (singleUse && !operand->get().hasOneUse()))
      break;
    auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
    if (!isElementwise(producer))
      break;
    if (passed)
      passed->insert(producer);
    value = getYielded(producer);
  }
  return value;
}

/// Whether `map` reads a row-reduced tensor at row `dim` of its loops: the loops without `dim`,
/// in order, or all loops with a constant 0 at `dim` where `type` has size 1 (a kept dimension).
static bool isRowMap(AffineMap map, int64_t dim, ShapedType type) {
  int64_t rank = map.getNumDims();
  if (map.getNumSymbols() != 0 || dim < 0 || dim >= rank)
    return false;
  if (map.getNumResults() == rank - 1) {
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (expr != getAffineDimExpr(int64_t(i) < dim ? i : i + 1, map.getContext()))
        return false;
    return true;
  }
  if (map.getNumResults() != rank || type.getDimSize(dim) != 1)
    return false;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    AffineExpr expected = int64_t(i) == dim ? getAffineConstantExpr(0, map.getContext())
                                            : getAffineDimExpr(i, map.getContext());
    if (expr != expected)
      return false;
  }
  return true;
}

/// The `dim` for which isRowMap(map, dim, type) holds, if any.
static std::optional<int64_t> getRowDim(AffineMap map, ShapedType type) {
  for (int64_t dim = 0, e = map.getNumDims(); dim < e; ++dim)
    if (isRowMap(map, dim, type))
      return dim;
  return std::nullopt;
}

/// The source of `expand` when it only inserts the unit dimension `dim` (torch-mlir keeps a reduced
/// dimension this way: it reduces, then expands); null otherwise.
static Value getUnitDimSource(tensor::ExpandShapeOp expand, int64_t dim) {
  if (!expand || expand.getSrcType().getRank() + 1 != expand.getResultType().getRank() ||
      expand.getResultType().getDimSize(dim) != 1)
    return nullptr;
  // The one group of two result dimensions must be `dim` and the source dimension it pads.
  for (const ReassociationIndices &group : expand.getReassociationIndices())
    if (group.size() == 2 && !llvm::is_contained(group, dim))
      return nullptr;
  return expand.getSrc();
}

/// Whether `map` reads `type` broadcast NumPy-style over `loops` (loop dimensions, outermost
/// first): its dimensions align with the trailing loops, each read at that loop or, with size 1,
/// at 0. This is the broadcast `softmax.add_bias`, `softmax.mask` and padding lengths accept.
static bool isTrailingBroadcast(AffineMap map, ShapedType type, ArrayRef<int64_t> loops) {
  int64_t rank = type.getRank();
  if (map.getNumSymbols() != 0 || rank == 0 || rank > int64_t(loops.size()) ||
      map.getNumResults() != rank)
    return false;
  int64_t skipped = loops.size() - rank;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (expr == getAffineDimExpr(loops[skipped + i], map.getContext()))
      continue;
    if (expr != getAffineConstantExpr(0, map.getContext()) || type.getDimSize(i) != 1)
      return false;
  }
  return true;
}

/// A float constant (scalar or splat) `value` is, looking through a body argument that reads a
/// scalar operand, a linalg.fill, a tensor.extract from a splat (StableHLO's reduction inits),
/// and extf / truncf of a constant (torch-mlir narrows its f64 Python floats in the body; the
/// pass does not fold, so it converts them itself).
static std::optional<APFloat> getConstantFloat(Value value) {
  if (OpOperand *operand = getReadOperand(value))
    if (!isa<ShapedType>(operand->get().getType()))
      value = operand->get();
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs()[0];
  if (auto extract = value.getDefiningOp<tensor::ExtractOp>())
    value = extract.getTensor();
  auto trunc = value.getDefiningOp<arith::TruncFOp>();
  if ((trunc && !trunc.getRoundingmodeAttr()) || value.getDefiningOp<arith::ExtFOp>()) {
    std::optional<APFloat> wide = getConstantFloat(value.getDefiningOp()->getOperand(0));
    if (!wide)
      return std::nullopt;
    bool losesInfo;
    wide->convert(cast<FloatType>(value.getType()).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &losesInfo);
    return wide;
  }
  APFloat result(0.0);
  if (matchPattern(value, m_ConstantFloat(&result)))
    return result;
  return std::nullopt;
}

/// A float scalar that is the same for every element of a linalg body: a value defined outside
/// every linalg body (a function argument, say), a scalar operand, or a 0-d tensor operand (how
/// torch-mlir passes a tensor scalar such as a temperature; returned as the tensor). Null
/// otherwise.
static Value getInvariantScalar(Value value) {
  if (OpOperand *operand = getReadOperand(value)) {
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (type && type.getRank() == 0 && isa<FloatType>(type.getElementType()))
      return operand->get();
    value = operand->get();
  }
  if (!isa<FloatType>(value.getType()))
    return nullptr;
  Operation *parent = value.getParentRegion()->getParentOp();
  return isa<linalg::LinalgOp>(parent) ? Value() : value;
}

/// The predicate P' with `a P b` == `b P' a`.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  default:
    return predicate;
  }
}

/// Whether `op`'s body yields CombinerOp(input element, accumulator), in either order.
template <typename CombinerOp> static bool yieldsCombination(linalg::LinalgOp op) {
  auto combiner = getYielded(op).getDefiningOp<CombinerOp>();
  if (!combiner)
    return false;
  Value in = op.getMatchingBlockArgument(op.getDpsInputOperand(0));
  Value acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  return (combiner.getLhs() == in && combiner.getRhs() == acc) ||
         (combiner.getLhs() == acc && combiner.getRhs() == in);
}

/// The dimension `op` reduces when it is a reduction of one whole tensor along one dimension
/// into a row-shaped init (the dimension dropped, or kept with size 1).
static std::optional<int64_t> getReductionDim(linalg::LinalgOp op) {
  if (!op || !op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  int64_t dim = dims.front();
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isIdentity() ||
      !isRowMap(op.getMatchingIndexingMap(init), dim, cast<ShapedType>(init->get().getType())))
    return std::nullopt;
  return dim;
}

/// The axis attribute for `dim` of a tensor of `rank`: -1 (the default, elided) for the last.
static int64_t getAxisAttr(int64_t dim, int64_t rank) { return dim == rank - 1 ? -1 : dim; }

/// The normalised axis of the softmax that `op`'s result flows into through neighbour ops used
/// once, if there is one (a mask's indices refer to it).
static std::optional<int64_t> getChainAxis(Operation *op) {
  while (op) {
    if (auto softmax = dyn_cast<SoftmaxOp>(op))
      return softmax.getNormalizedAxis();
    if (auto logSoftmax = dyn_cast<LogSoftmaxOp>(op))
      return logSoftmax.getNormalizedAxis();
    if (auto mask = dyn_cast<MaskOp>(op))
      return mask.getNormalizedAxis();
    if (!isa<ScaleOp, AddBiasOp, CastOp>(op) || !op->getResult(0).hasOneUse())
      return std::nullopt;
    op = *op->getResult(0).getUsers().begin();
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Decomposed softmax and log_softmax
//===----------------------------------------------------------------------===//

namespace {

/// Matches the ops of one decomposed softmax or log_softmax that ends in `root`, the
/// element-wise op that computes the result. Every op matched is recorded so that the whole
/// group can be checked to have no users outside it.
class DecomposedMatcher {
public:
  DecomposedMatcher(PatternRewriter &rewriter, linalg::LinalgOp root)
      : rewriter(rewriter), root(root) {}

  /// exp(x - max) / sum, or exp(x - max) * (1 / sum).
  LogicalResult matchSoftmax() {
    Value result = resolve(getYielded(root), &ops);
    Value numerator, sum;
    if (auto div = result.getDefiningOp<arith::DivFOp>()) {
      numerator = div.getLhs();
      if (failed(matchRowLeaf(div.getRhs(), sum)))
        return failure();
    } else if (auto mul = result.getDefiningOp<arith::MulFOp>()) {
      // Which side is the reciprocal: try the right-hand side first (the usual order), from a
      // clean record so that a failed attempt leaves nothing behind.
      llvm::SmallPtrSet<Operation *, 8> savedOps = ops;
      std::optional<int64_t> savedDim = dim;
      numerator = mul.getLhs();
      if (failed(matchRowUnary(mul.getRhs(), getReciprocalArg, sum))) {
        ops = savedOps;
        dim = savedDim;
        numerator = mul.getRhs();
        if (failed(matchRowUnary(mul.getLhs(), getReciprocalArg, sum)))
          return fail("a product, but neither side is 1 / (a row sum)");
      }
    } else {
      return fail("the result is neither a division nor a product with a reciprocal");
    }
    Value x, max;
    if (failed(matchShiftedExp(numerator, x, max)) || failed(matchRowSum(sum, x, max)) ||
        failed(matchRowMax(max, x)))
      return failure();
    input = x;
    return checkClosed();
  }

  /// (x - max) - log(sum).
  LogicalResult matchLogSoftmax() {
    auto sub = resolve(getYielded(root), &ops).getDefiningOp<arith::SubFOp>();
    if (!sub)
      return fail("the result is not a difference");
    Value sum;
    if (failed(matchRowUnary(sub.getRhs(), getLogArg, sum)))
      return failure();
    Value x, max;
    if (failed(matchShift(sub.getLhs(), x, max)) || failed(matchRowSum(sum, x, max)) ||
        failed(matchRowMax(max, x)))
      return failure();
    input = x;
    return checkClosed();
  }

  Value getInput() const { return input; }
  int64_t getDim() const { return *dim; }

private:
  LogicalResult fail(const Twine &reason) { return rewriter.notifyMatchFailure(root, reason); }

  /// Records the reduced dimension; every row value of the group must agree on it.
  LogicalResult setDim(int64_t d) {
    if (dim && *dim != d)
      return fail("a reduction or broadcast over dimension " + Twine(d) + " where the rest uses " +
                  Twine(*dim));
    dim = d;
    return success();
  }

  /// `scalar` reads a row-reduced tensor broadcast along its row: sets `row` to that tensor.
  LogicalResult matchRowLeaf(Value scalar, Value &row) {
    OpOperand *operand = getReadOperand(resolve(scalar, &ops));
    if (!operand)
      return fail("expected a broadcast row value");
    auto type = dyn_cast<ShapedType>(operand->get().getType());
    std::optional<int64_t> d = type ? getRowDim(getMap(operand), type) : std::nullopt;
    if (!d)
      return fail("a value read with a map that is not a broadcast along one dimension");
    row = operand->get();
    if (Value source = getUnitDimSource(row.getDefiningOp<tensor::ExpandShapeOp>(), *d)) {
      ops.insert(row.getDefiningOp());
      row = source;
    }
    return setDim(*d);
  }

  static Value getReciprocalArg(Operation *op) {
    auto div = dyn_cast<arith::DivFOp>(op);
    std::optional<APFloat> one = div ? getConstantFloat(div.getLhs()) : std::nullopt;
    return one && one->isExactlyValue(1.0) ? div.getRhs() : Value();
  }

  static Value getLogArg(Operation *op) {
    auto log = dyn_cast<math::LogOp>(op);
    return log ? log.getOperand() : Value();
  }

  /// `scalar` is f(row sum) broadcast along the row, where `getArg` recognises f and returns its
  /// argument: f applied element-wise (then broadcast), or applied to the broadcast value. Sets
  /// `row` to the row sum's tensor.
  LogicalResult matchRowUnary(Value scalar, Value (*getArg)(Operation *), Value &row) {
    Value value = resolve(scalar, &ops);
    if (Operation *def = value.getDefiningOp())
      if (Value arg = getArg(def))
        return matchRowLeaf(arg, row);
    Value applied;
    if (failed(matchRowLeaf(value, applied)))
      return failure();
    auto producer = applied.getDefiningOp<linalg::LinalgOp>();
    if (!isElementwise(producer))
      return fail("a row value not computed element-wise from the row sum");
    ops.insert(producer);
    Operation *def = resolve(getYielded(producer), &ops).getDefiningOp();
    Value arg = def ? getArg(def) : Value();
    OpOperand *operand = arg ? getReadOperand(resolve(arg, &ops)) : nullptr;
    if (!operand || !getMap(operand).isIdentity())
      return fail("a row value that is not the expected function of the row sum");
    row = operand->get();
    return success();
  }

  /// `scalar` is x - max, x read in place and max broadcast along the row.
  LogicalResult matchShift(Value scalar, Value &x, Value &max) {
    auto sub = resolve(scalar, &ops).getDefiningOp<arith::SubFOp>();
    if (!sub)
      return fail("no subtraction of the row maximum");
    OpOperand *operand = getReadOperand(sub.getLhs());
    if (!operand || !getMap(operand).isIdentity())
      return fail("the row maximum is subtracted from something other than the input");
    if (x && operand->get() != x)
      return fail("the row maximum is subtracted from two different tensors");
    x = operand->get();
    Value rowMax;
    if (failed(matchRowLeaf(sub.getRhs(), rowMax)))
      return failure();
    if (max && rowMax != max)
      return fail("two different row maxima are subtracted");
    max = rowMax;
    return success();
  }

  /// `scalar` is exp(x - max).
  LogicalResult matchShiftedExp(Value scalar, Value &x, Value &max) {
    auto exp = resolve(scalar, &ops).getDefiningOp<math::ExpOp>();
    if (!exp)
      return fail("no exp");
    return matchShift(exp.getOperand(), x, max);
  }

  /// `sum` is a sum along the row, from 0, of exp(x - max).
  LogicalResult matchRowSum(Value sum, Value &x, Value &max) {
    auto op = sum.getDefiningOp<linalg::LinalgOp>();
    std::optional<int64_t> d = getReductionDim(op);
    if (!d || !yieldsCombination<arith::AddFOp>(op))
      return fail("the denominator is not a sum along one dimension");
    std::optional<APFloat> init = getConstantFloat(op.getDpsInitOperand(0)->get());
    if (!init || !init->isZero())
      return fail("the sum does not start from 0");
    ops.insert(op);
    if (failed(setDim(*d)))
      return failure();
    return matchShiftedExp(op.getMatchingBlockArgument(op.getDpsInputOperand(0)), x, max);
  }

  /// `max` is the maximum of `x` along the row. The start value and the combiner must give the
  /// row maximum the dialect subtracts, see docs/dialect.md ("NaN and the row maximum"): -inf or
  /// the lowest finite value with maximumf or maxnumf, NaN only with maxnumf (maximumf would
  /// make every row NaN).
  LogicalResult matchRowMax(Value max, Value x) {
    auto op = max.getDefiningOp<linalg::LinalgOp>();
    std::optional<int64_t> d = getReductionDim(op);
    bool maximum = d && yieldsCombination<arith::MaximumFOp>(op);
    bool maxnum = d && yieldsCombination<arith::MaxNumFOp>(op);
    if (!maximum && !maxnum)
      return fail("the subtracted value is not a maximum along one dimension");
    if (op.getDpsInputOperand(0)->get() != x)
      return fail("the maximum is not taken over the tensor it is subtracted from");
    std::optional<APFloat> init = getConstantFloat(op.getDpsInitOperand(0)->get());
    bool lowest = init && init->isNegative() &&
                  (init->isInfinity() ||
                   *init == APFloat::getLargest(init->getSemantics(), /*Negative=*/true));
    if (!init || !(lowest || (init->isNaN() && maxnum)))
      return fail("the maximum starts from a value other than -inf, the lowest finite value or "
                  "(with maxnumf) NaN");
    ops.insert(op);
    return setDim(*d);
  }

  /// Every op of the group other than the root is used only inside the group: replacing the root
  /// then leaves them all dead, and nothing is computed twice.
  LogicalResult checkClosed() {
    for (Operation *op : ops) {
      if (op == root)
        continue;
      for (Operation *user : op->getUsers())
        if (!ops.contains(user) && user != root.getOperation())
          return fail("an intermediate value has users outside the softmax");
    }
    auto inputType = cast<RankedTensorType>(input.getType());
    if (root->getResult(0).getType() != inputType || !isStorageType(inputType.getElementType()))
      return fail("the result type differs from the input's, or is not f32, f16 or bf16");
    return success();
  }

  PatternRewriter &rewriter;
  linalg::LinalgOp root;
  llvm::SmallPtrSet<Operation *, 8> ops;
  std::optional<int64_t> dim;
  Value input;
};

/// linalg.softmax on tensors becomes softmax.softmax. Upstream's semantics give NaN for a row of
/// -inf (its decomposition computes -inf - -inf), hence masked_rows = nan unless asked otherwise.
struct RaiseLinalgSoftmax : OpRewritePattern<linalg::SoftmaxOp> {
  RaiseLinalgSoftmax(MLIRContext *context, MaskedRows maskedRows)
      : OpRewritePattern(context), maskedRows(maskedRows) {}

  LogicalResult matchAndRewrite(linalg::SoftmaxOp op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!type || op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not on ranked tensors");
    if (op.getResult()[0].getType() != type || !isStorageType(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "the result type differs from the input's, or is "
                                             "not f32, f16 or bf16");
    int64_t axis = getAxisAttr(op.getDimension(), type.getRank());
    rewriter.replaceOpWithNewOp<SoftmaxOp>(op, op.getInput(), axis, maskedRows);
    return success();
  }

  MaskedRows maskedRows;
};

/// The decomposed forms, matched from the op that computes the result.
struct RaiseDecomposedSoftmax : OpInterfaceRewritePattern<linalg::LinalgOp> {
  RaiseDecomposedSoftmax(MLIRContext *context, MaskedRows maskedRows)
      : OpInterfaceRewritePattern(context), maskedRows(maskedRows) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op, PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return rewriter.notifyMatchFailure(op, "not an element-wise op on tensors");
    Value result = getYielded(op);
    if (Operation *def = resolve(result, nullptr).getDefiningOp();
        !isa_and_nonnull<arith::DivFOp, arith::MulFOp, arith::SubFOp>(def))
      return rewriter.notifyMatchFailure(op, "does not end in a division, product or difference");

    DecomposedMatcher softmax(rewriter, op);
    if (succeeded(softmax.matchSoftmax())) {
      Value input = softmax.getInput();
      int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
      rewriter.replaceOpWithNewOp<SoftmaxOp>(op, input, getAxisAttr(softmax.getDim(), rank),
                                             maskedRows);
      return success();
    }
    DecomposedMatcher logSoftmax(rewriter, op);
    if (succeeded(logSoftmax.matchLogSoftmax())) {
      Value input = logSoftmax.getInput();
      int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
      rewriter.replaceOpWithNewOp<LogSoftmaxOp>(op, input, getAxisAttr(logSoftmax.getDim(), rank),
                                                maskedRows);
      return success();
    }
    return failure();
  }

  MaskedRows maskedRows;
};

//===----------------------------------------------------------------------===//
// Neighbours: the element-wise chain that feeds a softmax, and the cast after it
//===----------------------------------------------------------------------===//

/// One softmax-dialect op of a raised producer chain.
struct Step {
  enum class Kind { Scale, Bias, Mask, Cast } kind;
  Type elementType;                // of the step's result
  std::optional<APFloat> constant; // Scale: a constant factor; Mask: the fill
  Value operand;                   // Scale: a scalar factor; Bias: the bias; Mask: mask/lengths
  bool reciprocal = false;         // Scale: by 1 / operand
  MaskKind maskKind = MaskKind::tensor;
  int64_t offset = 0; // Mask: the causal offset
};

/// Reads the body of an element-wise linalg op as a chain of softmax-dialect steps from one
/// input tensor: multiplication or division by an invariant scalar, addition of a broadcast
/// tensor, select with a constant fill (a mask), extf / truncf. Anything else fails the whole
/// chain, so an op is either raised entirely or left as it is.
class ChainMatcher {
public:
  ChainMatcher(PatternRewriter &rewriter, linalg::LinalgOp op, std::optional<int64_t> axis)
      : rewriter(rewriter), op(op), axis(axis),
        shape(cast<RankedTensorType>(op->getResult(0).getType()).getShape()) {}

  LogicalResult match() { return matchValue(getYielded(op)); }

  /// Builds the steps before `op` and returns the last one's result.
  Value build() {
    Location loc = op.getLoc();
    Value value = input;
    int64_t rank = shape.size();
    for (const Step &step : steps) {
      auto type = RankedTensorType::get(shape, step.elementType);
      switch (step.kind) {
      case Step::Kind::Scale:
        if (step.constant) {
          value = ScaleOp::create(rewriter, loc, value, step.constant->convertToDouble());
        } else {
          Value factor = step.operand;
          if (isa<RankedTensorType>(factor.getType()))
            factor = tensor::ExtractOp::create(rewriter, loc, factor, ValueRange());
          if (step.reciprocal) {
            Value one = arith::ConstantOp::create(rewriter, loc,
                                                  rewriter.getFloatAttr(factor.getType(), 1.0));
            factor = arith::DivFOp::create(rewriter, loc, one, factor);
          }
          value = ScaleOp::create(rewriter, loc, value, factor);
        }
        break;
      case Step::Kind::Bias:
        value = AddBiasOp::create(rewriter, loc, type, value, step.operand);
        break;
      case Step::Kind::Mask: {
        int64_t maskAxis = axis ? getAxisAttr(*axis, rank) : -1;
        value = MaskOp::create(rewriter, loc, type, value,
                               MaskKindAttr::get(rewriter.getContext(), step.maskKind),
                               step.operand, rewriter.getI64IntegerAttr(maskAxis),
                               rewriter.getI64IntegerAttr(step.offset),
                               rewriter.getF64FloatAttr(step.constant->convertToDouble()));
        break;
      }
      case Step::Kind::Cast:
        value = CastOp::create(rewriter, loc, type, value);
        break;
      }
    }
    return value;
  }

  bool empty() const { return steps.empty(); }

private:
  LogicalResult fail(const Twine &reason) { return rewriter.notifyMatchFailure(op, reason); }

  /// Appends the steps that compute `value` (post-order: the input's first).
  LogicalResult matchValue(Value value) {
    // Through element-wise producers used only here: they become part of the chain.
    value = resolve(value, nullptr, /*singleUse=*/true);
    if (OpOperand *operand = getReadOperand(value)) {
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type || !getMap(operand).isIdentity() || type.getShape() != shape)
        return fail("the chain reads a tensor other than in place");
      if (!isStorageType(type.getElementType()))
        return fail("the chain starts from a tensor of a type other than f32, f16 or bf16");
      input = operand->get();
      return success();
    }
    Operation *def = value.getDefiningOp();
    if (!def || !isa<linalg::LinalgOp>(def->getParentOp()))
      return fail("the chain's value is not computed in the body");
    if (!isStorageType(value.getType()))
      return fail("an intermediate of a type other than f32, f16 or bf16");

    if (isa<arith::ExtFOp, arith::TruncFOp>(def)) {
      if (failed(matchValue(def->getOperand(0))))
        return failure();
      return push({Step::Kind::Cast, value.getType()});
    }
    // Commutative ops: either operand may be the chain. A failed attempt drops the steps it
    // appended before the other is tried.
    size_t mark = steps.size();
    if (auto mul = dyn_cast<arith::MulFOp>(def)) {
      for (auto [chain, factor] :
           {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
        if (succeeded(matchScale(value, chain, factor, /*reciprocal=*/false)))
          return success();
        steps.resize(mark);
      }
      return fail("a product with something other than a scalar");
    }
    if (auto div = dyn_cast<arith::DivFOp>(def))
      return matchScale(value, div.getLhs(), div.getRhs(), /*reciprocal=*/true);
    if (auto add = dyn_cast<arith::AddFOp>(def)) {
      for (auto [chain, bias] :
           {std::pair(add.getLhs(), add.getRhs()), std::pair(add.getRhs(), add.getLhs())}) {
        Value tensor = getBias(bias);
        if (tensor && succeeded(matchValue(chain))) {
          Step step{Step::Kind::Bias, value.getType()};
          step.operand = tensor;
          return push(step);
        }
        steps.resize(mark);
      }
      return fail("a sum with something other than a broadcast tensor");
    }
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return matchMask(select);
    return fail("an element-wise op that is not a scale, bias, mask or cast");
  }

  LogicalResult push(Step step) {
    steps.push_back(step);
    return success();
  }

  /// value = chain * factor (or chain / factor), factor a constant or invariant scalar.
  LogicalResult matchScale(Value value, Value chain, Value factor, bool reciprocal) {
    Step step{Step::Kind::Scale, value.getType()};
    if (std::optional<APFloat> constant = getConstantFloat(factor)) {
      double c = constant->convertToDouble();
      // The dialect multiplies: x / c becomes x * (1 / c), exact when c is a power of two and
      // otherwise within one rounding of the logit (see docs/raising.md).
      if (reciprocal)
        c = 1.0 / c;
      if (!std::isfinite(c))
        return fail("a scale by a non-finite constant");
      step.constant = APFloat(c);
    } else if (Value scalar = getInvariantScalar(factor)) {
      step.operand = scalar;
      step.reciprocal = reciprocal;
    } else {
      return fail("a scale by a value that varies across the tensor");
    }
    if (failed(matchValue(chain)))
      return failure();
    return push(step);
  }

  /// The tensor that `value` reads with a NumPy broadcast to the result, possibly widened by
  /// extf (the dialect adds a bias of another float type without rounding it first).
  Value getBias(Value value) {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      value = ext.getIn();
    OpOperand *operand = getReadOperand(value);
    if (!operand)
      return nullptr;
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (!type || !isStorageType(type.getElementType()) ||
        !isTrailingBroadcast(getMap(operand), type, allLoops()))
      return nullptr;
    return operand->get();
  }

  SmallVector<int64_t> allLoops() const {
    return llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  }

  /// select(keep, chain, fill) with a constant fill, the condition a broadcast i1 tensor, a
  /// causal comparison of the column and row indices, or a comparison of the column index with
  /// per-row lengths.
  LogicalResult matchMask(arith::SelectOp select) {
    Step step{Step::Kind::Mask, select.getType()};
    Value chain;
    bool removedWhenTrue;
    if ((step.constant = getConstantFloat(select.getFalseValue()))) {
      chain = select.getTrueValue();
      removedWhenTrue = false;
    } else if ((step.constant = getConstantFloat(select.getTrueValue()))) {
      chain = select.getFalseValue();
      removedWhenTrue = true;
    } else {
      return fail("a select without a constant fill");
    }
    if (step.constant->isNaN())
      return fail("a mask with a NaN fill");

    Value condition = select.getCondition();
    // An index comparison, in this body or computed into an i1 tensor by an element-wise op used
    // only here (which then goes too).
    auto cmp = resolve(condition, nullptr, /*singleUse=*/true).getDefiningOp<arith::CmpIOp>();
    bool isIndexMask = false;
    if (cmp && axis) {
      arith::CmpIPredicate removed =
          removedWhenTrue ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
      isIndexMask =
          succeeded(matchCausal(cmp, removed, step)) || succeeded(matchPadding(cmp, removed, step));
    }
    if (isIndexMask) {
      // step is set.
    } else if (OpOperand *operand = getReadOperand(condition)) {
      // Any other i1 tensor: the dialect's tensor mask keeps the elements where it is true.
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type || !type.getElementType().isInteger(1) ||
          !isTrailingBroadcast(getMap(operand), type, allLoops()))
        return fail("a select on an i1 tensor that does not broadcast to the input");
      if (removedWhenTrue)
        return fail("a tensor mask that is true where elements are removed");
      step.maskKind = MaskKind::tensor;
      step.operand = operand->get();
    } else if (cmp && !axis) {
      return fail("an index mask without a softmax to give its column axis");
    } else {
      return fail("a select on a condition that is neither an i1 tensor nor a causal or padding "
                  "comparison");
    }
    if (failed(matchValue(chain)))
      return failure();
    return push(step);
  }

  /// `value` = linalg.index `dim` + `offset`.
  static std::optional<std::pair<int64_t, int64_t>> getIndexPlusConstant(Value value) {
    int64_t offset = 0;
    if (auto add = value.getDefiningOp<arith::AddIOp>()) {
      APInt c;
      if (matchPattern(add.getRhs(), m_ConstantInt(&c)))
        value = add.getLhs();
      else if (matchPattern(add.getLhs(), m_ConstantInt(&c)))
        value = add.getRhs();
      else
        return std::nullopt;
      offset = c.getSExtValue();
    } else if (auto sub = value.getDefiningOp<arith::SubIOp>()) {
      APInt c;
      if (!matchPattern(sub.getRhs(), m_ConstantInt(&c)))
        return std::nullopt;
      value = sub.getLhs();
      offset = -c.getSExtValue();
    }
    auto index = value.getDefiningOp<linalg::IndexOp>();
    if (!index)
      return std::nullopt;
    return std::pair<int64_t, int64_t>(index.getDim(), offset);
  }

  /// Removed when col > row + offset (col the softmax axis, row the dimension before it).
  LogicalResult matchCausal(arith::CmpIOp cmp, arith::CmpIPredicate removed, Step &step) {
    auto lhs = getIndexPlusConstant(cmp.getLhs());
    auto rhs = getIndexPlusConstant(cmp.getRhs());
    if (!lhs || !rhs || *axis == 0)
      return failure();
    // Put the column on the left: col + a P row + b, i.e. col P row + (b - a).
    if (lhs->first != *axis) {
      std::swap(lhs, rhs);
      removed = swapOperands(removed);
    }
    if (lhs->first != *axis || rhs->first != *axis - 1)
      return failure();
    int64_t offset = rhs->second - lhs->second;
    bool isSigned = removed == arith::CmpIPredicate::sgt || removed == arith::CmpIPredicate::sge;
    bool isUnsigned = removed == arith::CmpIPredicate::ugt || removed == arith::CmpIPredicate::uge;
    // Unsigned comparisons agree with the signed meaning only while row + offset is not
    // negative.
    if (!isSigned && !(isUnsigned && offset >= 0))
      return failure();
    bool strict = removed == arith::CmpIPredicate::sgt || removed == arith::CmpIPredicate::ugt;
    step.maskKind = MaskKind::causal;
    step.offset = strict ? offset : offset - 1;
    return success();
  }

  /// Removed when col >= lengths[row], lengths read per row.
  LogicalResult matchPadding(arith::CmpIOp cmp, arith::CmpIPredicate removed, Step &step) {
    auto isColumn = [&](Value v) {
      if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
        v = cast.getIn();
      auto index = v.getDefiningOp<linalg::IndexOp>();
      return index && int64_t(index.getDim()) == *axis;
    };
    Value col = cmp.getLhs(), length = cmp.getRhs();
    if (!isColumn(col)) {
      std::swap(col, length);
      removed = swapOperands(removed);
    }
    // Signed only: a negative length removes the whole row in the dialect.
    if (!isColumn(col) || removed != arith::CmpIPredicate::sge)
      return failure();
    if (auto cast = length.getDefiningOp<arith::IndexCastOp>())
      length = cast.getIn();
    OpOperand *operand = getReadOperand(length);
    auto type = operand ? dyn_cast<RankedTensorType>(operand->get().getType()) : nullptr;
    if (!type || !(type.getElementType().isInteger(32) || type.getElementType().isInteger(64)))
      return failure();
    SmallVector<int64_t> rowLoops = allLoops();
    rowLoops.erase(rowLoops.begin() + *axis);
    if (!isTrailingBroadcast(getMap(operand), type, rowLoops))
      return failure();
    step.maskKind = MaskKind::padding;
    step.operand = operand->get();
    return success();
  }

  PatternRewriter &rewriter;
  linalg::LinalgOp op;
  std::optional<int64_t> axis;
  ArrayRef<int64_t> shape;
  Value input;
  SmallVector<Step> steps;
};

/// The element-wise linalg op that feeds a softmax-dialect op (and nothing else) becomes a chain
/// of neighbour ops. Rooted at the dialect op, so the chain grows up from a raised softmax and
/// element-wise code elsewhere is left alone.
template <typename OpTy> struct RaiseProducerChain : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy user, PatternRewriter &rewriter) const override {
    Value value = user.getInput();
    auto producer = value.template getDefiningOp<linalg::LinalgOp>();
    if (!producer || !value.hasOneUse() || !isElementwise(producer))
      return rewriter.notifyMatchFailure(user, "the input is not an element-wise linalg op used "
                                               "only here");
    ChainMatcher chain(rewriter, producer, getChainAxis(user));
    if (failed(chain.match()))
      return failure();
    if (chain.empty())
      return rewriter.notifyMatchFailure(user, "the producer only copies its input");
    rewriter.setInsertionPoint(producer);
    Value raised = chain.build();
    rewriter.replaceOp(producer, raised);
    return success();
  }
};

/// extf / truncf of a softmax or log_softmax result becomes softmax.cast (the epilogue that
/// softmax-fuse folds into the store).
struct RaiseEpilogueCast : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op, PatternRewriter &rewriter) const override {
    if (!isElementwise(op) || op.getNumDpsInputs() != 1)
      return rewriter.notifyMatchFailure(op, "not an element-wise op of one tensor");
    Operation *convert = getYielded(op).getDefiningOp();
    if (!isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(convert))
      return rewriter.notifyMatchFailure(op, "not a float cast");
    OpOperand *operand = getReadOperand(convert->getOperand(0));
    if (!operand || !getMap(operand).isIdentity() ||
        !isa_and_nonnull<SoftmaxOp, LogSoftmaxOp>(operand->get().getDefiningOp()))
      return rewriter.notifyMatchFailure(op, "does not cast a softmax result in place");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!isStorageType(type.getElementType()))
      return rewriter.notifyMatchFailure(op, "casts to a type other than f32, f16 or bf16");
    rewriter.replaceOpWithNewOp<CastOp>(op, type, operand->get());
    return success();
  }
};

struct RaisePass : softmax::impl::RaisePassBase<RaisePass> {
  using RaisePassBase::RaisePassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateRaisePatterns(patterns, maskedRows);
    // Rewrite only what is raised: no folding or region simplification of the rest of the
    // program (dead ops left by a raise are still erased).
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::softmax::populateRaisePatterns(RewritePatternSet &patterns, MaskedRows maskedRows) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RaiseLinalgSoftmax, RaiseDecomposedSoftmax>(context, maskedRows);
  patterns.add<RaiseEpilogueCast, RaiseProducerChain<SoftmaxOp>, RaiseProducerChain<LogSoftmaxOp>,
               RaiseProducerChain<ScaleOp>, RaiseProducerChain<AddBiasOp>,
               RaiseProducerChain<MaskOp>, RaiseProducerChain<CastOp>>(context);
}
