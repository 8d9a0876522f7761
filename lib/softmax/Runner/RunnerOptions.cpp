//===- RunnerOptions.cpp - What one softmax-run invocation is asked to do -===//

#include "softmax/Runner/RunnerOptions.h"

#include "softmax/Pipelines/Pipelines.h"

using namespace softmax::runner;

namespace {
llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

void softmax::runner::fillPipelineOptions(const PipelineSettings &settings,
                                          mlir::softmax::SoftmaxToNVVMOptions &options) {
  options.chip = settings.chip;
  options.features = settings.features;
  options.optLevel = settings.kernelOptLevel;
  options.format = settings.binaryFormat;
  options.registersPerThread = settings.registersPerThread;
  options.threadsPerBlock = settings.threadsPerBlock;
  options.maxRegisters = settings.maxRegisters;
  options.ptxFile = settings.ptxFile;
}

llvm::Error softmax::runner::verifyRunnerOptions(RunnerOptions &options) {
  std::string message;
  if (!parseSpecialCases(options.special, options.inputs.special, message))
    return error(message);
  if (!parsePropertySet(options.propertyList, options.properties, message))
    return error(message);
  if (options.properties.any() && !options.check)
    return error("--property checks the results against the reference and each other: it "
                 "needs the check (drop --no-check)");
  if (options.properties.any() && options.inputSource == InputSource::Device)
    return error("--property needs the inputs on the host (--inputs=host or auto)");
  {
    // The pipeline's passes would take a bad chip or format on trust or report it and carry on.
    mlir::softmax::SoftmaxToNVVMOptions pipeline;
    fillPipelineOptions(options.pipeline, pipeline);
    if (llvm::Error err = mlir::softmax::verifySoftmaxToNVVMOptions(pipeline))
      return error("pipeline options: " + llvm::toString(std::move(err)));
  }
  if (options.rowStride < 0)
    return error("--row-stride must be >= 0");
  if (options.reps < 1 || options.warmup < 0)
    return error("--reps must be >= 1 and --warmup >= 0");
  if (options.inputs.maskDensity < 0 || options.inputs.maskDensity > 1)
    return error("--mask-density must be in [0, 1]");
  if (options.inputSource == InputSource::Device && options.check)
    return error("--inputs=device needs --no-check (the reference needs the inputs on the host)");
  if (options.inputSource == InputSource::Device && !options.inputs.special.names().empty())
    return error("--inputs=device cannot apply --special (use --inputs=host)");
  // The one calls the host code without outputs, the other makes up outputs without calling it.
  if (options.jitWithoutGPU && options.emulateDevice)
    return error("--jit-without-gpu and --emulate-device cannot be combined (the one calls the "
                 "host code without a GPU, the other emulates its results without calling it)");
  if (options.emulateF32 && !options.emulateDevice)
    return error("--emulate-f32 chooses what --emulate-device hands back as the device's results: "
                 "it needs --emulate-device");
  if (options.emulateNearTies && !options.emulateDevice)
    return error("--emulate-near-ties chooses what --emulate-device hands back as the device's "
                 "results: it needs --emulate-device");
  if (options.emulateNearTies && options.emulateF32)
    return error("--emulate-f32 and --emulate-near-ties cannot be combined (each names the "
                 "evaluation --emulate-device hands back)");
  if (options.jitWithoutGPU && options.launcher == LauncherKind::API)
    return error("--jit-without-gpu calls the generated host code: it needs "
                 "--launcher=host-code, not api");
  if (options.launcher == LauncherKind::Default)
    options.launcher = options.jitWithoutGPU ? LauncherKind::HostCode : LauncherKind::API;
  if (!options.pipeline.cacheDir.empty() && options.launcher != LauncherKind::API)
    return error("--cache-dir is the C++ API's compile cache: it needs --launcher=api");
  return llvm::Error::success();
}
