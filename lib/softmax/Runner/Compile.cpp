//===- Compile.cpp - softmax-run's compilation of a program ---------------===//

#include "softmax/Runner/Compile.h"

#include "softmax/Conversion/Passes.h"
#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Runner/Progress.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace softmax::runner {

namespace {
std::string print(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

std::string print(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}
} // namespace

FailureOr<ProgramPlan> planProgram(ModuleOp module, llvm::StringRef entry,
                                   const PipelineSettings &settings) {
  Phase phase("planning (softmax-fuse, softmax-select-strategy, softmax-lower-to-gpu)");
  ProgramPlan result;
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  pm.addNestedPass<func::FuncOp>(mlir::softmax::createFusePass());
  mlir::softmax::SelectStrategyPassOptions strategy;
  strategy.chip = settings.chip;
  strategy.registersPerThread = settings.registersPerThread;
  strategy.threadsPerBlock = settings.threadsPerBlock;
  pm.addNestedPass<func::FuncOp>(mlir::softmax::createSelectStrategyPass(strategy));
  if (failed(pm.run(*clone)))
    return failure();
  auto fn = clone->lookupSymbol<func::FuncOp>(entry);
  fn.walk([&](mlir::softmax::FusedOp fused) {
    std::string plan = mlir::softmax::stringifyNormalization(fused.getNormalization()).str() +
                       " " + print(fused.getInput().getType()) + " -> " +
                       print(fused.getType()) + ": ";
    plan += fused.getStrategiesAttr() ? print(fused.getStrategiesAttr()) : "(none)";
    result.plans.push_back(plan);
  });

  PassManager lower(module.getContext());
  // The plans must fit the chip the kernels are compiled for (e.g. a row_shared row in its
  // shared memory), as in buildSoftmaxToNVVMPipeline.
  mlir::softmax::LowerToGPUPassOptions lowerOptions;
  lowerOptions.chip = settings.chip;
  lowerOptions.maxRegisters = settings.maxRegisters;
  lower.addPass(mlir::softmax::createLowerToGPUPass(lowerOptions));
  if (failed(lower.run(*clone)))
    return failure();
  clone->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel() && kernel.getName().starts_with(entry))
      result.kernels.push_back(kernel.getName().str());
  });
  return result;
}

LogicalResult compileProgram(ModuleOp module, const PipelineSettings &settings) {
  Phase phase("compiling the kernels and the host code (softmax-to-nvvm)");
  PassManager pm(module.getContext());
  mlir::softmax::SoftmaxToNVVMOptions options;
  fillPipelineOptions(settings, options);
  mlir::softmax::buildSoftmaxToNVVMPipeline(pm, options);
  return pm.run(module);
}

} // namespace softmax::runner
