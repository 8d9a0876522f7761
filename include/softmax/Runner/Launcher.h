//===- Launcher.h - How softmax-run's calls reach the GPU -------*- C++ -*-===//
//
// softmax-run calls a compiled program in one of two ways (--launcher):
//
//  - api (the default): the C++ API (softmax/API/Compile.h) compiles the program into an
//    in-memory Executable, whose run() launches the kernels on the runner's stream from the
//    launch rules read off the host IR. This is what an embedder, the C API and the Python
//    package do, so every conformance case is also a test of that API.
//  - host-code: the host functions that `softmax-opt --softmax-to-nvvm` emits for linking ahead
//    of time, JIT-compiled with mlir::ExecutionEngine over the project's mgpu* runtime.
//
// Both take the case's device buffers (DeviceBuffers.h) and launch one call on a stream
// without waiting for it; both time a call with device events (the API's around the call, the
// host code's around each of its launches, recorded by the runtime).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_LAUNCHER_H
#define SOFTMAX_RUNNER_LAUNCHER_H

#include "softmax/Runner/DeviceBuffers.h"
#include "softmax/Runner/RunnerOptions.h"
#include "softmax/Runner/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace softmax::runner {

class Launcher {
public:
  virtual ~Launcher();

  /// Loads the kernels (after the driver is loaded): the host code's were loaded when it was
  /// JIT-compiled, and this reports what its module constructors met; the API's are compiled
  /// and loaded for each case's call (compileCall, loadCall).
  virtual llvm::Error load() = 0;
  /// Gets a case's buffers ready for calls (argument lists, workspace). After allocate().
  virtual llvm::Error prepare(const Signature &signature, CaseBuffers &buffers) = 0;
  /// Compiles every kernel, for runs that launch nothing (--compile-only, --emulate-device) and
  /// so would otherwise compile none (api; the host code's are compiled with it).
  virtual llvm::Error compileAll() { return llvm::Error::success(); }
  /// Compiles the kernels the prepared call launches (api: each on its first use; the host
  /// code's were compiled with it). An error is the program's.
  virtual llvm::Error compileCall() { return llvm::Error::success(); }
  /// Loads the kernels the prepared call launches on the device (api: each on its first use).
  virtual llvm::Error loadCall() { return llvm::Error::success(); }
  /// Launches one call of the entry on `stream` and returns without waiting for it.
  virtual llvm::Error call(CaseBuffers &buffers, rt::CUstream stream) = 0;
  /// Times the calls that follow with device events (on) or stops timing them (off).
  virtual llvm::Error setTiming(bool on) = 0;
  /// The device time of the last call, in milliseconds, from its first launch to the end of its
  /// last; after that call was synchronised, with timing on.
  virtual llvm::Expected<float> takeCallTime() = 0;
  /// How many kernels the last prepared (api) or timed (host-code) call launches.
  int64_t getLaunchesPerCall() const { return launchesPerCall; }
  /// The symbol the reports name: "@entry" (api) or "_mlir_ciface_entry" (host-code).
  llvm::StringRef getSymbol() const { return symbol; }

protected:
  std::string symbol;
  int64_t launchesPerCall = 0;
};

/// Compiles `module` (parsed and raised; left unchanged) with the C++ API's compile() and
/// writes the PTX to settings.ptxFile when asked; no GPU is needed until load(). The error
/// carries the diagnostics.
llvm::Expected<std::unique_ptr<Launcher>> createAPILauncher(mlir::ModuleOp module,
                                                            llvm::StringRef entry,
                                                            const PipelineSettings &settings);

/// The host code of `compiled` (after buildSoftmaxToNVVMPipeline), JIT-compiled; its module
/// constructors load the kernels (their driver errors are in rt::takeError()).
llvm::Expected<std::unique_ptr<Launcher>> createHostCodeLauncher(mlir::ModuleOp compiled,
                                                                 llvm::StringRef entry);

/// Calls the host code's entry once without waiting for a GPU (--jit-without-gpu): `launcher`
/// must come from createHostCodeLauncher. The mgpu* calls record that there is no driver.
llvm::Error callHostCodeWithoutGPU(Launcher &launcher, CaseBuffers &buffers);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_LAUNCHER_H
