//===- Fuse.cpp - Fuse prologue -> softmax -> epilogue chains -------------===//

#include "softmax/Dialect/Softmax/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_FUSEPASS
#include "softmax/Dialect/Softmax/Transforms/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;
using namespace mlir::softmax;

namespace {

bool isElementwise(Operation *op) { return isa<ScaleOp, AddBiasOp, MaskOp, CastOp>(op); }

/// Whether a cast from `from` to `to` loses nothing (so the fused op needs no step for it).
bool isExactCast(Type from, Type to) { return from == to || to.isF32(); }

/// Builds the prologue and side operands of one fused op, step by step.
class Chain {
public:
  explicit Chain(MLIRContext *context) : context(context) {}

  void addStep(Operation *op) {
    if (auto scale = dyn_cast<ScaleOp>(op)) {
      if (FloatAttr factor = scale.getFactorAttr())
        steps.push_back(ScaleStepAttr::get(context, APFloat(factor.getValueAsDouble())));
      else
        steps.push_back(ScaleByStepAttr::get(context, indexOf(scale.getDynamicFactor())));
    } else if (auto bias = dyn_cast<AddBiasOp>(op)) {
      steps.push_back(BiasStepAttr::get(context, indexOf(bias.getBias())));
    } else if (auto mask = dyn_cast<MaskOp>(op)) {
      int64_t operand = mask.getMask() ? indexOf(mask.getMask()) : -1;
      steps.push_back(MaskStepAttr::get(context, mask.getKind(), operand, mask.getOffset(),
                                        mask.getFill()));
    } else if (auto cast = dyn_cast<CastOp>(op)) {
      Type from = cast.getInput().getType().getElementType();
      Type to = cast.getResult().getType().getElementType();
      if (!isExactCast(from, to))
        steps.push_back(RoundStepAttr::get(context, to));
    }
  }

  ArrayAttr prologue() const { return ArrayAttr::get(context, steps); }
  ArrayRef<Value> sideOperands() const { return operands; }

private:
  int64_t indexOf(Value value) {
    auto it = llvm::find(operands, value);
    if (it != operands.end())
      return it - operands.begin();
    operands.push_back(value);
    return operands.size() - 1;
  }

  MLIRContext *context;
  SmallVector<Attribute> steps;
  SmallVector<Value> operands;
};

/// Walks up from `value` through element-wise ops whose result has no other user, and returns
/// them first to last. A mask joins only if its axis is `axis` (when `axis` is set); the first
/// mask met sets it otherwise.
SmallVector<Operation *> collectPrologue(Value value, std::optional<int64_t> &axis) {
  SmallVector<Operation *> chain;
  while (Operation *def = value.getDefiningOp()) {
    if (!isElementwise(def) || !value.hasOneUse())
      break;
    if (auto mask = dyn_cast<MaskOp>(def)) {
      if (axis && mask.getNormalizedAxis() != *axis)
        break;
      axis = mask.getNormalizedAxis();
    }
    chain.push_back(def);
    value = def->getOperand(0);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// Replaces `ops` (a chain, first to last, whose last op produces the chain's result) by one
/// softmax.fused op.
void replaceChain(RewriterBase &rewriter, ArrayRef<Operation *> ops, Value input,
                  Normalization normalization, int64_t axis, MaskedRows maskedRows) {
  Operation *tail = ops.back();
  // Steps are the ops before the softmax; a cast that ends the chain is the store itself (the
  // fused op's result type), not a step.
  Chain chain(rewriter.getContext());
  for (Operation *op : ops) {
    if (isa<SoftmaxOp, LogSoftmaxOp>(op))
      break;
    if (op == tail && isa<CastOp>(op))
      break;
    chain.addStep(op);
  }
  rewriter.setInsertionPoint(tail);
  auto fused = FusedOp::create(rewriter, tail->getLoc(), tail->getResult(0).getType(), input,
                               chain.sideOperands(), normalization, axis, chain.prologue(),
                               maskedRows, /*strategies=*/ArrayAttr());
  rewriter.replaceOp(tail, fused.getResult());
  for (Operation *op : llvm::reverse(ops.drop_back()))
    rewriter.eraseOp(op);
}

struct FusePass : softmax::impl::FusePassBase<FusePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());

    // 1. Every softmax / log_softmax with its prologue and an epilogue cast.
    SmallVector<Operation *> normalizers;
    func.walk([&](Operation *op) {
      if (isa<SoftmaxOp, LogSoftmaxOp>(op))
        normalizers.push_back(op);
    });
    for (Operation *op : normalizers) {
      std::optional<int64_t> axis;
      int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
      axis = normalizeAxis(op->getAttrOfType<IntegerAttr>("axis").getInt(), rank);
      SmallVector<Operation *> chain = collectPrologue(op->getOperand(0), axis);
      Value input = chain.empty() ? op->getOperand(0) : chain.front()->getOperand(0);
      chain.push_back(op);
      Value result = op->getResult(0);
      if (result.hasOneUse() && isa<CastOp>(*result.getUsers().begin()))
        chain.push_back(*result.getUsers().begin());

      Normalization normalization = Normalization::softmax;
      MaskedRows maskedRows;
      if (auto softmax = dyn_cast<SoftmaxOp>(op)) {
        maskedRows = softmax.getMaskedRows();
      } else {
        normalization = Normalization::log_softmax;
        maskedRows = cast<LogSoftmaxOp>(op).getMaskedRows();
      }
      replaceChain(rewriter, chain, input, normalization, *axis, maskedRows);
    }

    // 2. Element-wise chains left on their own (a value with several users, or no softmax).
    // Walk backwards so that each chain is met at its last op.
    SmallVector<Operation *> leftovers;
    func.walk([&](Operation *op) {
      if (isElementwise(op))
        leftovers.push_back(op);
    });
    llvm::DenseSet<Operation *> erased;
    for (Operation *op : llvm::reverse(leftovers)) {
      if (erased.contains(op))
        continue;
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      if (type.getRank() == 0)
        continue; // nothing to lay out in rows; the lowering reports it
      std::optional<int64_t> axis;
      if (auto mask = dyn_cast<MaskOp>(op))
        axis = mask.getNormalizedAxis();
      SmallVector<Operation *> chain = collectPrologue(op->getOperand(0), axis);
      Value input = chain.empty() ? op->getOperand(0) : chain.front()->getOperand(0);
      chain.push_back(op);
      erased.insert(chain.begin(), chain.end());
      replaceChain(rewriter, chain, input, Normalization::none, axis.value_or(type.getRank() - 1),
                   MaskedRows::zero);
    }

    // 3. A result that is an argument, or a value already returned, must still land in its own
    // output buffer: an element-wise fused op with no steps copies it.
    func.walk([&](func::ReturnOp ret) {
      llvm::DenseSet<Value> returned;
      rewriter.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        bool first = returned.insert(value).second;
        if (!type || type.getRank() == 0 || (first && !isa<BlockArgument>(value)))
          continue;
        auto copy = FusedOp::create(rewriter, ret.getLoc(), type, value, ValueRange(),
                                    Normalization::none, type.getRank() - 1,
                                    rewriter.getArrayAttr({}), MaskedRows::zero, ArrayAttr());
        operand.set(copy.getResult());
      }
    });
  }
};

} // namespace
