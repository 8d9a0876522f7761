//===- RaiseTest.cpp - populateRaisePatterns in an embedder's own driver --===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::softmax;

namespace {

// An embedder that runs the raising patterns with its own greedy driver, on a whole module, gets
// the same rewrite as softmax-raise.
TEST(RaiseTest, PatternsRaiseLinalgSoftmaxInAnotherDriver) {
  MLIRContext context;
  DialectRegistry registry;
  registerDialects(registry);
  context.appendDialectRegistry(registry);
  // The dialects the patterns create ops of; a pass declares them as dependent dialects.
  context.loadDialect<SoftmaxDialect, arith::ArithDialect, tensor::TensorDialect>();

  const char *source = R"mlir(
    func.func @f(%x: tensor<8x?x32xf16>, %init: tensor<8x?x32xf16>) -> tensor<8x?x32xf16> {
      %y = linalg.softmax dimension(1) ins(%x : tensor<8x?x32xf16>)
             outs(%init : tensor<8x?x32xf16>) -> tensor<8x?x32xf16>
      return %y : tensor<8x?x32xf16>
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);

  RewritePatternSet patterns(&context);
  populateRaisePatterns(patterns);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(module->getOperation(), std::move(patterns))));
  ASSERT_TRUE(succeeded(verify(*module)));

  SmallVector<SoftmaxOp> raised;
  module->walk([&](SoftmaxOp op) { raised.push_back(op); });
  ASSERT_EQ(raised.size(), 1u);
  EXPECT_EQ(raised.front().getAxis(), 1);
  EXPECT_EQ(raised.front().getMaskedRows(), MaskedRows::nan);
  bool linalgLeft = false;
  module->walk([&](Operation *op) {
    linalgLeft |= op->getDialect() && op->getDialect()->getNamespace() == "linalg";
  });
  EXPECT_FALSE(linalgLeft);
}

} // namespace
