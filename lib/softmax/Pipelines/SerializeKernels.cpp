//===- SerializeKernels.cpp - gpu.module to gpu.binary, in parallel -------===//
//
// Upstream's gpu-module-to-binary compiles the modules one after the other. A dynamic program
// has dozens of kernels, each in a module of its own, and LLVM's NVPTX back end is most of the
// time of a compile: here each module is serialized on MLIR's thread pool (the back end keeps
// its state in each compile's own LLVMContext and TargetMachine), then the gpu.binary ops are
// created in the modules' order, so the result is that of a sequential run.
//
//===----------------------------------------------------------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace mlir::softmax {
#define GEN_PASS_DEF_SERIALIZEKERNELSPASS
#include "softmax/Pipelines/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;

namespace {

std::optional<gpu::CompilationTarget> parseFormat(StringRef format) {
  return llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
      .Case("isa", gpu::CompilationTarget::Assembly)
      .Case("bin", gpu::CompilationTarget::Binary)
      .Case("fatbin", gpu::CompilationTarget::Fatbin)
      .Default(std::nullopt);
}

/// The lowest PTX ISA version (times 10) LLVM's NVPTX back end accepts for `chip`, or 0 where
/// this table does not know it. Below it the back end aborts the process ("PTX version 6.0
/// does not support target 'sm_90'") instead of returning an error: a fuzzer finding, a user
/// gpu.module with `features = "+ptx60"`.
unsigned getMinimumPtxVersion(StringRef chip) {
  unsigned sm = 0;
  if (!chip.consume_front("sm_") || chip.consumeInteger(10, sm))
    return 0;
  bool archSpecific = chip == "a" || chip == "f";
  // From the newest chip down: the first whose number `sm` reaches gives the minimum, and the
  // arch-specific variant (sm_90a, sm_100f) its own.
  struct Minimum {
    unsigned sm, ptx, archSpecificPtx;
  };
  static constexpr Minimum minima[] = {{120, 87, 88}, {100, 86, 88}, {90, 78, 80}, {89, 78, 78},
                                       {87, 74, 74},  {86, 71, 71},  {80, 70, 70}, {75, 63, 63},
                                       {72, 61, 61},  {70, 60, 60},  {60, 50, 50}};
  for (const Minimum &minimum : minima)
    if (sm >= minimum.sm)
      return archSpecific ? minimum.archSpecificPtx : minimum.ptx;
  return 32;
}

/// LLVM's NVPTX subtarget description, which knows the chips and features the back end takes
/// (null where this LLVM was built without the NVPTX target).
const llvm::MCSubtargetInfo *getNvptxSubtargetInfo() {
  static const std::unique_ptr<llvm::MCSubtargetInfo> info = [] {
    NVVM::SerializeGPUModuleBase::init();
    llvm::Triple triple("nvptx64-nvidia-cuda");
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
    return std::unique_ptr<llvm::MCSubtargetInfo>(
        target ? target->createMCSubtargetInfo(triple, "", "") : nullptr);
  }();
  return info.get();
}

/// Checks an NVVM target's chip and features against what LLVM's NVPTX back end knows (it
/// prints "... is not a recognized feature for this target (ignoring feature)" and compiles
/// for its defaults: a fuzzer's `+ptw60`), and its `+ptxNN` features against the chip's
/// minimum (getMinimumPtxVersion).
LogicalResult checkTarget(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target) {
  SmallVector<StringRef> features;
  target.getFeatures().split(features, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (const llvm::MCSubtargetInfo *info = getNvptxSubtargetInfo()) {
    if (!info->isCPUStringValid(target.getChip()))
      return module.emitError() << "the target " << target << " names chip '"
                                << target.getChip()
                                << "', which LLVM's NVPTX back end does not know (such as "
                                   "sm_80, sm_90 or sm_90a)";
    for (StringRef feature : features) {
      StringRef name = feature.trim();
      if (!name.consume_front("+") && !name.consume_front("-"))
        return module.emitError() << "the target " << target << " has feature '"
                                  << feature.trim() << "', which is not +name or -name";
      if (!llvm::any_of(info->getAllProcessorFeatures(),
                        [&](const llvm::SubtargetFeatureKV &known) { return name == known.Key; }))
        return module.emitError() << "the target " << target << " has feature '"
                                  << feature.trim()
                                  << "', which LLVM's NVPTX back end does not know (PTX ISA "
                                     "versions are +ptxNN: +ptx80 for PTX ISA 8.0)";
    }
  }
  unsigned minimum = getMinimumPtxVersion(target.getChip());
  for (StringRef feature : features) {
    unsigned version = 0;
    feature = feature.trim();
    if (!feature.consume_front("+ptx") || feature.getAsInteger(10, version))
      continue;
    if (version < minimum)
      return module.emitError() << "the target " << target << " asks for PTX ISA "
                                << version / 10 << "." << version % 10 << ", but "
                                << target.getChip() << " needs " << minimum / 10 << "."
                                << minimum % 10 << " or later";
  }
  return success();
}

std::optional<SmallVector<char, 0>> serialize(gpu::GPUModuleOp module, Attribute attr,
                                              const gpu::TargetOptions &options,
                                              gpu::TargetAttrInterface &target) {
  target = dyn_cast<gpu::TargetAttrInterface>(attr);
  if (!target) {
    module.emitError() << "the target " << attr << " cannot serialize a module";
    return std::nullopt;
  }
  if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      nvvm && failed(checkTarget(module, nvvm)))
    return std::nullopt;
  std::optional<SmallVector<char, 0>> object = target.serializeToObject(module, options);
  if (!object)
    module.emitError("an error happened while serializing the module");
  return object;
}

gpu::TargetOptions getTargetOptions(gpu::CompilationTarget format) {
  return gpu::TargetOptions(/*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
                            /*elfSection=*/{}, format);
}

/// The objects of `module`, one per target (as gpu-module-to-binary makes them).
LogicalResult serializeTargets(gpu::GPUModuleOp module, const gpu::TargetOptions &options,
                               SmallVectorImpl<Attribute> &objects) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets || targets.empty())
    return module.emitError("the module has no target attributes");
  for (Attribute attr : targets) {
    gpu::TargetAttrInterface target;
    std::optional<SmallVector<char, 0>> object = serialize(module, attr, options, target);
    if (!object)
      return failure();
    Attribute created = target.createObject(module, *object, options);
    if (!created)
      return module.emitError("an error happened while creating the object");
    objects.push_back(created);
  }
  return success();
}

struct SerializeKernelsPass : softmax::impl::SerializeKernelsPassBase<SerializeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<gpu::CompilationTarget> target = parseFormat(format);
    if (!target) {
      module.emitError() << "softmax-serialize-kernels: format must be isa, bin or fatbin, got '"
                         << format << "'";
      return signalPassFailure();
    }
    SmallVector<gpu::GPUModuleOp> kernels = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    SmallVector<SmallVector<Attribute>> objects(kernels.size());
    gpu::TargetOptions options = getTargetOptions(*target);
    // Diagnostics from the threads come out in the modules' order (failableParallelForEach).
    if (failed(failableParallelForEach(&getContext(), llvm::seq<size_t>(0, kernels.size()),
                                       [&](size_t i) {
                                         return serializeTargets(kernels[i], options, objects[i]);
                                       })))
      return signalPassFailure();
    OpBuilder builder(&getContext());
    for (auto [kernel, kernelObjects] : llvm::zip(kernels, objects)) {
      builder.setInsertionPointAfter(kernel);
      auto handler = dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
          kernel.getOffloadingHandlerAttr());
      gpu::BinaryOp::create(builder, kernel.getLoc(), kernel.getName(), handler,
                            builder.getArrayAttr(kernelObjects));
      kernel->erase();
    }
  }
};

} // namespace

FailureOr<SmallVector<char, 0>> mlir::softmax::serializeKernelModule(Operation *op,
                                                                     StringRef format) {
  auto module = dyn_cast<gpu::GPUModuleOp>(op);
  if (!module)
    return op->emitError("expected a gpu.module");
  std::optional<gpu::CompilationTarget> target = parseFormat(format);
  if (!target)
    return module.emitError() << "format must be isa, bin or fatbin, got '" << format << "'";
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets || targets.size() != 1)
    return module.emitError("expected the module to have one target");
  gpu::TargetAttrInterface targetAttr;
  std::optional<SmallVector<char, 0>> object =
      serialize(module, targets[0], getTargetOptions(*target), targetAttr);
  if (!object)
    return failure();
  return std::move(*object);
}
