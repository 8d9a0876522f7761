//===- SoftmaxToNVVM.cpp - The softmax-to-nvvm pipeline -------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "softmax/Conversion/Passes.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::softmax;

llvm::Error mlir::softmax::verifySoftmaxToNVVMOptions(const SoftmaxToNVVMOptions &options) {
  auto error = [](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (!TargetInfo::forChip(options.chip))
    return error("unknown chip '" + options.chip + "' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)");
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin")
    return error("format must be isa (PTX), bin (cubin) or fatbin, got '" + format + "'");
  if (options.optLevel < 0 || options.optLevel > 3)
    return error("opt-level must be 0, 1, 2 or 3, got " + Twine(options.optLevel));
  SmallVector<StringRef> features;
  StringRef(options.features).split(features, ',');
  for (StringRef feature : features)
    if (feature.size() < 2 || (feature.front() != '+' && feature.front() != '-'))
      return error("features must be a comma-separated list of +feature or -feature (e.g. "
                   "+ptx80), got '" + options.features + "'");
  int64_t maxRegisters = options.maxRegisters;
  if (maxRegisters != 0 && (maxRegisters < 24 || maxRegisters > 255))
    return error("max-registers must be 0 (each plan's own budget) or in [24, 255], got " +
                 Twine(maxRegisters));
  if (!options.ptxFile.empty() && format != "isa")
    return error("ptx-file needs format=isa (with format=" + format + " there is no PTX to write)");
  return llvm::Error::success();
}

void mlir::softmax::buildSoftmaxToNVVMPipeline(OpPassManager &pm,
                                               const SoftmaxToNVVMOptions &options) {
  buildSoftmaxToGPUPipeline(pm, options);
  buildGPUToNVVMBinaryPipeline(pm, options);
}

void mlir::softmax::buildSoftmaxToGPUPipeline(OpPassManager &pm,
                                              const SoftmaxToNVVMOptions &options) {
  pm.addNestedPass<func::FuncOp>(createFusePass());
  SelectStrategyPassOptions strategy;
  strategy.chip = options.chip;
  strategy.registersPerThread = options.registersPerThread;
  strategy.threadsPerBlock = options.threadsPerBlock;
  pm.addNestedPass<func::FuncOp>(createSelectStrategyPass(strategy));
  LowerToGPUPassOptions lower;
  lower.chip = options.chip;
  lower.maxRegisters = options.maxRegisters;
  pm.addPass(createLowerToGPUPass(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::softmax::buildGPUToNVVMBinaryPipeline(OpPassManager &pm,
                                                 const SoftmaxToNVVMOptions &options) {
  // LLVM options that only a process-wide switch sets, for upstream's gpu-module-to-binary.
  SetBackendOptionsPassOptions backend;
  backend.loopStrengthReduction = options.loopStrengthReduction;
  pm.addPass(createSetBackendOptionsPass(backend));
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
  // PassPipelineRegistration would build whatever the options say: check them first, so that a
  // bad option fails the tool instead of a pass printing an error and exiting 0.
  registerPassPipeline(
      "softmax-to-nvvm",
      "Compile softmax-dialect functions to GPU kernels (PTX or cubin) and LLVM host code",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) -> LogicalResult {
        SoftmaxToNVVMOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (llvm::Error error = verifySoftmaxToNVVMOptions(options))
          return errorHandler("softmax-to-nvvm: " + llvm::toString(std::move(error)));
        buildSoftmaxToNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(SoftmaxToNVVMOptions());
      });
  registerCheckPTXPass();
  registerSetBackendOptionsPass();
}
