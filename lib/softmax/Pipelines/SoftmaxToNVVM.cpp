//===- SoftmaxToNVVM.cpp - The softmax-to-nvvm pipeline -------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "softmax/Conversion/Passes.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::softmax;

void mlir::softmax::buildSoftmaxToNVVMPipeline(OpPassManager &pm,
                                               const SoftmaxToNVVMOptions &options) {
  pm.addNestedPass<func::FuncOp>(createFusePass());
  SelectStrategyPassOptions strategy;
  strategy.chip = options.chip;
  strategy.registersPerThread = options.registersPerThread;
  strategy.threadsPerBlock = options.threadsPerBlock;
  pm.addNestedPass<func::FuncOp>(createSelectStrategyPass(strategy));
  pm.addPass(createLowerToGPUPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Upstream from here: gpu -> nvvm -> PTX/cubin, host -> llvm. The defaults of the upstream
  // pipeline (sm_50, +ptx60) do not suit sm_90, so every target option is passed on.
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = options.format;
  nvvm.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);

  CheckPTXPassOptions check;
  check.ptxFile = options.ptxFile;
  pm.addPass(createCheckPTXPass(check));
}

void mlir::softmax::registerSoftmaxPipelines() {
  PassPipelineRegistration<SoftmaxToNVVMOptions>(
      "softmax-to-nvvm",
      "Compile softmax-dialect functions to GPU kernels (PTX or cubin) and LLVM host code",
      buildSoftmaxToNVVMPipeline);
  registerCheckPTXPass();
}
