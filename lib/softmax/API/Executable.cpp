//===- Executable.cpp - Planning and launching a compiled program ---------===//
//
// run() evaluates the launch rules of the function for the call's sizes, packs every kernel's
// parameters, and only then launches, so that an argument or rule error launches nothing. Once
// its kernels are loaded, the only driver calls of a run are cuLaunchKernel (cuLaunchKernelEx
// for clusters) on the caller's stream: capturable in a CUDA graph. A kernel's compile, module
// load and shared-memory opt-in happen once, on its first launch or in prepare() / load().
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Executable.h"

#include "HostProgram.h"
#include "KernelStore.h"
#include "softmax/Runtime/CudaDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

using namespace softmax::api;
using llvm::Twine;
using softmax::runtime::CudaDriver;
namespace cuda = softmax::runtime::cuda;

namespace {
llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Puts the calling thread's stream-capture mode to relaxed while it lives. A kernel's first
/// launch loads its module; while a stream is captured in the global or thread-local mode (the
/// default of cudaStreamBeginCapture and torch.cuda.graph) the driver refuses such calls, which
/// are not stream operations and are safe to make during a capture: the relaxed mode allows
/// them, as libraries that load code lazily do (PyTorch's CUDAStreamCaptureModeGuard).
class CaptureModeRelaxer {
public:
  explicit CaptureModeRelaxer(const CudaDriver::Api &api) : api(api) {
    if (api.cuThreadExchangeStreamCaptureMode &&
        api.cuThreadExchangeStreamCaptureMode(&mode) == cuda::kSuccess)
      exchanged = true;
  }
  ~CaptureModeRelaxer() {
    if (exchanged)
      (void)api.cuThreadExchangeStreamCaptureMode(&mode);
  }

private:
  const CudaDriver::Api &api;
  int mode = cuda::kStreamCaptureModeRelaxed;
  bool exchanged = false;
};
/// Whether launches marked dependent (LaunchRule::dependent) are made as programmatic dependent
/// launches: yes unless $SOFTMAX_DEPENDENT_LAUNCHES is "0" (for measuring what they gain, or
/// against a driver that mishandles them; the kernels are correct either way). Read once.
bool dependentLaunchesEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("SOFTMAX_DEPENDENT_LAUNCHES");
    return !value || llvm::StringRef(value) != "0";
  }();
  return enabled;
}
} // namespace

KernelStore::KernelStore(std::vector<std::string> sources)
    : kernels(std::make_unique<Kernel[]>(sources.size())), count(sources.size()) {
  for (size_t k = 0; k < count; ++k)
    kernels[k].source = std::move(sources[k]);
}

KernelStore::~KernelStore() {
  // At process exit the driver may already be shut down; an unload error changes nothing.
  if (!CudaDriver::get().isLoaded())
    return;
  for (size_t k = 0; k < count; ++k)
    if (kernels[k].module)
      (void)CudaDriver::get().api().cuModuleUnload(kernels[k].module);
}

Executable::Executable(CompileOptions options, std::vector<KernelInfo> kernels,
                       std::vector<std::string> kernelSources, std::vector<FunctionInfo> functions,
                       std::vector<HostProgram> programs)
    : options(std::move(options)), kernels(std::move(kernels)), functions(std::move(functions)),
      programs(std::move(programs)),
      store(std::make_unique<KernelStore>(std::move(kernelSources))) {}

Executable::~Executable() = default;

bool Executable::isKernelCompiled(unsigned kernel) const {
  return kernel < store->size() && (*store)[kernel].compiled.load(std::memory_order_acquire);
}

llvm::Expected<llvm::StringRef> Executable::getKernelImage(unsigned index) const {
  if (index >= store->size())
    return makeError("no kernel " + Twine(index) + " (the executable has " +
                     Twine(store->size()) + ")");
  KernelStore::Kernel &kernel = (*store)[index];
  if (kernel.compiled.load(std::memory_order_acquire))
    return llvm::StringRef(kernel.image);
  std::lock_guard<std::mutex> lock(kernel.mutex);
  if (kernel.compiled.load(std::memory_order_relaxed))
    return llvm::StringRef(kernel.image);
  if (!kernel.compileError.empty())
    return makeError(kernel.compileError);

  // Compiled by an earlier process (or an earlier executable of the same program)?
  std::optional<CacheKey> key;
  if (store->cacheDirectory) {
    key = computeKernelKey(store->programKey, index, kernels[index].name);
    if (loadKernelEntry(*store->cacheDirectory, *key, kernel.image) == DiskLookup::Hit) {
      recordKernelCompile(/*diskHit=*/true, /*written=*/false, /*writeFailed=*/false);
      kernel.compiled.store(true, std::memory_order_release);
      return llvm::StringRef(kernel.image);
    }
  }
  llvm::Expected<std::string> image = compileKernelSource(kernel.source, options);
  if (!image) {
    kernel.compileError =
        "kernel " + kernels[index].name + " did not compile: " + llvm::toString(image.takeError());
    recordKernelCompile(/*diskHit=*/false, /*written=*/false, /*writeFailed=*/false);
    return makeError(kernel.compileError);
  }
  kernel.image = std::move(*image);
  bool written = false, writeFailed = false;
  if (key) {
    // A failure to write leaves the cache as it was; the compile has succeeded.
    llvm::Error error = storeKernelEntry(*store->cacheDirectory, *key, kernel.image);
    writeFailed = static_cast<bool>(error);
    written = !writeFailed;
    llvm::consumeError(std::move(error));
  }
  recordKernelCompile(/*diskHit=*/false, written, writeFailed);
  kernel.compiled.store(true, std::memory_order_release);
  return llvm::StringRef(kernel.image);
}

llvm::Expected<llvm::StringRef> Executable::getPTX() const {
  std::lock_guard<std::mutex> lock(store->ptxMutex);
  if (store->ptxMade)
    return llvm::StringRef(store->ptx);
  std::string text;
  if (options.format == "isa") {
    for (unsigned k = 0; k < kernels.size(); ++k) {
      llvm::Expected<llvm::StringRef> image = getKernelImage(k);
      if (!image)
        return image.takeError();
      text += "// gpu.binary @" + kernels[k].name + "\n";
      text += *image;
    }
  }
  store->ptx = std::move(text);
  store->ptxMade = true;
  return llvm::StringRef(store->ptx);
}

const FunctionInfo *Executable::lookupFunction(llvm::StringRef name) const {
  for (const FunctionInfo &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

llvm::Expected<const HostProgram *> Executable::lookupProgram(llvm::StringRef function) const {
  for (auto [info, program] : llvm::zip(functions, programs))
    if (info.name == function)
      return &program;
  std::vector<std::string> names;
  for (const FunctionInfo &info : functions)
    names.push_back("@" + info.name);
  return makeError("no function @" + function + " in the executable (it has " +
                   llvm::join(names, ", ") + ")");
}

llvm::Expected<std::vector<Launch>> Executable::plan(llvm::StringRef function,
                                                     llvm::ArrayRef<Argument> args) const {
  llvm::Expected<const HostProgram *> program = lookupProgram(function);
  if (!program)
    return program.takeError();
  std::vector<Launch> launches;
  uint64_t workspaceBytes = 0;
  if (llvm::Error error = (*program)->evaluate(
          *lookupFunction(function), args, /*workspace=*/nullptr, workspaceBytes,
          [&](const HostProgram::LaunchInstr &, const Launch &config, const HostProgram::Frame &) {
            launches.push_back(config);
            return llvm::Error::success();
          }))
    return std::move(error);
  return launches;
}

llvm::Expected<uint64_t> Executable::getWorkspaceSize(llvm::StringRef function,
                                                      llvm::ArrayRef<Argument> args) const {
  llvm::Expected<const HostProgram *> program = lookupProgram(function);
  if (!program)
    return program.takeError();
  uint64_t workspaceBytes = 0;
  if (llvm::Error error =
          (*program)->evaluate(*lookupFunction(function), args, nullptr, workspaceBytes, nullptr))
    return std::move(error);
  return workspaceBytes;
}

llvm::Error Executable::loadKernel(unsigned index) const {
  KernelStore::Kernel &kernel = (*store)[index];
  if (kernel.function.load(std::memory_order_acquire))
    return llvm::Error::success();
  llvm::Expected<llvm::StringRef> image = getKernelImage(index);
  if (!image)
    return image.takeError();
  std::lock_guard<std::mutex> lock(kernel.mutex);
  if (kernel.function.load(std::memory_order_relaxed))
    return llvm::Error::success();
  if (!kernel.loadError.empty())
    return makeError(kernel.loadError);
  const KernelInfo &info = kernels[index];
  auto fail = [&](llvm::Error error) {
    kernel.loadError = llvm::toString(std::move(error));
    return makeError(kernel.loadError);
  };

  CudaDriver &driver = CudaDriver::get();
  if (llvm::Error error = driver.load())
    return std::move(error); // no driver: not the kernel's fault, try again next time
  if (llvm::Error error = driver.makeCurrent())
    return std::move(error);
  const CudaDriver::Api &api = driver.api();
  CaptureModeRelaxer relaxed(api);
  if (options.format == "isa") {
    // PTX: the driver JIT-compiles it; its log explains a rejection. The image is a std::string,
    // NUL-terminated as the driver needs.
    char log[4096] = {0};
    int jitOptions[] = {cuda::kJitErrorLogBuffer, cuda::kJitErrorLogBufferSizeBytes,
                        cuda::kJitOptimizationLevel};
    void *jitValues[] = {
        log, reinterpret_cast<void *>(sizeof(log)),
        reinterpret_cast<void *>(static_cast<uintptr_t>(std::clamp(options.optLevel, 0, 4)))};
    runtime::CUresult result =
        api.cuModuleLoadDataEx(&kernel.module, image->data(), 3, jitOptions, jitValues);
    if (result != cuda::kSuccess)
      return fail(makeError(
          runtime::formatCudaError(result, "loading the PTX of kernel " + info.name) +
          (log[0] ? ": " + std::string(log) : std::string())));
  } else if (llvm::Error error =
                 CudaDriver::check(api.cuModuleLoadData(&kernel.module, image->data()),
                                   "loading kernel " + info.name)) {
    return fail(std::move(error));
  }

  runtime::CUfunction function = nullptr;
  if (llvm::Error error =
          CudaDriver::check(api.cuModuleGetFunction(&function, kernel.module, info.name.c_str()),
                            "cuModuleGetFunction(" + info.name + ")"))
    return fail(std::move(error));
  // Opt the kernel into the most dynamic shared memory the device allows, once, here: a
  // cuFuncSetAttribute inside run() would be a driver call outside the stream's order. The
  // static size is the loaded kernel's own (ptxas may add to the buffers the IR declares): an
  // opt-in past the device's limit is refused, which compute-sanitizer reports as an error.
  const runtime::DeviceInfo &device = driver.info();
  int64_t staticShared = info.staticSharedBytes;
  int loadedStatic = 0;
  if (api.cuFuncGetAttribute(&loadedStatic, cuda::kFuncAttrSharedSizeBytes, function) ==
      cuda::kSuccess)
    staticShared = std::max<int64_t>(staticShared, loadedStatic);
  int64_t maxShared = cuda::kDefaultMaxDynamicSharedBytes - staticShared;
  int64_t optIn = device.maxSharedBytesPerBlockOptin - staticShared;
  if (optIn > maxShared &&
      api.cuFuncSetAttribute(function, cuda::kFuncAttrMaxDynamicSharedSizeBytes,
                             static_cast<int>(optIn)) == cuda::kSuccess)
    maxShared = optIn;
  kernel.maxSharedBytes.store(maxShared);
  // Cluster sizes above the portable 8 blocks (row_cluster's 16) need the kernel's opt-in, here
  // for the same reason; a device that refuses it fails the launch with its reason. A rule that
  // is not a constant counts as a large cluster.
  bool largeClusters = false;
  for (const FunctionInfo &function : functions)
    for (const LaunchRule &rule : function.launches) {
      if (rule.kernel != index || rule.cluster[0].empty())
        continue;
      int64_t blocks = 1;
      for (const std::string &size : rule.cluster) {
        int64_t value = 0;
        if (llvm::StringRef(size).getAsInteger(10, value))
          value = cuda::kPortableClusterBlocks + 1;
        blocks *= value;
      }
      largeClusters |= blocks > cuda::kPortableClusterBlocks;
    }
  if (largeClusters)
    (void)api.cuFuncSetAttribute(function, cuda::kFuncAttrNonPortableClusterSizeAllowed, 1);
  kernel.function.store(function, std::memory_order_release);
  return llvm::Error::success();
}

llvm::Error Executable::load() const {
  for (unsigned k = 0; k < kernels.size(); ++k)
    if (llvm::Error error = loadKernel(k))
      return error;
  return llvm::Error::success();
}

llvm::Error Executable::prepare(llvm::StringRef function, llvm::ArrayRef<Argument> args) const {
  llvm::Expected<std::vector<Launch>> launches = plan(function, args);
  if (!launches)
    return launches.takeError();
  for (const Launch &launch : *launches)
    if (llvm::Error error = loadKernel(launch.kernel))
      return error;
  return llvm::Error::success();
}

llvm::Error Executable::run(llvm::StringRef function, llvm::ArrayRef<Argument> args, void *stream,
                            void *workspace, uint64_t workspaceBytes) const {
  llvm::Expected<const HostProgram *> found = lookupProgram(function);
  if (!found)
    return found.takeError();
  const HostProgram &program = **found;
  const FunctionInfo &info = *lookupFunction(function);

  // Workspace buffers come before the launches that use them; know the size before launching.
  if (program.hasWorkspace()) {
    llvm::Expected<uint64_t> needed = getWorkspaceSize(function, args);
    if (!needed)
      return needed.takeError();
    if (*needed > workspaceBytes || (*needed > 0 && !workspace))
      return makeError("@" + function + " needs " + Twine(*needed) +
                       " bytes of workspace for these sizes, got " + Twine(workspaceBytes) +
                       (workspace ? "" : " (a null pointer)"));
  }

  struct Pending {
    Launch config;
    size_t firstParam, numParams;
  };
  llvm::SmallVector<Pending, 4> pending;
  llvm::SmallVector<uint64_t, 128> storage;
  uint64_t unused = 0;
  if (llvm::Error error =
          program.evaluate(info, args, static_cast<const char *>(workspace), unused,
                           [&](const HostProgram::LaunchInstr &launch, const Launch &config,
                               const HostProgram::Frame &frame) -> llvm::Error {
                             size_t first = storage.size();
                             packParams(launch, frame, storage);
                             pending.push_back({config, first, storage.size() - first});
                             return llvm::Error::success();
                           }))
    return error;

  // Argument and rule errors are reported before the compiler's and the driver's (a machine
  // without a GPU gives the same argument errors as one with). A kernel's first launch
  // compiles and loads it.
  for (const Pending &launch : pending)
    if (llvm::Error error = loadKernel(launch.config.kernel))
      return error;
  if (llvm::Error error = CudaDriver::get().makeCurrent())
    return error;
  const CudaDriver::Api &api = CudaDriver::get().api();
  for (const Pending &launch : pending) {
    size_t k = launch.config.kernel;
    KernelStore::Kernel &kernel = (*store)[k];
    int64_t needed = launch.config.sharedBytes;
    if (needed <= kernel.maxSharedBytes.load(std::memory_order_acquire))
      continue;
    // The opt-in to the device's maximum at load time can be refused (it was, on the H200 with
    // driver 13.0, for the row_shared kernels): raise the limit to what this launch needs, once
    // per kernel and size. Setting a function attribute is not a stream operation, so it is
    // allowed under graph capture.
    std::lock_guard<std::mutex> lock(kernel.mutex);
    if (needed <= kernel.maxSharedBytes.load(std::memory_order_relaxed))
      continue;
    runtime::CUresult result =
        api.cuFuncSetAttribute(kernel.function.load(std::memory_order_relaxed),
                               cuda::kFuncAttrMaxDynamicSharedSizeBytes, static_cast<int>(needed));
    if (result != cuda::kSuccess)
      return makeError("@" + function + ": kernel " + kernels[k].name + " needs " +
                       Twine(needed) + " bytes of dynamic shared memory for these sizes; " +
                       runtime::formatCudaError(result, "raising its limit (cuFuncSetAttribute)"));
    kernel.maxSharedBytes.store(needed, std::memory_order_release);
  }
  auto cuStream = static_cast<runtime::CUstream>(stream);
  llvm::SmallVector<void *, 64> params;
  for (const Pending &launch : pending) {
    params.clear();
    for (size_t i = 0; i < launch.numParams; ++i)
      params.push_back(&storage[launch.firstParam + i]);
    const Launch &c = launch.config;
    runtime::CUfunction kernel = (*store)[c.kernel].function.load(std::memory_order_acquire);
    runtime::CUresult result;
    // A dependent launch without cuLaunchKernelEx is an ordinary one (its kernel's wait then
    // returns at once): correct, only without the overlap.
    bool dependent = c.dependent && api.cuLaunchKernelEx && dependentLaunchesEnabled();
    if (c.cluster[0] == 0 && !dependent) {
      result = api.cuLaunchKernel(kernel, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1],
                                  c.block[2], c.sharedBytes, cuStream, params.data(), nullptr);
    } else {
      if (!api.cuLaunchKernelEx)
        return makeError("@" + function + ": kernel " + kernels[c.kernel].name +
                         " is a cluster launch, which needs cuLaunchKernelEx (CUDA >= 11.8)");
      cuda::LaunchAttribute attributes[2] = {};
      unsigned numAttributes = 0;
      if (c.cluster[0] != 0) {
        cuda::LaunchAttribute &cluster = attributes[numAttributes++];
        cluster.id = cuda::kLaunchAttrClusterDimension;
        cluster.value.clusterDim = {static_cast<unsigned>(c.cluster[0]),
                                    static_cast<unsigned>(c.cluster[1]),
                                    static_cast<unsigned>(c.cluster[2])};
      }
      if (dependent) {
        cuda::LaunchAttribute &serialization = attributes[numAttributes++];
        serialization.id = cuda::kLaunchAttrProgrammaticStreamSerialization;
        serialization.value.programmaticStreamSerializationAllowed = 1;
      }
      cuda::LaunchConfig config = {static_cast<unsigned>(c.grid[0]),
                                   static_cast<unsigned>(c.grid[1]),
                                   static_cast<unsigned>(c.grid[2]),
                                   static_cast<unsigned>(c.block[0]),
                                   static_cast<unsigned>(c.block[1]),
                                   static_cast<unsigned>(c.block[2]),
                                   c.sharedBytes,
                                   cuStream,
                                   attributes,
                                   numAttributes};
      result = api.cuLaunchKernelEx(&config, kernel, params.data(), nullptr);
    }
    if (result != cuda::kSuccess)
      return makeError(
          "@" + function + ": " +
          runtime::formatCudaError(result, "cuLaunchKernel(" + kernels[c.kernel].name + ")"));
  }
  return llvm::Error::success();
}
