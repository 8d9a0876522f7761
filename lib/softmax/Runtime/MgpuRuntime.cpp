//===- MgpuRuntime.cpp - The mgpu* functions JIT-compiled host code calls -===//
//
// Our own implementation of the entry points of upstream's CudaRuntimeWrappers.cpp, over
// CudaDriver. The error, stream and timing policies are described in MgpuRuntime.h and
// docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runtime/MgpuRuntime.h"

#include "llvm/ADT/Twine.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

using namespace softmax::runtime;

namespace {

/// Everything the runtime keeps between calls. Never destroyed (JIT-compiled global destructors
/// call mgpuModuleUnload, possibly late during exit).
struct State {
  // The first error; `hasError` is read without the lock on every call.
  std::mutex errorMutex;
  std::atomic<bool> hasError{false};
  std::string firstError;
  std::atomic<ErrorPolicy> policy{ErrorPolicy::Record};

  // Everything else.
  std::mutex mutex;
  int defaultDevice = 0;
  CUstream stream = nullptr;
  std::atomic<bool> timing{false};
  std::vector<std::pair<CUevent, CUevent>> timedLaunches; // (before, after) per launch
  std::vector<CUevent> eventPool;                         // timing events ready for reuse
  // The dynamic shared memory limit each function was raised to (only those above 48 KiB).
  std::unordered_map<CUfunction, int> raisedSharedLimit;
  // The functions opted in to cluster sizes above the portable 8 blocks.
  std::unordered_set<CUfunction> nonPortableClusters;
};

State &state() {
  static State *s = new State();
  return *s;
}

CudaDriver &driver() { return CudaDriver::get(); }
const CudaDriver::Api &api() { return CudaDriver::get().api(); }

void recordError(std::string message) {
  State &s = state();
  if (s.policy == ErrorPolicy::Abort) {
    std::fprintf(stderr, "softmax runtime: %s\n", message.c_str());
    std::fflush(stderr);
    std::abort();
  }
  std::lock_guard<std::mutex> lock(s.errorMutex);
  if (!s.hasError) {
    s.firstError = std::move(message);
    s.hasError = true;
  }
}

/// Records "<call>: <what> failed with <NAME> (...)" unless `result` is CUDA_SUCCESS.
bool succeeded(CUresult result, llvm::StringRef call, llvm::StringRef what) {
  if (result == cuda::kSuccess)
    return true;
  recordError((call + ": " + formatCudaError(result, what)).str());
  return false;
}

/// Entry of every call that does work on the device: false (skip the call) after an error, or
/// when the driver cannot be loaded (which is then the error). Loads the driver on first use, so
/// that the JIT-compiled module constructors work without the runner loading it first.
bool ready(llvm::StringRef call) {
  State &s = state();
  if (s.hasError)
    return false;
  if (!driver().isLoaded()) {
    int ordinal;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      ordinal = s.defaultDevice;
    }
    if (llvm::Error error = driver().load(ordinal)) {
      recordError((call + ": " + llvm::toString(std::move(error))).str());
      return false;
    }
  }
  if (llvm::Error error = driver().makeCurrent()) {
    recordError((call + ": " + llvm::toString(std::move(error))).str());
    return false;
  }
  return true;
}

/// Entry of the clean-up calls (free, unload, destroy): they run even after an error, so that a
/// runner that recovers from a failed call does not leak, but only if the driver is there.
bool readyForCleanup(llvm::StringRef call) {
  if (!driver().isLoaded())
    return false;
  if (llvm::Error error = driver().makeCurrent()) {
    recordError((call + ": " + llvm::toString(std::move(error))).str());
    return false;
  }
  return true;
}

/// `value` as the unsigned int the driver takes for grid and block sizes.
bool toUnsigned(intptr_t value, unsigned &result, llvm::StringRef call, const char *name) {
  if (value < 0 || static_cast<uintmax_t>(value) > UINT_MAX) {
    recordError(
        (call + ": " + name + " = " + llvm::Twine(static_cast<int64_t>(value)) + " is out of range")
            .str());
    return false;
  }
  result = static_cast<unsigned>(value);
  return true;
}

/// Opts `function` in to `smem` bytes of dynamic shared memory when that is above the 48 KiB a
/// kernel gets by default (the launch fails with CUDA_ERROR_INVALID_VALUE otherwise).
bool allowDynamicSharedMemory(CUfunction function, int32_t smem, llvm::StringRef call) {
  if (smem < 0) {
    recordError((call + ": negative dynamic shared memory size " + llvm::Twine(smem)).str());
    return false;
  }
  if (smem <= cuda::kDefaultMaxDynamicSharedBytes)
    return true;
  int deviceMax = driver().info().maxSharedBytesPerBlockOptin;
  if (smem > deviceMax) {
    recordError((call + ": " + llvm::Twine(smem) +
                 " bytes of dynamic shared memory requested; the device allows at most " +
                 llvm::Twine(deviceMax) + " per block")
                    .str());
    return false;
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.raisedSharedLimit.find(function);
  if (it != s.raisedSharedLimit.end() && it->second >= smem)
    return true;
  if (!succeeded(api().cuFuncSetAttribute(function, cuda::kFuncAttrMaxDynamicSharedSizeBytes, smem),
                 call, "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
    return false;
  s.raisedSharedLimit[function] = smem;
  return true;
}

/// Opts `function` in to a cluster of `blocks` blocks when that is above the portable size (the
/// launch fails with CUDA_ERROR_INVALID_CLUSTER_SIZE otherwise), once per function.
bool allowClusterSize(CUfunction function, unsigned blocks, llvm::StringRef call) {
  if (blocks <= static_cast<unsigned>(cuda::kPortableClusterBlocks))
    return true;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.nonPortableClusters.count(function))
    return true;
  if (!succeeded(api().cuFuncSetAttribute(function, cuda::kFuncAttrNonPortableClusterSizeAllowed, 1),
                 call, "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"))
    return false;
  s.nonPortableClusters.insert(function);
  return true;
}

/// Kernel timing: a pair of events around one launch, from the pool when possible.
struct TimedLaunch {
  CUevent before = nullptr;
  CUevent after = nullptr;
};

void returnEvents(std::vector<CUevent> events) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (CUevent event : events)
    if (event)
      s.eventPool.push_back(event);
}

/// Records the "before" event of a timed launch (no-op when timing is off).
bool beginTiming(TimedLaunch &timed, CUstream stream, llvm::StringRef call) {
  State &s = state();
  if (!s.timing)
    return true;
  for (CUevent *slot : {&timed.before, &timed.after}) {
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.eventPool.empty()) {
        *slot = s.eventPool.back();
        s.eventPool.pop_back();
        continue;
      }
    }
    if (!succeeded(api().cuEventCreate(slot, cuda::kEventDefault), call, "cuEventCreate")) {
      returnEvents({timed.before, timed.after});
      timed = {};
      return false;
    }
  }
  if (!succeeded(api().cuEventRecord(timed.before, stream), call, "cuEventRecord")) {
    returnEvents({timed.before, timed.after});
    timed = {};
    return false;
  }
  return true;
}

/// Records the "after" event of a timed launch and keeps the pair; `launched` says whether the
/// launch itself succeeded (if not, the pair is dropped).
void endTiming(TimedLaunch &timed, CUstream stream, bool launched, llvm::StringRef call) {
  if (!timed.before)
    return;
  if (!launched || !succeeded(api().cuEventRecord(timed.after, stream), call, "cuEventRecord")) {
    returnEvents({timed.before, timed.after});
    return;
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.timedLaunches.emplace_back(timed.before, timed.after);
}

} // namespace

//===----------------------------------------------------------------------===//
// The runner's interface
//===----------------------------------------------------------------------===//

void softmax::runtime::setErrorPolicy(ErrorPolicy policy) { state().policy = policy; }

bool softmax::runtime::hasError() { return state().hasError; }

llvm::Error softmax::runtime::takeError() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  if (!s.hasError)
    return llvm::Error::success();
  std::string message = std::move(s.firstError);
  s.firstError.clear();
  s.hasError = false;
  return llvm::createStringError(message);
}

void softmax::runtime::reportError(llvm::StringRef message) { recordError(message.str()); }

llvm::Expected<CUstream> softmax::runtime::runtimeStream() {
  State &s = state();
  int ordinal;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    ordinal = s.defaultDevice;
  }
  if (llvm::Error error = driver().load(ordinal))
    return error;
  if (llvm::Error error = driver().makeCurrent())
    return error;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.stream) {
    // Blocking (not CU_STREAM_NON_BLOCKING): the runner's synchronous copies on the legacy
    // default stream then wait for the kernels queued here, and the kernels for the copies.
    llvm::Expected<CUstream> stream = driver().createStream(cuda::kStreamDefault);
    if (!stream)
      return stream.takeError();
    s.stream = *stream;
  }
  return s.stream;
}

void softmax::runtime::setKernelTiming(bool enabled) { state().timing = enabled; }

bool softmax::runtime::kernelTimingEnabled() { return state().timing; }

llvm::Expected<std::vector<float>> softmax::runtime::takeKernelTimes() {
  State &s = state();
  std::vector<std::pair<CUevent, CUevent>> launches;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    launches.swap(s.timedLaunches);
  }
  std::vector<float> times;
  llvm::Error error = llvm::Error::success();
  std::vector<CUevent> events;
  for (auto [before, after] : launches) {
    events.push_back(before);
    events.push_back(after);
    if (error)
      continue;
    llvm::Expected<float> ms = driver().elapsedMs(before, after);
    if (!ms)
      error = ms.takeError();
    else
      times.push_back(*ms);
  }
  returnEvents(std::move(events));
  if (error)
    return error;
  return times;
}

void softmax::runtime::registerSymbols(
    llvm::function_ref<void(llvm::StringRef name, void *address)> add) {
#define SOFTMAX_MGPU_SYMBOL(fn) add(#fn, reinterpret_cast<void *>(&fn))
  SOFTMAX_MGPU_SYMBOL(mgpuModuleLoad);
  SOFTMAX_MGPU_SYMBOL(mgpuModuleLoadJIT);
  SOFTMAX_MGPU_SYMBOL(mgpuModuleUnload);
  SOFTMAX_MGPU_SYMBOL(mgpuModuleGetFunction);
  SOFTMAX_MGPU_SYMBOL(mgpuLaunchKernel);
  SOFTMAX_MGPU_SYMBOL(mgpuLaunchClusterKernel);
  SOFTMAX_MGPU_SYMBOL(mgpuStreamCreate);
  SOFTMAX_MGPU_SYMBOL(mgpuStreamDestroy);
  SOFTMAX_MGPU_SYMBOL(mgpuStreamSynchronize);
  SOFTMAX_MGPU_SYMBOL(mgpuStreamWaitEvent);
  SOFTMAX_MGPU_SYMBOL(mgpuEventCreate);
  SOFTMAX_MGPU_SYMBOL(mgpuEventDestroy);
  SOFTMAX_MGPU_SYMBOL(mgpuEventSynchronize);
  SOFTMAX_MGPU_SYMBOL(mgpuEventRecord);
  SOFTMAX_MGPU_SYMBOL(mgpuMemAlloc);
  SOFTMAX_MGPU_SYMBOL(mgpuMemFree);
  SOFTMAX_MGPU_SYMBOL(mgpuMemcpy);
  SOFTMAX_MGPU_SYMBOL(mgpuMemset16);
  SOFTMAX_MGPU_SYMBOL(mgpuMemset32);
  SOFTMAX_MGPU_SYMBOL(mgpuSetDefaultDevice);
  SOFTMAX_MGPU_SYMBOL(mgpuMemHostRegisterMemRef);
  SOFTMAX_MGPU_SYMBOL(mgpuMemHostUnregisterMemRef);
#undef SOFTMAX_MGPU_SYMBOL
}

//===----------------------------------------------------------------------===//
// Modules and functions
//===----------------------------------------------------------------------===//

extern "C" CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  if (!ready("mgpuModuleLoad"))
    return nullptr;
  CUmodule module = nullptr;
  if (!succeeded(api().cuModuleLoadData(&module, data), "mgpuModuleLoad", "cuModuleLoadData"))
    return nullptr;
  return module;
}

extern "C" CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ready("mgpuModuleLoadJIT"))
    return nullptr;
  // ptxas's complaints go to the error log; they are the useful part of a failure.
  char errorLog[8192] = {0};
  int options[] = {cuda::kJitErrorLogBuffer, cuda::kJitErrorLogBufferSizeBytes,
                   cuda::kJitOptimizationLevel};
  void *values[] = {errorLog, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof(errorLog))),
                    reinterpret_cast<void *>(
                        static_cast<uintptr_t>(optLevel < 0 ? 0 : (optLevel > 4 ? 4 : optLevel)))};
  CUmodule module = nullptr;
  CUresult result = api().cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != cuda::kSuccess) {
    // One line: the log's lines joined with "; ".
    std::string log = errorLog;
    while (!log.empty() && (log.back() == '\n' || log.back() == ' '))
      log.pop_back();
    for (size_t pos = 0; (pos = log.find('\n', pos)) != std::string::npos;)
      log.replace(pos, 1, "; ");
    std::string what = "cuModuleLoadDataEx";
    recordError("mgpuModuleLoadJIT: " + formatCudaError(result, what) +
                (log.empty() ? "" : ": " + log));
    return nullptr;
  }
  return module;
}

extern "C" void mgpuModuleUnload(CUmodule module) {
  if (!module || !readyForCleanup("mgpuModuleUnload"))
    return;
  {
    // Its functions' handles may be reused by a module loaded later.
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.raisedSharedLimit.clear();
  }
  succeeded(api().cuModuleUnload(module), "mgpuModuleUnload", "cuModuleUnload");
}

extern "C" CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  if (!ready("mgpuModuleGetFunction"))
    return nullptr;
  CUfunction function = nullptr;
  CUresult result = api().cuModuleGetFunction(&function, module, name);
  if (result != cuda::kSuccess) {
    succeeded(result, "mgpuModuleGetFunction(" + std::string(name ? name : "") + ")",
              "cuModuleGetFunction");
    return nullptr;
  }
  return function;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

extern "C" void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                                 int32_t smem, CUstream stream, void **params, void **extra,
                                 size_t /*paramsCount*/) {
  const char *call = "mgpuLaunchKernel";
  if (!ready(call))
    return;
  unsigned grid[3], block[3];
  if (!toUnsigned(gridX, grid[0], call, "gridX") || !toUnsigned(gridY, grid[1], call, "gridY") ||
      !toUnsigned(gridZ, grid[2], call, "gridZ") || !toUnsigned(blockX, block[0], call, "blockX") ||
      !toUnsigned(blockY, block[1], call, "blockY") ||
      !toUnsigned(blockZ, block[2], call, "blockZ"))
    return;
  if (!allowDynamicSharedMemory(function, smem, call))
    return;
  TimedLaunch timed;
  if (!beginTiming(timed, stream, call))
    return;
  bool launched = succeeded(api().cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0],
                                                 block[1], block[2], smem, stream, params, extra),
                            call, "cuLaunchKernel");
  endTiming(timed, stream, launched, call);
}

extern "C" void mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX, intptr_t clusterY,
                                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                                        intptr_t blockZ, int32_t smem, CUstream stream,
                                        void **params, void **extra) {
  const char *call = "mgpuLaunchClusterKernel";
  if (!ready(call))
    return;
  if (!api().cuLaunchKernelEx) {
    recordError("mgpuLaunchClusterKernel: the CUDA driver lacks cuLaunchKernelEx (thread-block "
                "clusters need a CUDA 12 driver)");
    return;
  }
  cuda::LaunchConfig config = {};
  cuda::LaunchAttribute cluster = {};
  cluster.id = cuda::kLaunchAttrClusterDimension;
  if (!toUnsigned(clusterX, cluster.value.clusterDim.x, call, "clusterX") ||
      !toUnsigned(clusterY, cluster.value.clusterDim.y, call, "clusterY") ||
      !toUnsigned(clusterZ, cluster.value.clusterDim.z, call, "clusterZ") ||
      !toUnsigned(gridX, config.gridDimX, call, "gridX") ||
      !toUnsigned(gridY, config.gridDimY, call, "gridY") ||
      !toUnsigned(gridZ, config.gridDimZ, call, "gridZ") ||
      !toUnsigned(blockX, config.blockDimX, call, "blockX") ||
      !toUnsigned(blockY, config.blockDimY, call, "blockY") ||
      !toUnsigned(blockZ, config.blockDimZ, call, "blockZ"))
    return;
  if (!allowDynamicSharedMemory(function, smem, call) ||
      !allowClusterSize(function,
                        cluster.value.clusterDim.x * cluster.value.clusterDim.y *
                            cluster.value.clusterDim.z,
                        call))
    return;
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  TimedLaunch timed;
  if (!beginTiming(timed, stream, call))
    return;
  bool launched =
      succeeded(api().cuLaunchKernelEx(&config, function, params, extra), call, "cuLaunchKernelEx");
  endTiming(timed, stream, launched, call);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

extern "C" CUstream mgpuStreamCreate() {
  if (!ready("mgpuStreamCreate"))
    return nullptr;
  llvm::Expected<CUstream> stream = runtimeStream();
  if (!stream) {
    recordError("mgpuStreamCreate: " + llvm::toString(stream.takeError()));
    return nullptr;
  }
  return *stream;
}

extern "C" void mgpuStreamDestroy(CUstream stream) {
  // The runtime's own stream outlives the JIT-compiled code that "destroys" it.
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!stream || stream == s.stream)
      return;
  }
  if (readyForCleanup("mgpuStreamDestroy"))
    succeeded(api().cuStreamDestroy(stream), "mgpuStreamDestroy", "cuStreamDestroy_v2");
}

extern "C" void mgpuStreamSynchronize(CUstream stream) {
  if (ready("mgpuStreamSynchronize"))
    succeeded(api().cuStreamSynchronize(stream), "mgpuStreamSynchronize", "cuStreamSynchronize");
}

extern "C" void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (ready("mgpuStreamWaitEvent"))
    succeeded(api().cuStreamWaitEvent(stream, event, 0), "mgpuStreamWaitEvent",
              "cuStreamWaitEvent");
}

extern "C" CUevent mgpuEventCreate() {
  if (!ready("mgpuEventCreate"))
    return nullptr;
  // These events only order work (gpu.wait async dependencies): no timing makes them cheaper.
  CUevent event = nullptr;
  if (!succeeded(api().cuEventCreate(&event, cuda::kEventDisableTiming), "mgpuEventCreate",
                 "cuEventCreate"))
    return nullptr;
  return event;
}

extern "C" void mgpuEventDestroy(CUevent event) {
  if (event && readyForCleanup("mgpuEventDestroy"))
    succeeded(api().cuEventDestroy(event), "mgpuEventDestroy", "cuEventDestroy_v2");
}

extern "C" void mgpuEventSynchronize(CUevent event) {
  if (ready("mgpuEventSynchronize"))
    succeeded(api().cuEventSynchronize(event), "mgpuEventSynchronize", "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(CUevent event, CUstream stream) {
  if (ready("mgpuEventRecord"))
    succeeded(api().cuEventRecord(event, stream), "mgpuEventRecord", "cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  if (sizeBytes == 0 || !ready("mgpuMemAlloc"))
    return nullptr;
  CUdeviceptr pointer = 0;
  std::string size = "(" + std::to_string(sizeBytes) + " bytes)";
  if (isHostShared) {
    // gpu.alloc host_shared: managed memory, reachable from the host and every stream.
    if (!succeeded(api().cuMemAllocManaged(&pointer, sizeBytes, cuda::kMemAttachGlobal),
                   "mgpuMemAlloc", "cuMemAllocManaged" + size))
      return nullptr;
  } else if (!succeeded(api().cuMemAlloc(&pointer, sizeBytes), "mgpuMemAlloc",
                        "cuMemAlloc_v2" + size)) {
    return nullptr;
  }
  return reinterpret_cast<void *>(pointer);
}

extern "C" void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (ptr && readyForCleanup("mgpuMemFree"))
    succeeded(api().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "mgpuMemFree", "cuMemFree_v2");
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  // Unified addressing: one call for host-to-device, device-to-host and device-to-device.
  if (sizeBytes != 0 && ready("mgpuMemcpy"))
    succeeded(api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                  reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream),
              "mgpuMemcpy", "cuMemcpyAsync");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count, CUstream stream) {
  if (count != 0 && ready("mgpuMemset16"))
    succeeded(api().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream),
              "mgpuMemset16", "cuMemsetD16Async");
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count, CUstream stream) {
  if (count != 0 && ready("mgpuMemset32"))
    succeeded(api().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream),
              "mgpuMemset32", "cuMemsetD32Async");
}

//===----------------------------------------------------------------------===//
// Device selection and host registration
//===----------------------------------------------------------------------===//

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  // The runtime works on one device, chosen when the driver is loaded (the JIT-compiled module
  // constructors already load it); a later change of device cannot be honoured.
  if (driver().isLoaded()) {
    int current = driver().info().ordinal;
    if (device != current)
      recordError("mgpuSetDefaultDevice(" + std::to_string(device) +
                  "): the runtime already uses device " + std::to_string(current) +
                  " (select the device before the first GPU call)");
    return;
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.defaultDevice = device;
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t /*rank*/, void * /*descriptor*/,
                                          int64_t /*elementSizeBytes*/) {
  recordError("mgpuMemHostRegisterMemRef: gpu.host_register is not supported by the softmax "
              "runtime (copy with gpu.memcpy instead)");
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t /*rank*/, void * /*descriptor*/,
                                            int64_t /*elementSizeBytes*/) {
  recordError("mgpuMemHostUnregisterMemRef: gpu.host_unregister is not supported by the softmax "
              "runtime");
}
