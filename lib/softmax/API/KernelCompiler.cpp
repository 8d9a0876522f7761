//===- KernelCompiler.cpp - One kernel module to PTX or cubin -------------===//
//
// The second half of a compile, for one kernel: its gpu.module (MLIR bytecode, as compile()
// kept it) through the pipeline's kernel passes and LLVM's NVPTX back end.
//
// The kernels are compiled in one MLIRContext of the process, kept between compiles: setting up
// a context with the dialects a kernel needs costs a few milliseconds, a fifth of a small
// kernel's compile. A lock serialises the compiles in it; the context is replaced every
// kKernelsPerContext kernels, because it keeps every attribute it ever made (constants,
// locations, names).
//
//===----------------------------------------------------------------------===//

#include "KernelStore.h"

#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace mlir;

namespace {

constexpr unsigned kKernelsPerContext = 64;

struct KernelContext {
  std::mutex mutex;
  std::unique_ptr<MLIRContext> context;
  unsigned uses = 0;

  MLIRContext &get() {
    if (!context || uses >= kKernelsPerContext) {
      DialectRegistry registry;
      mlir::softmax::registerDialects(registry);
      // No thread pool in the embedding process (as compile()'s own contexts).
      context = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
      context->loadAllAvailableDialects();
      uses = 0;
    }
    ++uses;
    return *context;
  }
};

KernelContext &getKernelContext() {
  static KernelContext kernelContext;
  return kernelContext;
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

namespace softmax::api {

llvm::Expected<std::string> compileKernelSource(llvm::StringRef source,
                                                const CompileOptions &options) {
  KernelContext &shared = getKernelContext();
  std::lock_guard<std::mutex> lock(shared.mutex);
  MLIRContext &context = shared.get();

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(source, "<kernel>",
                                                                /*RequiresNullTerminator=*/false),
                               llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnosticStream);
  auto failedWith = [&](llvm::StringRef fallback) {
    while (!diagnostics.empty() && diagnostics.back() == '\n')
      diagnostics.pop_back();
    return makeError(diagnostics.empty() ? fallback : llvm::StringRef(diagnostics));
  };

  ParserConfig config(&context, /*verifyAfterParse=*/options.verifyPasses);
  Block block;
  if (failed(parseSourceFile(sourceMgr, &block, config)) ||
      !llvm::hasSingleElement(block.getOperations()) || !isa<gpu::GPUModuleOp>(block.front()))
    return failedWith("the kernel's module could not be read");
  // In a module, as in the pipeline: passes find the data layout on the enclosing module.
  auto kernel = cast<gpu::GPUModuleOp>(block.front());
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  kernel->moveBefore(module->getBody(), module->getBody()->end());

  PassManager pm(&context);
  pm.enableVerifier(options.verifyPasses);
  mlir::softmax::buildKernelToNVVMPipeline(pm.nest<gpu::GPUModuleOp>());
  if (failed(pm.run(*module)))
    return failedWith("the kernel's pipeline failed without a diagnostic");

  mlir::softmax::applyBackendOptions(options.loopStrengthReduction);
  FailureOr<SmallVector<char, 0>> object =
      mlir::softmax::serializeKernelModule(kernel, options.format);
  if (failed(object))
    return failedWith("the kernel could not be compiled");
  return std::string(object->begin(), object->end());
}

} // namespace softmax::api
