//===- embedding-opt.cpp - An embedder's opt tool -------------------------===//
//
// The softmax dialect and passes in someone else's opt tool, plus a pass of its own that runs
// the project's raising and fusion patterns (populateRaisePatterns, populateFusePatterns) in
// one go: linalg softmax to softmax.fused ops.
//
//===----------------------------------------------------------------------===//

#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct RaiseAndFusePass : PassWrapper<RaiseAndFusePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RaiseAndFusePass)

  StringRef getArgument() const override { return "embedding-raise-and-fuse"; }
  StringRef getDescription() const override {
    return "linalg softmax and its neighbours to softmax.fused (the project's patterns)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<softmax::SoftmaxDialect, arith::ArithDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    RewritePatternSet raise(&getContext());
    softmax::populateRaisePatterns(raise);
    RewritePatternSet fuse(&getContext());
    softmax::populateFusePatterns(fuse);
    if (failed(applyPatternsGreedily(getOperation(), std::move(raise), config)) ||
        failed(applyPatternsGreedily(getOperation(), std::move(fuse), config)))
      signalPassFailure();
  }
};

} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  softmax::registerDialects(registry);
  softmax::registerPasses();
  PassRegistration<RaiseAndFusePass>();
  return asMainReturnCode(MlirOptMain(argc, argv, "An embedder's opt tool\n", registry));
}
