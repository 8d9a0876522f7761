//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runner and the mgpu* runtime (MgpuRuntime.h) reach the GPU through the CUDA driver API, which
// this file loads with dlopen("libcuda.so.1") when it is first needed. Nothing here needs cuda.h or
// libcuda at build time: the build machines and CI have no GPU (and may have no CUDA toolkit), and
// the tools must still start there and say plainly why they cannot run a kernel.
//
// The few driver types and constants used are declared below by value; each constant's comment
// names its cuda.h spelling (values from CUDA 13.0's cuda.h; the driver ABI keeps them stable).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNTIME_CUDADRIVER_H
#define SOFTMAX_RUNTIME_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace softmax::runtime {

//===----------------------------------------------------------------------===//
// Driver types (ABI-compatible with cuda.h on 64-bit Linux)
//===----------------------------------------------------------------------===//

using CUresult = int;         // enum cudaError_enum
using CUdevice = int;         // CUdevice_v1
using CUdeviceptr = uint64_t; // CUdeviceptr_v2 (unsigned long long)
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

namespace cuda {
// CUresult values.
constexpr CUresult kSuccess = 0;             // CUDA_SUCCESS
constexpr CUresult kErrorInvalidValue = 1;   // CUDA_ERROR_INVALID_VALUE
constexpr CUresult kErrorOutOfMemory = 2;    // CUDA_ERROR_OUT_OF_MEMORY
constexpr CUresult kErrorNoDevice = 100;     // CUDA_ERROR_NO_DEVICE
constexpr CUresult kErrorNotFound = 500;     // CUDA_ERROR_NOT_FOUND
constexpr CUresult kErrorNotSupported = 801; // CUDA_ERROR_NOT_SUPPORTED

// CUdevice_attribute values.
constexpr int kDevAttrMaxThreadsPerBlock = 1;      // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
constexpr int kDevAttrMultiprocessorCount = 16;    // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int kDevAttrL2CacheSize = 38;            // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
constexpr int kDevAttrComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kDevAttrComputeCapabilityMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kDevAttrMaxSharedMemoryPerMultiprocessor =
    81; // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
constexpr int kDevAttrMaxSharedMemoryPerBlockOptin =
    97; // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN

// CUfunction_attribute values.
constexpr int kFuncAttrSharedSizeBytes = 1; // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES (static)
constexpr int kFuncAttrMaxDynamicSharedSizeBytes =
    8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr int kFuncAttrNonPortableClusterSizeAllowed =
    14; // CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
/// The largest cluster every sm_90 part launches without the opt-in above.
constexpr int kPortableClusterBlocks = 8;

// CUjit_option values.
constexpr int kJitInfoLogBuffer = 3;           // CU_JIT_INFO_LOG_BUFFER
constexpr int kJitInfoLogBufferSizeBytes = 4;  // CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES
constexpr int kJitErrorLogBuffer = 5;          // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSizeBytes = 6; // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
constexpr int kJitOptimizationLevel = 7;       // CU_JIT_OPTIMIZATION_LEVEL

// CUstreamCaptureMode values.
constexpr int kStreamCaptureModeRelaxed = 2; // CU_STREAM_CAPTURE_MODE_RELAXED

// Stream, event and managed-memory flags.
constexpr unsigned kStreamDefault = 0x0;      // CU_STREAM_DEFAULT (synchronises with stream 0)
constexpr unsigned kStreamNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING
constexpr unsigned kEventDefault = 0x0;       // CU_EVENT_DEFAULT (records timing)
constexpr unsigned kEventDisableTiming = 0x2; // CU_EVENT_DISABLE_TIMING
constexpr unsigned kMemAttachGlobal = 0x1;    // CU_MEM_ATTACH_GLOBAL

// CUlaunchAttributeID values.
constexpr int kLaunchAttrClusterDimension = 4; // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: the launch may start before the one
// before it on the stream completes (the kernel waits for it with griddepcontrol.wait).
constexpr int kLaunchAttrProgrammaticStreamSerialization = 6;

/// The largest dynamic shared memory a kernel may use without opting in through
/// kFuncAttrMaxDynamicSharedSizeBytes (48 KiB on every architecture since Volta).
constexpr int kDefaultMaxDynamicSharedBytes = 48 * 1024;

/// CUlaunchAttribute (cuda.h: `CUlaunchAttribute_st`): an id, padding to 8 bytes, and a 64-byte
/// value union of which only the cluster dimensions and the programmatic stream serialization
/// flag are used here.
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    uint64_t alignment; // the union holds pointers in cuda.h: keep its 8-byte alignment
    struct {
      unsigned x, y, z;
    } clusterDim;
    int programmaticStreamSerializationAllowed;
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");

/// CUlaunchConfig (cuda.h: `CUlaunchConfig_st`), the argument of cuLaunchKernelEx.
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(LaunchConfig) == 56, "CUlaunchConfig is 56 bytes");
} // namespace cuda

/// The name of a CUresult, e.g. "CUDA_ERROR_OUT_OF_MEMORY". Uses the driver's cuGetErrorName when
/// the driver is loaded, a built-in table of the common codes otherwise, and "CUresult <n>" for a
/// code neither knows.
std::string cudaErrorName(CUresult result);

/// One line describing a failed driver call: "<what> failed with <NAME>", followed by the driver's
/// description in parentheses when the driver is loaded and has one.
std::string formatCudaError(CUresult result, llvm::StringRef what);

/// What the runner reports about the device.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;               // e.g. "NVIDIA H200"
  int computeCapabilityMajor = 0; // 9 for sm_90
  int computeCapabilityMinor = 0;
  int smCount = 0;
  int l2CacheBytes = 0;
  int maxThreadsPerBlock = 0;
  int maxSharedBytesPerBlockOptin = 0; // the most dynamic + static shared memory one CTA may use
  int maxSharedBytesPerSM = 0;
  size_t totalMemoryBytes = 0;
  int driverVersion = 0; // e.g. 13000 for CUDA 13.0
};

/// The CUDA driver of this process: one instance (get()), loaded once (load()).
///
/// The member functions below are meant for the runner (device memory, copies, events, timing).
/// `api()` exposes the raw entry points for the mgpu* runtime. Every function other than load(),
/// isLoaded() and api() requires a successful load().
class CudaDriver {
public:
  /// The raw driver entry points, resolved by exact (versioned) symbol name. Required ones are
  /// non-null after a successful load; the ones marked optional may be null on an old driver.
  struct Api {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuGetErrorName)(CUresult error, const char **name);
    CUresult (*cuGetErrorString)(CUresult error, const char **description);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
    CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device); // cuDeviceTotalMem_v2
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
    CUresult (*cuCtxSetCurrent)(CUcontext context);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
    CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned numOptions,
                                   int *options, void **optionValues);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
    CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
    CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction function);
    CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                               unsigned blockX, unsigned blockY, unsigned blockZ,
                               unsigned sharedMemBytes, CUstream stream, void **params,
                               void **extra);
    // Optional (CUDA >= 11.8): needed only for thread-block clusters.
    CUresult (*cuLaunchKernelEx)(const cuda::LaunchConfig *config, CUfunction function,
                                 void **params, void **extra);
    // Optional (CUDA >= 10.1): lets a module load while the caller's stream is being captured
    // (CaptureModeRelaxer).
    CUresult (*cuThreadExchangeStreamCaptureMode)(int *mode);
    CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream stream); // cuStreamDestroy_v2
    CUresult (*cuStreamSynchronize)(CUstream stream);
    CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
    CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
    CUresult (*cuEventDestroy)(CUevent event); // cuEventDestroy_v2
    CUresult (*cuEventRecord)(CUevent event, CUstream stream);
    CUresult (*cuEventSynchronize)(CUevent event);
    // cuEventElapsedTime_v2 (CUDA >= 12.8), else cuEventElapsedTime: same signature.
    CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start, CUevent end);
    CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes); // cuMemAlloc_v2
    CUresult (*cuMemAllocManaged)(CUdeviceptr *pointer, size_t bytes, unsigned flags);
    CUresult (*cuMemFree)(CUdeviceptr pointer);                               // cuMemFree_v2
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes); // cuMemcpyHtoD_v2
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);       // cuMemcpyDtoH_v2
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                  CUstream stream); // cuMemcpyDtoDAsync_v2
    // Unified-addressing copy in any direction.
    CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
    CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t count); // cuMemsetD8_v2
    CUresult (*cuMemsetD32)(CUdeviceptr dst, unsigned value, size_t count);     // cuMemsetD32_v2
    CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t count,
                                CUstream stream);
    CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value, size_t count,
                                 CUstream stream);
    CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count, CUstream stream);
  };

  /// The process-wide driver.
  static CudaDriver &get();

  /// Loads libcuda.so.1 (or libcuda.so), resolves the entry points, initialises the driver, and
  /// makes the primary context of device `deviceOrdinal` current on the calling thread.
  /// Idempotent: only the first call does the work; later calls return its outcome (the same
  /// one-line message on failure, e.g. "no CUDA driver: libcuda.so.1 not found (dlopen: ...)" or
  /// "no CUDA device: cuInit failed with CUDA_ERROR_NO_DEVICE"), whatever ordinal they pass.
  llvm::Error load(int deviceOrdinal = 0);
  bool isLoaded() const { return loaded; }
  const Api &api() const { return fns; }

  /// Makes the device's primary context current on the calling thread (a no-op when it already
  /// is). load() does this for the thread that loads; other threads call it before driver calls.
  llvm::Error makeCurrent();

  /// `result` as an llvm::Error: success for CUDA_SUCCESS, else formatCudaError(result, what).
  static llvm::Error check(CUresult result, llvm::StringRef what);

  // Device.
  const DeviceInfo &info() const { return device; }
  CUdevice deviceHandle() const { return deviceId; }
  CUcontext context() const { return primaryContext; }
  llvm::Expected<int> attribute(int attribute);
  llvm::Error synchronize(); // cuCtxSynchronize

  // Device memory. The synchronous copies and memsets run on the legacy default stream, which
  // orders them after all work queued on blocking streams (such as the mgpu runtime's stream).
  llvm::Expected<CUdeviceptr> alloc(size_t bytes);
  llvm::Error free(CUdeviceptr pointer);
  llvm::Error copyToDevice(CUdeviceptr dst, const void *src, size_t bytes);
  llvm::Error copyToHost(void *dst, CUdeviceptr src, size_t bytes);
  llvm::Error copyDeviceToDeviceAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                      CUstream stream);
  llvm::Error memset8(CUdeviceptr dst, uint8_t value, size_t count);
  llvm::Error memset32(CUdeviceptr dst, uint32_t value, size_t count);
  llvm::Error memset8Async(CUdeviceptr dst, uint8_t value, size_t count, CUstream stream);
  llvm::Error memset32Async(CUdeviceptr dst, uint32_t value, size_t count, CUstream stream);

  // Streams and events.
  llvm::Expected<CUstream> createStream(unsigned flags = cuda::kStreamDefault);
  llvm::Error destroyStream(CUstream stream);
  llvm::Error synchronizeStream(CUstream stream);
  llvm::Expected<CUevent> createEvent(unsigned flags = cuda::kEventDefault);
  llvm::Error destroyEvent(CUevent event);
  llvm::Error recordEvent(CUevent event, CUstream stream);
  llvm::Error synchronizeEvent(CUevent event);
  /// Milliseconds between two recorded (timing) events; waits for `end` first.
  llvm::Expected<float> elapsedMs(CUevent start, CUevent end);

  /// The bandwidth reference: copies `bytes` from `src` to `dst` on `stream` `warmup` times
  /// untimed, then `iterations` times, each between its own pair of events, and returns the
  /// device time of each timed copy in milliseconds. A copy reads and writes `bytes`, so its
  /// bandwidth is 2 * bytes / time.
  llvm::Expected<std::vector<float>> timeDeviceToDeviceCopies(CUdeviceptr dst, CUdeviceptr src,
                                                              size_t bytes, CUstream stream,
                                                              int iterations, int warmup = 1);

private:
  CudaDriver() = default;
  llvm::Error loadOnce(int deviceOrdinal);

  std::mutex loadMutex;
  bool attempted = false;
  std::atomic<bool> loaded{false}; // read without the lock by isLoaded()
  std::string loadError;
  void *library = nullptr;
  Api fns = {};
  CUdevice deviceId = 0;
  CUcontext primaryContext = nullptr;
  DeviceInfo device;
};

} // namespace softmax::runtime

#endif // SOFTMAX_RUNTIME_CUDADRIVER_H
