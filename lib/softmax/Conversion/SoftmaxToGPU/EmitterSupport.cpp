//===- EmitterSupport.cpp - What the kernel emitters share ----------------===//
//
// The base of the row kernels' and the strided_axis kernels' emitters: see EmitterSupport.h.
//
//===----------------------------------------------------------------------===//

#include "EmitterSupport.h"

#include "Normalization.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::softmax;

Value KernelEmitterBase::toF32(Value v) {
  Type t = v.getType();
  if (t.isF32())
    return v;
  if (t.getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc, f32, v);
  return arith::TruncFOp::create(b, loc, f32, v); // an f64 scalar operand
}

Value KernelEmitterBase::fromF32(Value v, Type type) {
  if (type.isF32())
    return v;
  return arith::TruncFOp::create(b, loc, type, v);
}

Value KernelEmitterBase::negInfOf(Type type) {
  auto elementType = cast<FloatType>(getElementTypeOrSelf(type));
  APFloat inf = APFloat::getInf(elementType.getFloatSemantics(), /*Negative=*/true);
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, vectorType, DenseElementsAttr::get(vectorType, inf));
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, inf));
}

Value KernelEmitterBase::opaqueWords(Value raw) {
  auto rawType = cast<VectorType>(raw.getType());
  auto wordsType = VectorType::get({rawType.getNumElements() / 2}, b.getI32Type());
  Value words = vector::BitCastOp::create(b, loc, wordsType, raw);
  SmallVector<Value> opaque;
  for (int64_t w = 0; w < wordsType.getNumElements(); ++w) {
    Value word = vector::ExtractOp::create(b, loc, words, w);
    opaque.push_back(LLVM::InlineAsmOp::create(
                         b, loc, b.getI32Type(), ValueRange{word}, "mov.b32 $0, $1;", "=r,r",
                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                         LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                         ArrayAttr())
                         .getResult(0));
  }
  return vector::BitCastOp::create(b, loc, rawType,
                                   vector::FromElementsOp::create(b, loc, wordsType, opaque));
}

Value KernelEmitterBase::combineAll(SmallVector<Value> values, bool isMax) {
  while (values.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < values.size(); i += 2)
      next.push_back(combine(values[i], values[i + 1], isMax));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

std::pair<Value, Value> KernelEmitterBase::mergeMaxSum(Value ma, Value sa, Value mb, Value sb) {
  Value m = maxf(ma, mb);
  Value safe = safeMax(m);
  return {m, addf(mulf(sa, emitExpShifted(b, loc, ma, safe)),
                  mulf(sb, emitExpShifted(b, loc, mb, safe)))};
}

void KernelEmitterBase::ifThen(Value cond, function_ref<void()> then) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
  then();
}

Value KernelEmitterBase::ifElse(Value cond, Type type, function_ref<Value()> then,
                                function_ref<Value()> otherwise) {
  return ifElseValues(
             cond, TypeRange{type}, [&] { return SmallVector<Value>{then()}; },
             [&] { return SmallVector<Value>{otherwise()}; })
      .front();
}

SmallVector<Value> KernelEmitterBase::ifElseValues(Value cond, TypeRange types,
                                                   function_ref<SmallVector<Value>()> then,
                                                   function_ref<SmallVector<Value>()> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, then());
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, otherwise());
  return SmallVector<Value>(ifOp.getResults());
}
