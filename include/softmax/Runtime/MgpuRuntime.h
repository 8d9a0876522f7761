//===- MgpuRuntime.h - The mgpu* functions JIT-compiled host code calls -*- C++ -*-===//
//
// After `gpu-to-llvm` and the translation of `gpu.binary` (SelectObjectAttr), the host code of a
// GPU program calls C functions named mgpu*: module load/unload in global constructors and
// destructors, then function lookup, kernel launches, streams, events, device memory. Upstream
// MLIR ships them in libmlir_cuda_runtime.so, which Debian's packages lack and which links
// libcuda; this file provides them over CudaDriver (libcuda loaded at run time) for the runner to
// hand to mlir::ExecutionEngine.
//
// Policies (docs/runtime.md has the reasoning):
//  - Errors: the first failing call is recorded (call name + driver error name) and every later
//    call that would do work on the device is skipped; clean-up calls still run. The runner asks
//    takeError() after each JIT entry call and exits non-zero. ErrorPolicy::Abort prints the line
//    to stderr and aborts instead, like upstream's wrappers.
//  - Streams: mgpuStreamCreate returns one stream owned by the runtime, created once; destroying
//    it is a no-op. The runner times and synchronises on runtimeStream().
//  - Kernel timing, when enabled: each launch is bracketed by two events on its stream; the runner
//    reads the per-launch device times with takeKernelTimes().
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNTIME_MGPURUNTIME_H
#define SOFTMAX_RUNTIME_MGPURUNTIME_H

#include "softmax/Runtime/CudaDriver.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace softmax::runtime {

/// Calls `add(name, address)` once for each mgpu* function defined below, for the runner to put
/// in mlir::ExecutionEngine's symbol map (see docs/runtime.md for the snippet).
void registerSymbols(llvm::function_ref<void(llvm::StringRef name, void *address)> add);

/// What a failing mgpu* call does.
enum class ErrorPolicy {
  Record, ///< (default) keep the first error for takeError(); skip later device work
  Abort,  ///< print "softmax runtime: <message>" to stderr and abort()
};
void setErrorPolicy(ErrorPolicy policy);

/// The first error since the last takeError() (success when none), and clears it so that later
/// calls run again. After a sticky device fault (e.g. CUDA_ERROR_ILLEGAL_ADDRESS) the context is
/// unusable and later calls will fail again: the runner should stop.
llvm::Error takeError();
bool hasError();

/// Records `message` as an error of the runtime, as a failing mgpu* call does (for the runner's
/// own checks that should follow the same policy).
void reportError(llvm::StringRef message);

/// The stream every mgpu* call uses (created on first use; loads the driver if needed). It is a
/// blocking stream (CU_STREAM_DEFAULT), so the synchronous copies of CudaDriver order with it.
llvm::Expected<CUstream> runtimeStream();

/// Kernel timing (off by default). While on, mgpuLaunchKernel and mgpuLaunchClusterKernel record
/// an event before and after each launch on the launch's stream.
void setKernelTiming(bool enabled);
bool kernelTimingEnabled();
/// Waits for the launches timed since the last call and returns their device times in
/// milliseconds, in launch order (sum them for the kernels of one call); then forgets them.
llvm::Expected<std::vector<float>> takeKernelTimes();

} // namespace softmax::runtime

//===----------------------------------------------------------------------===//
// The mgpu* entry points, with the signatures MLIR 22 calls them with
//===----------------------------------------------------------------------===//
//
// Checked against the declarations that MLIR 22.1's gpu-to-llvm and gpu.binary translation emit
// (mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp, mlir/lib/Target/LLVMIR/Dialect/GPU/
// SelectObjectAttr.cpp): `index` is intptr_t, `!llvm.ptr` a pointer, i1/i8 flags bool.

extern "C" {
// gpu.binary with format=bin/fatbin: `data` is the cubin/fatbin, `gpuBlobSize` its size.
softmax::runtime::CUmodule mgpuModuleLoad(void *data, size_t gpuBlobSize);
// gpu.binary with format=isa: `data` is NUL-terminated PTX, JIT-compiled at level `optLevel`.
softmax::runtime::CUmodule mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(softmax::runtime::CUmodule module);
softmax::runtime::CUfunction mgpuModuleGetFunction(softmax::runtime::CUmodule module,
                                                   const char *name);

void mgpuLaunchKernel(softmax::runtime::CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                      int32_t smem, softmax::runtime::CUstream stream, void **params, void **extra,
                      size_t paramsCount);
// gridX..Z are the whole grid in blocks (a multiple of the cluster dimensions), as in CUDA.
void mgpuLaunchClusterKernel(softmax::runtime::CUfunction function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                             intptr_t gridZ, intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, softmax::runtime::CUstream stream, void **params,
                             void **extra);

softmax::runtime::CUstream mgpuStreamCreate();
void mgpuStreamDestroy(softmax::runtime::CUstream stream);
void mgpuStreamSynchronize(softmax::runtime::CUstream stream);
void mgpuStreamWaitEvent(softmax::runtime::CUstream stream, softmax::runtime::CUevent event);

softmax::runtime::CUevent mgpuEventCreate();
void mgpuEventDestroy(softmax::runtime::CUevent event);
void mgpuEventSynchronize(softmax::runtime::CUevent event);
void mgpuEventRecord(softmax::runtime::CUevent event, softmax::runtime::CUstream stream);

void *mgpuMemAlloc(uint64_t sizeBytes, softmax::runtime::CUstream stream, bool isHostShared);
void mgpuMemFree(void *ptr, softmax::runtime::CUstream stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, softmax::runtime::CUstream stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, softmax::runtime::CUstream stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, softmax::runtime::CUstream stream);

void mgpuSetDefaultDevice(int32_t device);

// gpu.host_register / gpu.host_unregister: not supported (they report an error). `descriptor`
// is a StridedMemRefType<char, 1> *.
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes);
} // extern "C"

#endif // SOFTMAX_RUNTIME_MGPURUNTIME_H
