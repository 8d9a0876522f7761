//===- RunnerOptions.h - What one softmax-run invocation is asked to do -*- C++ -*-===//
//
// softmax-run's settings as one value instead of dozens of global cl::opts (STYLE.md 14), so that
// the phases of a run take them as a parameter and another driver (a test, the C API) can fill
// them without a command line. The tool fills one from its options (tools/softmax-run); the
// defaults here are the tool's defaults. docs/runner.md describes each.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_RUNNEROPTIONS_H
#define SOFTMAX_RUNNER_RUNNEROPTIONS_H

#include "softmax/Runner/Inputs.h"
#include "softmax/Runner/Properties.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::softmax {
struct SoftmaxToNVVMOptions;
} // namespace mlir::softmax

namespace softmax::runner {

/// Where the inputs are generated (--inputs).
enum class InputSource { Auto, Host, Device };

/// How the calls reach the GPU (--launcher; Launcher.h). Default: api, or host-code with
/// --jit-without-gpu (which calls the host code).
enum class LauncherKind { Default, API, HostCode };

/// The pipeline options, as --softmax-to-nvvm takes them.
struct PipelineSettings {
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  int kernelOptLevel = 3;
  std::string binaryFormat = "isa";
  int64_t registersPerThread = 0;
  int64_t threadsPerBlock = 0;
  int64_t maxRegisters = 0; ///< cap on every kernel's nvvm.maxnreg (0: none)
  std::string ptxFile; ///< --dump-ptx
  /// The C++ API's disk cache (CompileOptions::cacheDir; --launcher=api only): empty for the
  /// API's default, "off" for none.
  std::string cacheDir;
};

struct RunnerOptions {
  // The program and its shapes.
  std::string inputFile;
  std::string entryName;
  std::vector<std::string> shapes;   ///< --shape, in argument order
  std::vector<std::string> caseList; ///< --case, each a --shape list joined by ','

  // Inputs (generated from the seed, or --input files).
  InputOptions inputs;     ///< inputs.special is filled by verifyRunnerOptions from `special`
  std::string special;     ///< --special as given
  int64_t rowStride = 0;   ///< 0: packed rows
  InputSource inputSource = InputSource::Auto;
  std::vector<std::string> inputArguments;  ///< --input
  std::vector<std::string> outputFiles;     ///< --output
  std::vector<std::string> expectedOutputs; ///< --expected-output

  // Checking and timing.
  bool check = true; ///< --check and not --no-check
  bool bench = false;
  int reps = 20;
  int warmup = 3;
  std::string gpuLock;
  int maxReported = 8;
  std::string propertyList; ///< --property as given
  PropertySet properties;   ///< filled by verifyRunnerOptions from `propertyList`

  // What runs, and where.
  bool compileOnly = false;
  int deviceOrdinal = 0;
  bool jitWithoutGPU = false; ///< testing aid: JIT and call without a driver
  bool emulateDevice = false; ///< testing aid: the reference's results are the device's
  /// Testing aid, with emulateDevice: the "device" results are the program evaluated with f32
  /// intermediates (EvaluateOptions::f32Intermediates), as the kernels compute, instead of the
  /// reference's own; --output then writes what an f32 evaluation gives.
  bool emulateF32 = false;
  /// Testing aid, with emulateDevice: the "device" results are the program evaluated with the
  /// near ties of its 16-bit roundings rounded the other way (EvaluateOptions::flipNearTies).
  bool emulateNearTies = false;
  LauncherKind launcher = LauncherKind::Default; ///< resolved by verifyRunnerOptions
  std::string jsonFile;

  PipelineSettings pipeline;
};

/// Checks the settings that need no program (ranges, combinations, --special, the pipeline
/// options through verifySoftmaxToNVVMOptions) and fills options.inputs.special. The error is
/// one line, as softmax-run prints it.
llvm::Error verifyRunnerOptions(RunnerOptions &options);

/// The pipeline options of buildSoftmaxToNVVMPipeline (the options object cannot be copied).
void fillPipelineOptions(const PipelineSettings &settings,
                         mlir::softmax::SoftmaxToNVVMOptions &options);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_RUNNEROPTIONS_H
