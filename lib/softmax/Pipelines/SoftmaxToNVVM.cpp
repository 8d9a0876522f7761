//===- SoftmaxToNVVM.cpp - The softmax-to-nvvm pipeline -------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "softmax/Conversion/Passes.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Target/TargetInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
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
  lower.modulePerKernel = true;
  pm.addPass(createLowerToGPUPass(lower));
  // gpu.launch regions in functions without softmax ops become kernels too (as upstream's
  // pipeline outlines them), and every kernel module gets the target it is compiled for.
  pm.addPass(createGpuKernelOutliningPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // The host functions only: each kernel is cleaned up in its own module's pipeline
  // (buildKernelToNVVMPipeline), where that work runs in parallel, or not at all for a kernel
  // the C++ API never launches.
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
}

namespace {

/// The canonicalizer for a kernel's IR: folding and patterns without region simplification
/// (merging and erasing blocks). That took half of the canonicalizer's time on the kernels
/// (the attention chain's two kernels: 13-15 of 20-30 ms), and LLVM's own CFG simplification
/// does the same: the PTX of all 723 kernels of the examples and test/Pipelines/ptxas-no-spills*
/// is the same with it or without (bench/results/2026-12-03-cpu/ptx-identity.txt).
std::unique_ptr<Pass> createKernelCanonicalizerPass() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return createCanonicalizerPass(config);
}

/// The passes that upstream's gpu-lower-to-nvvm-pipeline (MLIR 22) runs on the whole module,
/// with its options, for the host (the kernels have their own: buildKernelToNVVMPipeline).
void addHostLoweringPasses(OpPassManager &pm) {
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

} // namespace

void mlir::softmax::buildKernelToNVVMPipeline(OpPassManager &pm) {
  // The first half leaves the kernel's clean-up to this pipeline. (Without this canonicalizer
  // some kernels' PTX differs; without the CSE none did, but it is cheap and shrinks what
  // the conversion below rewrites.)
  pm.addPass(createKernelCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Upstream's pipeline also runs convert-nvgpu-to-nvvm here: the nvgpu dialect is not one that
  // softmax-opt or the library loads, so no kernel holds its ops.
  pm.addPass(createKernelVectorToSCFPass());
  // The rewrites that must come before the conversion to LLVM: structured control flow to
  // blocks, strided metadata to the affine maps it is made of, and those to arith.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // One conversion to the NVVM and LLVM dialects. convert-gpu-to-nvvm applies, beside its own
  // patterns, those of every loaded dialect's ConvertToLLVMPatternInterface (arith, cf, index,
  // memref, nvvm, vector: Registration.cpp registers them), so upstream's separate
  // convert-nvvm-to-llvm, convert-arith-to-llvm and convert-index-to-llvm before it, and the
  // canonicalizer and CSE between and after them, only walked every op again: without them
  // the PTX of every kernel of the examples and test/Pipelines/ptxas-no-spills* is the same
  // and a kernel's passes take 40% less time (docs/compile-time.md, 2026-12-07). LLVM's O3
  // does the clean-up that the last canonicalizer and CSE did.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  pm.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::softmax::buildGPUToNVVMBinaryPipeline(OpPassManager &pm,
                                                 const SoftmaxToNVVMOptions &options) {
  // LLVM options that only a process-wide switch sets, for the kernels' code generation.
  SetBackendOptionsPassOptions backend;
  backend.loopStrengthReduction = options.loopStrengthReduction;
  pm.addPass(createSetBackendOptionsPass(backend));
  // Each kernel module to NVVM and then to PTX/cubin: in parallel over the modules.
  buildKernelToNVVMPipeline(pm.nest<gpu::GPUModuleOp>());
  SerializeKernelsPassOptions serialize;
  serialize.format = options.format;
  pm.addPass(createSerializeKernelsPass(serialize));

  // The host, as upstream's pipeline lowers it; the kernels are binaries by now, so the
  // module-wide passes below no longer walk their IR.
  addHostLoweringPasses(pm);
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

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
  registerSerializeKernelsPass();
  registerKernelVectorToSCFPass();
}
