//===- KernelVectorToSCF.cpp - convert-vector-to-scf where it applies -----===//
//
// A pass with nothing to do still walks every op of every kernel: convert-vector-to-scf, which
// upstream's GPU pipeline runs on all of them, rewrites only vector transfers and prints, and
// the softmax kernels have neither.
//
//===----------------------------------------------------------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_KERNELVECTORTOSCFPASS
#include "softmax/Pipelines/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;

namespace {

struct KernelVectorToSCFPass : softmax::impl::KernelVectorToSCFPassBase<KernelVectorToSCFPass> {
  using Base::Base;

  KernelVectorToSCFPass() { conversion.addPass(createConvertVectorToSCFPass()); }
  KernelVectorToSCFPass(const KernelVectorToSCFPass &other)
      : KernelVectorToSCFPassBase(other), conversion(other.conversion) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    conversion.getDependentDialects(registry);
  }

  void runOnOperation() override {
    bool found = getOperation()
                     ->walk([](Operation *op) {
                       return isa<vector::TransferReadOp, vector::TransferWriteOp,
                                  vector::PrintOp>(op)
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
    if (found && failed(runPipeline(conversion, getOperation())))
      signalPassFailure();
  }

  OpPassManager conversion{gpu::GPUModuleOp::getOperationName()};
};

} // namespace
