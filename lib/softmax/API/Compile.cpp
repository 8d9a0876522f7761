//===- Compile.cpp - The C++ API's compile() and its cache ----------------===//
//
// The pipeline's first half runs here (Pipelines.h): after it, the host functions are still
// gpu.launch_func ops on sizes, and HostProgram reads their launch rules and the kernels'
// signatures; each kernel's module is kept as MLIR bytecode, and compiled to PTX/cubin when a
// call first launches it (KernelStore.h, KernelCompiler.cpp) or, with lazyKernels off, before
// compile() returns. compile() looks the program up first in memory, then on disk
// (CompileCache.h).
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Compile.h"

#include "CompileCache.h"
#include "HostProgram.h"
#include "KernelStore.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace mlir;
using namespace ::softmax::api;

namespace {

/// The pipeline's options for `options`.
void getPipelineOptions(const CompileOptions &options,
                        mlir::softmax::SoftmaxToNVVMOptions &pipeline) {
  pipeline.chip = options.chip;
  pipeline.features = options.features;
  pipeline.optLevel = options.optLevel;
  pipeline.format = options.format;
  pipeline.registersPerThread = options.registersPerThread;
  pipeline.threadsPerBlock = options.threadsPerBlock;
  pipeline.maxRegisters = options.maxRegisters;
  pipeline.loopStrengthReduction = options.loopStrengthReduction;
}

} // namespace

bool ::softmax::api::getDefaultVerifyPasses() {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("SOFTMAX_VERIFY_PASSES"))
    return *env != "0";
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

std::string CompileOptions::str() const {
  // Printed by the pipeline's own options, so that every option it has, including one added
  // later, is in the text, each with its value or default: `{chip=sm_90 features=+ptx80 ...}`.
  mlir::softmax::SoftmaxToNVVMOptions pipeline;
  getPipelineOptions(*this, pipeline);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "softmax-to-nvvm";
  pipeline.print(os);
  os << " raise=" << (raise ? "true" : "false");
  return text;
}

namespace {

llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The diagnostics of a failed step, or `fallback` when it failed without one.
llvm::Error diagnosticsError(std::string diagnostics, StringRef fallback) {
  while (!diagnostics.empty() && diagnostics.back() == '\n')
    diagnostics.pop_back();
  return makeError(diagnostics.empty() ? fallback : StringRef(diagnostics));
}

/// The parameters of kernel `func` as MLIR's default calling convention unpacks them.
std::vector<KernelParam> getKernelParams(gpu::GPUFuncOp func) {
  std::vector<KernelParam> params;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    std::string operand;
    llvm::raw_string_ostream os(operand);
    os << "operand " << i << " (" << type << ")";
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      params.push_back({operand, *getScalarType(type)});
      continue;
    }
    params.push_back({operand + " allocated pointer", ScalarType::I64});
    params.push_back({operand + " aligned pointer", ScalarType::I64});
    params.push_back({operand + " offset", ScalarType::Index});
    for (int64_t d = 0; d < memref.getRank(); ++d)
      params.push_back({operand + " size " + std::to_string(d), ScalarType::Index});
    for (int64_t d = 0; d < memref.getRank(); ++d)
      params.push_back({operand + " stride " + std::to_string(d), ScalarType::Index});
  }
  return params;
}

/// The kernels of `module` and, parallel to them, their modules as MLIR bytecode (the pipeline
/// gives each kernel a module of its own).
LogicalResult readKernels(ModuleOp module, std::vector<KernelInfo> &kernels,
                          std::vector<std::string> &sources,
                          llvm::StringMap<unsigned> &indices) {
  WalkResult result = module.walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return WalkResult::advance();
    for (Type type : func.getArgumentTypes())
      if (!isa<MemRefType>(type) && !getScalarType(type)) {
        func.emitOpError() << "has a parameter of type " << type
                           << ", which the C++ API cannot pass";
        return WalkResult::interrupt();
      }
    KernelInfo kernel;
    kernel.name = func.getName().str();
    if (std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize())
      for (auto [i, size] : llvm::enumerate(*block))
        kernel.block[i] = size;
    for (BlockArgument buffer : func.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(buffer.getType());
      kernel.staticSharedBytes += type.getNumElements() * type.getElementTypeBitWidth() / 8;
    }
    if (auto registers = func->getAttrOfType<IntegerAttr>("nvvm.maxnreg"))
      kernel.maxRegisters = registers.getInt();
    kernel.params = getKernelParams(func);
    std::string source;
    llvm::raw_string_ostream os(source);
    if (failed(writeBytecodeToFile(func->getParentOp(), os))) {
      func.emitOpError("could not be written as bytecode");
      return WalkResult::interrupt();
    }
    indices[kernel.name] = kernels.size();
    kernels.push_back(std::move(kernel));
    sources.push_back(std::move(source));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Host functions worth calling: public, with a body, and launching kernels or taking buffers.
bool isHostFunction(func::FuncOp func) {
  if (func.isExternal() || !func.isPublic() || func.getNumResults() != 0)
    return false;
  return llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<MemRefType>) ||
         func.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

llvm::Expected<std::shared_ptr<const Executable>>
compileUncached(StringRef source, const CompileOptions &options, StringRef bufferName) {
  mlir::softmax::SoftmaxToNVVMOptions pipeline;
  getPipelineOptions(options, pipeline);
  if (llvm::Error error = mlir::softmax::verifySoftmaxToNVVMOptions(pipeline))
    return makeError("invalid compile options: " + llvm::toString(std::move(error)));

  // A context of our own for each compilation: nothing leaks between programs or into the
  // embedder's contexts, and no thread pool is started inside the embedding process.
  DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
                               llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnosticStream);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return diagnosticsError(diagnostics, "the program could not be parsed");

  // Which arguments are outputs: the results of each source function become trailing ones.
  llvm::StringMap<unsigned> inputCounts;
  for (auto func : module->getOps<func::FuncOp>())
    inputCounts[func.getSymName()] = func.getNumArguments();

  // The parser verified the input; after that, passes are verified only on request
  // (CompileOptions::verifyPasses).
  PassManager toGPU(&context);
  toGPU.enableVerifier(options.verifyPasses);
  if (options.raise)
    toGPU.addNestedPass<func::FuncOp>(mlir::softmax::createRaisePass());
  mlir::softmax::buildSoftmaxToGPUPipeline(toGPU, pipeline);
  if (failed(toGPU.run(*module)))
    return diagnosticsError(diagnostics, "the pipeline failed without a diagnostic");

  std::vector<KernelInfo> kernels;
  std::vector<std::string> sources;
  llvm::StringMap<unsigned> kernelIndices;
  if (failed(readKernels(*module, kernels, sources, kernelIndices)))
    return diagnosticsError(diagnostics, "a kernel could not be read");
  std::vector<FunctionInfo> functions;
  std::vector<HostProgram> programs;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!isHostFunction(func))
      continue;
    FunctionInfo info;
    FailureOr<HostProgram> program = HostProgram::build(func, kernelIndices, info);
    if (failed(program))
      return diagnosticsError(diagnostics, "a host function could not be read");
    unsigned inputs = inputCounts.lookup(func.getSymName());
    for (auto [i, argument] : llvm::enumerate(info.arguments))
      argument.isOutput = i >= inputs;
    functions.push_back(std::move(info));
    programs.push_back(std::move(*program));
  }
  if (functions.empty())
    return makeError("the program has no function to call (a public func.func on tensors "
                     "with softmax ops)");

  return std::make_shared<const Executable>(options, std::move(kernels), std::move(sources),
                                            std::move(functions), std::move(programs));
}

struct Cache {
  std::mutex mutex;
  MemoryCache executables{kCompileCacheCapacity};
  CompileCacheStats stats;
};

Cache &getCache() {
  static Cache cache;
  return cache;
}

/// The executable of `source`: from memory, from disk, or compiled (up to its kernels).
llvm::Expected<std::shared_ptr<const Executable>>
lookupOrCompile(StringRef source, const CompileOptions &options, StringRef bufferName) {
  // The key first, from the text alone: a hit parses nothing.
  CacheKey key = computeCacheKey(options.str(), options.format != "isa",
                                 mlir::NVVM::getCUDAToolkitPath(), source);
  Cache &cache = getCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (std::shared_ptr<const Executable> hit = cache.executables.lookup(key)) {
      ++cache.stats.memoryHits;
      return hit;
    }
  }

  // The disk and the pipeline without the lock: other programs compile meanwhile. Two threads
  // compiling the same program both do the work and the first to finish is kept.
  std::optional<std::string> directory = getCacheDirectory(options.cacheDir);
  DiskLookup disk = DiskLookup::Absent;
  std::shared_ptr<const Executable> executable;
  if (directory)
    disk = loadEntry(*directory, key, options, executable);
  bool stored = false;
  llvm::Error storeError = llvm::Error::success();
  if (disk != DiskLookup::Hit) {
    llvm::Expected<std::shared_ptr<const Executable>> compiled =
        compileUncached(source, options, bufferName);
    if (!compiled) {
      std::lock_guard<std::mutex> lock(cache.mutex);
      ++cache.stats.misses;
      cache.stats.diskRejected += disk == DiskLookup::Rejected;
      return compiled.takeError();
    }
    executable = std::move(*compiled);
    // A failure to write leaves the cache as it was; the compile has succeeded.
    if (directory) {
      storeError = storeEntry(*directory, key, *executable);
      stored = !storeError;
    }
  }
  bool writeFailed = static_cast<bool>(storeError);
  llvm::consumeError(std::move(storeError));

  // Kernels it compiles go to the disk cache beside it.
  KernelStore &store = ExecutableInternals::getStore(*executable);
  if (directory) {
    store.cacheDirectory = *directory;
    store.programKey = key;
  }
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (disk == DiskLookup::Hit) {
      ++cache.stats.diskHits;
    } else {
      ++cache.stats.misses;
      cache.stats.diskRejected += disk == DiskLookup::Rejected;
      cache.stats.diskWrites += stored;
      cache.stats.diskWriteFailures += writeFailed;
    }
  }
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.executables.insert(key, std::move(executable));
}

} // namespace

namespace softmax::api {

llvm::Expected<std::shared_ptr<const Executable>>
compile(StringRef source, const CompileOptions &options, StringRef bufferName) {
  llvm::Expected<std::shared_ptr<const Executable>> executable =
      lookupOrCompile(source, options, bufferName);
  if (!executable || options.lazyKernels)
    return executable;
  // Every kernel now, whether the executable is new or cached (lazyKernels is not in the key).
  for (unsigned k = 0; k < (*executable)->getKernels().size(); ++k)
    if (llvm::Expected<llvm::StringRef> image = (*executable)->getKernelImage(k); !image)
      return image.takeError();
  return executable;
}

void recordKernelCompile(bool diskHit, bool written, bool writeFailed) {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (diskHit) {
    ++cache.stats.kernelDiskHits;
    return;
  }
  ++cache.stats.kernelCompiles;
  cache.stats.kernelDiskWrites += written;
  cache.stats.kernelDiskWriteFailures += writeFailed;
}

llvm::Expected<std::shared_ptr<const Executable>> compile(ModuleOp module,
                                                          const CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*prettyForm=*/false));
  return compile(text, options, "<module>");
}

size_t getCompileCacheSize() {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.executables.size();
}

void clearCompileCache() {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.executables.clear();
}

size_t getCompileCacheCapacity() {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.executables.getCapacity();
}

void setCompileCacheCapacity(size_t capacity) {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.executables.setCapacity(capacity);
}

CompileCacheStats getCompileCacheStats() {
  Cache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.stats;
}

} // namespace softmax::api
