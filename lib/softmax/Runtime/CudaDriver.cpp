//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// dlopen + dlsym of the driver entry points, and the small helpers the runner needs. See
// CudaDriver.h for why nothing here links against libcuda or includes cuda.h.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runtime/CudaDriver.h"

#include "llvm/ADT/Twine.h"

#include <dlfcn.h>

#include <utility>

using namespace softmax::runtime;

//===----------------------------------------------------------------------===//
// Error names
//===----------------------------------------------------------------------===//

namespace {
/// The driver's error-name functions once resolved (they work even when cuInit fails), so that
/// errors are named by the driver whenever it could be opened.
std::atomic<CUresult (*)(CUresult, const char **)> driverErrorName{nullptr};
std::atomic<CUresult (*)(CUresult, const char **)> driverErrorString{nullptr};

/// Names of the codes a runner is likely to meet, for when no driver could be loaded (and so that
/// the names do not depend on the machine). Values from CUDA 13.0's cuda.h, enum cudaError_enum.
struct ErrorName {
  CUresult code;
  const char *name;
};
constexpr ErrorName kErrorNames[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {300, "CUDA_ERROR_INVALID_SOURCE"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {999, "CUDA_ERROR_UNKNOWN"},
};
} // namespace

std::string softmax::runtime::cudaErrorName(CUresult result) {
  if (auto *fn = driverErrorName.load()) {
    const char *name = nullptr;
    if (fn(result, &name) == cuda::kSuccess && name)
      return name;
  }
  for (const ErrorName &entry : kErrorNames)
    if (entry.code == result)
      return entry.name;
  return "CUresult " + std::to_string(result);
}

std::string softmax::runtime::formatCudaError(CUresult result, llvm::StringRef what) {
  std::string message = (what + " failed with " + cudaErrorName(result)).str();
  if (auto *fn = driverErrorString.load()) {
    const char *description = nullptr;
    if (fn(result, &description) == cuda::kSuccess && description && *description)
      message += (llvm::Twine(" (") + description + ")").str();
  }
  return message;
}

llvm::Error CudaDriver::check(CUresult result, llvm::StringRef what) {
  if (result == cuda::kSuccess)
    return llvm::Error::success();
  return llvm::createStringError(formatCudaError(result, what));
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

CudaDriver &CudaDriver::get() {
  // Never destroyed: JIT-compiled global destructors (mgpuModuleUnload) may run late in exit.
  static CudaDriver *driver = new CudaDriver();
  return *driver;
}

llvm::Error CudaDriver::load(int deviceOrdinal) {
  std::lock_guard<std::mutex> lock(loadMutex);
  if (!attempted) {
    attempted = true;
    if (llvm::Error error = loadOnce(deviceOrdinal))
      loadError = llvm::toString(std::move(error));
    else
      loaded = true;
  }
  if (loaded)
    return llvm::Error::success();
  return llvm::createStringError(loadError);
}

namespace {
/// Resolves `name` in `library` into `slot`; false when the driver lacks it.
template <typename Fn> bool resolve(void *library, const char *name, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  return slot != nullptr;
}
} // namespace

llvm::Error CudaDriver::loadOnce(int deviceOrdinal) {
  // The versioned name first: libcuda.so (unversioned) exists only with the toolkit's development
  // files, and is often the toolkit's stub rather than the driver.
  const char *libraryName = "libcuda.so.1";
  library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::string firstError = dlerror();
    libraryName = "libcuda.so";
    library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
    if (!library)
      return llvm::createStringError(
          "no CUDA driver: libcuda.so.1 not found (dlopen: " + firstError + ")");
  }

  // The exported names are the versioned ones that cuda.h's #defines select (cuMemAlloc ->
  // cuMemAlloc_v2, ...): the unversioned symbols are the old 32-bit-size ABI.
  std::string missing;
  auto require = [&](auto &slot, const char *name) {
    if (!resolve(library, name, slot))
      missing += missing.empty() ? name : (std::string(", ") + name);
  };
  require(fns.cuInit, "cuInit");
  require(fns.cuDriverGetVersion, "cuDriverGetVersion");
  require(fns.cuGetErrorName, "cuGetErrorName");
  require(fns.cuGetErrorString, "cuGetErrorString");
  require(fns.cuDeviceGetCount, "cuDeviceGetCount");
  require(fns.cuDeviceGet, "cuDeviceGet");
  require(fns.cuDeviceGetName, "cuDeviceGetName");
  require(fns.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  require(fns.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  require(fns.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  require(fns.cuCtxSetCurrent, "cuCtxSetCurrent");
  require(fns.cuCtxSynchronize, "cuCtxSynchronize");
  require(fns.cuModuleLoadData, "cuModuleLoadData");
  require(fns.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  require(fns.cuModuleUnload, "cuModuleUnload");
  require(fns.cuModuleGetFunction, "cuModuleGetFunction");
  require(fns.cuFuncSetAttribute, "cuFuncSetAttribute");
  require(fns.cuFuncGetAttribute, "cuFuncGetAttribute");
  require(fns.cuLaunchKernel, "cuLaunchKernel");
  require(fns.cuStreamCreate, "cuStreamCreate");
  require(fns.cuStreamDestroy, "cuStreamDestroy_v2");
  require(fns.cuStreamSynchronize, "cuStreamSynchronize");
  require(fns.cuStreamWaitEvent, "cuStreamWaitEvent");
  require(fns.cuEventCreate, "cuEventCreate");
  require(fns.cuEventDestroy, "cuEventDestroy_v2");
  require(fns.cuEventRecord, "cuEventRecord");
  require(fns.cuEventSynchronize, "cuEventSynchronize");
  require(fns.cuMemAlloc, "cuMemAlloc_v2");
  require(fns.cuMemAllocManaged, "cuMemAllocManaged");
  require(fns.cuMemFree, "cuMemFree_v2");
  require(fns.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  require(fns.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  require(fns.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
  require(fns.cuMemcpyAsync, "cuMemcpyAsync");
  require(fns.cuMemsetD8, "cuMemsetD8_v2");
  require(fns.cuMemsetD32, "cuMemsetD32_v2");
  require(fns.cuMemsetD8Async, "cuMemsetD8Async");
  require(fns.cuMemsetD16Async, "cuMemsetD16Async");
  require(fns.cuMemsetD32Async, "cuMemsetD32Async");
  // cuEventElapsedTime_v2 came with CUDA 12.8 (cuda.h 13 maps the plain name to it); older
  // drivers have only the original, which has the same signature.
  if (!resolve(library, "cuEventElapsedTime_v2", fns.cuEventElapsedTime))
    require(fns.cuEventElapsedTime, "cuEventElapsedTime");
  // Optional: clusters need it, nothing else does.
  resolve(library, "cuLaunchKernelEx", fns.cuLaunchKernelEx);
  // Optional: loading a kernel during a CUDA graph capture needs it.
  resolve(library, "cuThreadExchangeStreamCaptureMode", fns.cuThreadExchangeStreamCaptureMode);

  // Where the library came from, for the messages below.
  std::string libraryPath = libraryName;
  Dl_info where;
  if (fns.cuInit && dladdr(reinterpret_cast<void *>(fns.cuInit), &where) && where.dli_fname)
    libraryPath = where.dli_fname;

  if (!missing.empty())
    return llvm::createStringError("CUDA driver too old: " + libraryPath + " lacks " + missing);

  driverErrorName = fns.cuGetErrorName;
  driverErrorString = fns.cuGetErrorString;

  CUresult result = fns.cuInit(0);
  if (result == 34 /*CUDA_ERROR_STUB_LIBRARY*/)
    return llvm::createStringError("no CUDA driver: " + libraryPath +
                                   " is the CUDA toolkit's stub library (cuInit failed with " +
                                   cudaErrorName(result) + ")");
  if (result != cuda::kSuccess)
    return llvm::createStringError("no CUDA device: " + formatCudaError(result, "cuInit"));

  int count = 0;
  if (llvm::Error error = check(fns.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return llvm::createStringError("no CUDA device: " + llvm::toString(std::move(error)));
  if (count == 0)
    return llvm::createStringError("no CUDA device: the driver reports no devices");
  if (deviceOrdinal < 0 || deviceOrdinal >= count)
    return llvm::createStringError("no CUDA device " + std::to_string(deviceOrdinal) +
                                   ": the driver reports " + std::to_string(count) + " device(s)");

  if (llvm::Error error = check(fns.cuDeviceGet(&deviceId, deviceOrdinal), "cuDeviceGet"))
    return error;
  // The primary context is the one the CUDA runtime (PyTorch, CuPy, ...) shares, so a runner
  // that mixes libraries sees one context per device.
  if (llvm::Error error = check(fns.cuDevicePrimaryCtxRetain(&primaryContext, deviceId),
                                "cuDevicePrimaryCtxRetain"))
    return error;
  if (llvm::Error error = makeCurrent())
    return error;

  // Everything the runner reports, queried once.
  device.ordinal = deviceOrdinal;
  char name[256] = {0};
  if (llvm::Error error =
          check(fns.cuDeviceGetName(name, sizeof(name) - 1, deviceId), "cuDeviceGetName"))
    return error;
  device.name = name;
  std::pair<int *, int> attributes[] = {
      {&device.computeCapabilityMajor, cuda::kDevAttrComputeCapabilityMajor},
      {&device.computeCapabilityMinor, cuda::kDevAttrComputeCapabilityMinor},
      {&device.smCount, cuda::kDevAttrMultiprocessorCount},
      {&device.l2CacheBytes, cuda::kDevAttrL2CacheSize},
      {&device.maxThreadsPerBlock, cuda::kDevAttrMaxThreadsPerBlock},
      {&device.maxSharedBytesPerBlockOptin, cuda::kDevAttrMaxSharedMemoryPerBlockOptin},
      {&device.maxSharedBytesPerSM, cuda::kDevAttrMaxSharedMemoryPerMultiprocessor},
  };
  for (auto [slot, id] : attributes)
    if (llvm::Error error =
            check(fns.cuDeviceGetAttribute(slot, id, deviceId), "cuDeviceGetAttribute"))
      return error;
  if (llvm::Error error =
          check(fns.cuDeviceTotalMem(&device.totalMemoryBytes, deviceId), "cuDeviceTotalMem_v2"))
    return error;
  return check(fns.cuDriverGetVersion(&device.driverVersion), "cuDriverGetVersion");
}

llvm::Error CudaDriver::makeCurrent() {
  // Per thread: the context current on each thread is per thread in the driver too. This assumes
  // nothing else in the process switches this thread to another context behind our back.
  thread_local CUcontext currentOnThisThread = nullptr;
  if (currentOnThisThread == primaryContext)
    return llvm::Error::success();
  if (llvm::Error error = check(fns.cuCtxSetCurrent(primaryContext), "cuCtxSetCurrent"))
    return error;
  currentOnThisThread = primaryContext;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

llvm::Expected<int> CudaDriver::attribute(int attribute) {
  int value = 0;
  if (llvm::Error error =
          check(fns.cuDeviceGetAttribute(&value, attribute, deviceId), "cuDeviceGetAttribute"))
    return error;
  return value;
}

llvm::Error CudaDriver::synchronize() { return check(fns.cuCtxSynchronize(), "cuCtxSynchronize"); }

llvm::Expected<CUdeviceptr> CudaDriver::alloc(size_t bytes) {
  CUdeviceptr pointer = 0;
  if (llvm::Error error = check(fns.cuMemAlloc(&pointer, bytes),
                                "cuMemAlloc_v2(" + std::to_string(bytes) + " bytes)"))
    return error;
  return pointer;
}

llvm::Error CudaDriver::free(CUdeviceptr pointer) {
  return check(fns.cuMemFree(pointer), "cuMemFree_v2");
}

llvm::Error CudaDriver::copyToDevice(CUdeviceptr dst, const void *src, size_t bytes) {
  return check(fns.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD_v2");
}

llvm::Error CudaDriver::copyToHost(void *dst, CUdeviceptr src, size_t bytes) {
  return check(fns.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH_v2");
}

llvm::Error CudaDriver::copyDeviceToDeviceAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                                CUstream stream) {
  return check(fns.cuMemcpyDtoDAsync(dst, src, bytes, stream), "cuMemcpyDtoDAsync_v2");
}

llvm::Error CudaDriver::memset8(CUdeviceptr dst, uint8_t value, size_t count) {
  return check(fns.cuMemsetD8(dst, value, count), "cuMemsetD8_v2");
}

llvm::Error CudaDriver::memset32(CUdeviceptr dst, uint32_t value, size_t count) {
  return check(fns.cuMemsetD32(dst, value, count), "cuMemsetD32_v2");
}

llvm::Error CudaDriver::memset8Async(CUdeviceptr dst, uint8_t value, size_t count,
                                     CUstream stream) {
  return check(fns.cuMemsetD8Async(dst, value, count, stream), "cuMemsetD8Async");
}

llvm::Error CudaDriver::memset32Async(CUdeviceptr dst, uint32_t value, size_t count,
                                      CUstream stream) {
  return check(fns.cuMemsetD32Async(dst, value, count, stream), "cuMemsetD32Async");
}

llvm::Expected<CUstream> CudaDriver::createStream(unsigned flags) {
  CUstream stream = nullptr;
  if (llvm::Error error = check(fns.cuStreamCreate(&stream, flags), "cuStreamCreate"))
    return error;
  return stream;
}

llvm::Error CudaDriver::destroyStream(CUstream stream) {
  return check(fns.cuStreamDestroy(stream), "cuStreamDestroy_v2");
}

llvm::Error CudaDriver::synchronizeStream(CUstream stream) {
  return check(fns.cuStreamSynchronize(stream), "cuStreamSynchronize");
}

llvm::Expected<CUevent> CudaDriver::createEvent(unsigned flags) {
  CUevent event = nullptr;
  if (llvm::Error error = check(fns.cuEventCreate(&event, flags), "cuEventCreate"))
    return error;
  return event;
}

llvm::Error CudaDriver::destroyEvent(CUevent event) {
  return check(fns.cuEventDestroy(event), "cuEventDestroy_v2");
}

llvm::Error CudaDriver::recordEvent(CUevent event, CUstream stream) {
  return check(fns.cuEventRecord(event, stream), "cuEventRecord");
}

llvm::Error CudaDriver::synchronizeEvent(CUevent event) {
  return check(fns.cuEventSynchronize(event), "cuEventSynchronize");
}

llvm::Expected<float> CudaDriver::elapsedMs(CUevent start, CUevent end) {
  if (llvm::Error error = synchronizeEvent(end))
    return error;
  float ms = 0.0f;
  if (llvm::Error error = check(fns.cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime"))
    return error;
  return ms;
}

llvm::Expected<std::vector<float>>
CudaDriver::timeDeviceToDeviceCopies(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                     CUstream stream, int iterations, int warmup) {
  for (int i = 0; i < warmup; ++i)
    if (llvm::Error error = copyDeviceToDeviceAsync(dst, src, bytes, stream))
      return error;

  // Two events per copy, destroyed on every path out.
  std::vector<CUevent> events;
  auto destroyAll = [&] {
    for (CUevent event : events)
      llvm::consumeError(destroyEvent(event));
  };
  auto fail = [&](llvm::Error error) -> llvm::Expected<std::vector<float>> {
    destroyAll();
    return error;
  };
  for (int i = 0; i < 2 * iterations; ++i) {
    llvm::Expected<CUevent> event = createEvent(cuda::kEventDefault);
    if (!event)
      return fail(event.takeError());
    events.push_back(*event);
  }
  for (int i = 0; i < iterations; ++i) {
    if (llvm::Error error = recordEvent(events[2 * i], stream))
      return fail(std::move(error));
    if (llvm::Error error = copyDeviceToDeviceAsync(dst, src, bytes, stream))
      return fail(std::move(error));
    if (llvm::Error error = recordEvent(events[2 * i + 1], stream))
      return fail(std::move(error));
  }
  std::vector<float> times;
  for (int i = 0; i < iterations; ++i) {
    llvm::Expected<float> ms = elapsedMs(events[2 * i], events[2 * i + 1]);
    if (!ms)
      return fail(ms.takeError());
    times.push_back(*ms);
  }
  destroyAll();
  return times;
}
