//===- Executable.cpp - Planning and launching a compiled program ---------===//
//
// run() evaluates the launch rules of the function for the call's sizes, packs every kernel's
// parameters, and only then launches, so that an argument or rule error launches nothing. The
// only driver calls of a run are cuLaunchKernel (cuLaunchKernelEx for clusters) on the caller's
// stream: capturable in a CUDA graph. Module loading and the shared-memory opt-in happen once,
// in load().
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Executable.h"

#include "HostProgram.h"
#include "softmax/Runtime/CudaDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <atomic>
#include <mutex>

using namespace softmax::api;
using llvm::Twine;
using softmax::runtime::CudaDriver;
namespace cuda = softmax::runtime::cuda;

namespace softmax::api {
/// The kernels on the device: loaded once per executable (device 0's primary context).
struct LoadedModule {
  std::mutex mutex;
  std::atomic<bool> ready{false};
  bool attempted = false;
  std::string error;
  runtime::CUmodule module = nullptr;
  std::vector<runtime::CUfunction> functions; ///< parallel to the executable's kernels
  /// Dynamic shared memory each kernel may use; raised by run() when a launch needs more.
  std::unique_ptr<std::atomic<int64_t>[]> maxSharedBytes;
};
} // namespace softmax::api

namespace {
llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

Executable::Executable(CompileOptions options, std::string image, std::vector<KernelInfo> kernels,
                       std::vector<FunctionInfo> functions, std::vector<HostProgram> programs)
    : options(std::move(options)), image(std::move(image)), kernels(std::move(kernels)),
      functions(std::move(functions)), programs(std::move(programs)),
      loaded(std::make_unique<LoadedModule>()) {}

Executable::~Executable() {
  // At process exit the driver may already be shut down; an unload error changes nothing.
  if (loaded->module && CudaDriver::get().isLoaded())
    (void)CudaDriver::get().api().cuModuleUnload(loaded->module);
}

llvm::StringRef Executable::getPTX() const {
  return options.format == "isa" ? llvm::StringRef(image) : llvm::StringRef();
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

llvm::Error Executable::load() const {
  LoadedModule &state = *loaded;
  if (state.ready.load(std::memory_order_acquire))
    return llvm::Error::success();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.attempted)
    return state.error.empty() ? llvm::Error::success() : makeError(state.error);
  state.attempted = true;
  auto fail = [&](llvm::Error error) {
    state.error = llvm::toString(std::move(error));
    return makeError(state.error);
  };

  CudaDriver &driver = CudaDriver::get();
  if (llvm::Error error = driver.load())
    return fail(std::move(error));
  if (llvm::Error error = driver.makeCurrent())
    return fail(std::move(error));
  const CudaDriver::Api &api = driver.api();
  if (options.format == "isa") {
    // PTX: the driver JIT-compiles it; its log explains a rejection.
    char log[4096] = {0};
    int jitOptions[] = {cuda::kJitErrorLogBuffer, cuda::kJitErrorLogBufferSizeBytes,
                        cuda::kJitOptimizationLevel};
    void *jitValues[] = {
        log, reinterpret_cast<void *>(sizeof(log)),
        reinterpret_cast<void *>(static_cast<uintptr_t>(std::clamp(options.optLevel, 0, 4)))};
    runtime::CUresult result =
        api.cuModuleLoadDataEx(&state.module, image.c_str(), 3, jitOptions, jitValues);
    if (result != cuda::kSuccess)
      return fail(makeError(runtime::formatCudaError(result, "loading the kernels' PTX") +
                            (log[0] ? ": " + std::string(log) : std::string())));
  } else if (llvm::Error error = CudaDriver::check(
                 api.cuModuleLoadData(&state.module, image.data()), "loading the kernels")) {
    return fail(std::move(error));
  }

  const runtime::DeviceInfo &device = driver.info();
  // Whether kernel `k` has a cluster launch of more than the portable 8 blocks (a rule that is
  // not a constant counts as one).
  auto launchesLargeClusters = [&](size_t k) {
    for (const FunctionInfo &info : functions)
      for (const LaunchRule &rule : info.launches) {
        if (rule.kernel != k || rule.cluster[0].empty())
          continue;
        int64_t blocks = 1;
        for (const std::string &size : rule.cluster) {
          int64_t value = 0;
          if (llvm::StringRef(size).getAsInteger(10, value))
            return true;
          blocks *= value;
        }
        if (blocks > cuda::kPortableClusterBlocks)
          return true;
      }
    return false;
  };
  state.maxSharedBytes = std::make_unique<std::atomic<int64_t>[]>(kernels.size());
  for (const KernelInfo &kernel : kernels) {
    runtime::CUfunction function = nullptr;
    if (llvm::Error error =
            CudaDriver::check(api.cuModuleGetFunction(&function, state.module, kernel.name.c_str()),
                              "cuModuleGetFunction(" + kernel.name + ")"))
      return fail(std::move(error));
    // Opt every kernel into the most dynamic shared memory the device allows, once, here: a
    // cuFuncSetAttribute inside run() would be a driver call outside the stream's order. The
    // static size is the loaded kernel's own (ptxas may add to the buffers the IR declares): an
    // opt-in past the device's limit is refused, which compute-sanitizer reports as an error.
    int64_t staticShared = kernel.staticSharedBytes;
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
    state.maxSharedBytes[state.functions.size()].store(maxShared);
    // Cluster sizes above the portable 8 blocks (row_cluster's 16) need the kernel's opt-in,
    // here for the same reason; a device that refuses it fails the launch with its reason.
    if (launchesLargeClusters(state.functions.size()))
      (void)api.cuFuncSetAttribute(function, cuda::kFuncAttrNonPortableClusterSizeAllowed, 1);
    state.functions.push_back(function);
  }
  state.ready.store(true, std::memory_order_release);
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

  // Argument and rule errors are reported before the driver's (a machine without a GPU gives
  // the same argument errors as one with).
  if (llvm::Error error = load())
    return error;
  LoadedModule &state = *loaded;
  if (llvm::Error error = CudaDriver::get().makeCurrent())
    return error;
  const CudaDriver::Api &api = CudaDriver::get().api();
  for (const Pending &launch : pending) {
    size_t k = launch.config.kernel;
    int64_t needed = launch.config.sharedBytes;
    if (needed <= state.maxSharedBytes[k].load(std::memory_order_acquire))
      continue;
    // The opt-in to the device's maximum at load time can be refused (it was, on the H200 with
    // driver 13.0, for the row_shared kernels): raise the limit to what this launch needs, once
    // per kernel and size. Setting a function attribute is not a stream operation, so it is
    // allowed under graph capture.
    std::lock_guard<std::mutex> lock(state.mutex);
    if (needed <= state.maxSharedBytes[k].load(std::memory_order_relaxed))
      continue;
    runtime::CUresult result = api.cuFuncSetAttribute(
        state.functions[k], cuda::kFuncAttrMaxDynamicSharedSizeBytes, static_cast<int>(needed));
    if (result != cuda::kSuccess)
      return makeError("@" + function + ": kernel " + kernels[k].name + " needs " +
                       Twine(needed) + " bytes of dynamic shared memory for these sizes; " +
                       runtime::formatCudaError(result, "raising its limit (cuFuncSetAttribute)"));
    state.maxSharedBytes[k].store(needed, std::memory_order_release);
  }
  auto cuStream = static_cast<runtime::CUstream>(stream);
  llvm::SmallVector<void *, 64> params;
  for (const Pending &launch : pending) {
    params.clear();
    for (size_t i = 0; i < launch.numParams; ++i)
      params.push_back(&storage[launch.firstParam + i]);
    const Launch &c = launch.config;
    runtime::CUfunction kernel = state.functions[c.kernel];
    runtime::CUresult result;
    if (c.cluster[0] == 0) {
      result = api.cuLaunchKernel(kernel, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1],
                                  c.block[2], c.sharedBytes, cuStream, params.data(), nullptr);
    } else {
      if (!api.cuLaunchKernelEx)
        return makeError("@" + function + ": kernel " + kernels[c.kernel].name +
                         " is a cluster launch, which needs cuLaunchKernelEx (CUDA >= 11.8)");
      cuda::LaunchAttribute attribute = {};
      attribute.id = cuda::kLaunchAttrClusterDimension;
      attribute.value.clusterDim = {static_cast<unsigned>(c.cluster[0]),
                                    static_cast<unsigned>(c.cluster[1]),
                                    static_cast<unsigned>(c.cluster[2])};
      cuda::LaunchConfig config = {static_cast<unsigned>(c.grid[0]),
                                   static_cast<unsigned>(c.grid[1]),
                                   static_cast<unsigned>(c.grid[2]),
                                   static_cast<unsigned>(c.block[0]),
                                   static_cast<unsigned>(c.block[1]),
                                   static_cast<unsigned>(c.block[2]),
                                   c.sharedBytes,
                                   cuStream,
                                   &attribute,
                                   1};
      result = api.cuLaunchKernelEx(&config, kernel, params.data(), nullptr);
    }
    if (result != cuda::kSuccess)
      return makeError(
          "@" + function + ": " +
          runtime::formatCudaError(result, "cuLaunchKernel(" + kernels[c.kernel].name + ")"));
  }
  return llvm::Error::success();
}
