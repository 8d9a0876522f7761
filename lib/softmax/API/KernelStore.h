//===- KernelStore.h - An executable's kernels, compiled on first use -*- C++ -*-===//
//
// Internal to SoftmaxAPI. compile() keeps each kernel as the MLIR bytecode of its own gpu.module
// (the pipeline puts one kernel in a module); the kernel is compiled to PTX or cubin when a call
// first launches it, or when its image is asked for, and then loaded on the device when a call
// first launches it. A dynamic program has a kernel per dispatch tier and variant (48 for a
// plain dynamic 16-bit softmax), of which a call uses one or two: compiling them all up front
// costs seconds, one of them tens of milliseconds.
//
// Each kernel has its own lock, so that two threads launching different kernels for the first
// time compile them side by side, and an atomic "ready" flag that run() reads without a lock.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_API_KERNELSTORE_H
#define SOFTMAX_LIB_API_KERNELSTORE_H

#include "CompileCache.h"

#include "softmax/API/Executable.h"
#include "softmax/Runtime/CudaDriver.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace softmax::api {

/// Compiles one kernel module, MLIR bytecode as compile() keeps it, to the image `options`
/// ask for: its module through the pipeline's kernel half (buildKernelToNVVMPipeline), then
/// LLVM's NVPTX back end (serializeKernelModule). The error carries the diagnostics.
/// KernelCompiler.cpp; thread-safe.
llvm::Expected<std::string> compileKernelSource(llvm::StringRef source,
                                                const CompileOptions &options);

struct KernelStore {
  struct Kernel {
    std::string source; ///< the kernel's gpu.module as MLIR bytecode
    std::mutex mutex;   ///< held while the kernel is compiled or loaded
    std::atomic<bool> compiled{false};
    std::string image;        ///< set once, before `compiled`
    std::string compileError; ///< a compile that failed: returned every time
    // On the device (device 0's primary context).
    std::atomic<runtime::CUfunction> function{nullptr}; ///< set once, when loaded
    runtime::CUmodule module = nullptr;
    std::string loadError;
    /// Dynamic shared memory the kernel may use; raised by run() when a launch needs more.
    std::atomic<int64_t> maxSharedBytes{0};
  };

  explicit KernelStore(std::vector<std::string> sources);
  ~KernelStore();

  size_t size() const { return count; }
  Kernel &operator[](size_t k) { return kernels[k]; }

  std::unique_ptr<Kernel[]> kernels;
  size_t count = 0;
  /// Where compiled kernels are kept on disk, when the cache is on: the directory and the key
  /// of the executable's entry, from which each kernel's entry's key is derived.
  std::optional<std::string> cacheDirectory;
  CacheKey programKey{};
  /// getPTX()'s text, made once.
  std::mutex ptxMutex;
  bool ptxMade = false;
  std::string ptx;
};

/// Access to an executable's store for compile() and the disk cache's codec.
struct ExecutableInternals {
  static KernelStore &getStore(const Executable &executable) { return *executable.store; }
};

} // namespace softmax::api

#endif // SOFTMAX_LIB_API_KERNELSTORE_H
