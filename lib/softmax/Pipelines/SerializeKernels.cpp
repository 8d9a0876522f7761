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
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"

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

std::optional<SmallVector<char, 0>> serialize(gpu::GPUModuleOp module, Attribute attr,
                                              const gpu::TargetOptions &options,
                                              gpu::TargetAttrInterface &target) {
  target = dyn_cast<gpu::TargetAttrInterface>(attr);
  if (!target) {
    module.emitError() << "the target " << attr << " cannot serialize a module";
    return std::nullopt;
  }
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
