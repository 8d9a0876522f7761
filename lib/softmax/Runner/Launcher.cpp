//===- Launcher.cpp - How softmax-run's calls reach the GPU ---------------===//

#include "softmax/Runner/Launcher.h"

#include "softmax/API/Compile.h"
#include "softmax/Runner/Compile.h"
#include "softmax/Runner/Progress.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace api = ::softmax::api;

namespace softmax::runner {

Launcher::~Launcher() = default;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// The C++ API
//===----------------------------------------------------------------------===//

class APILauncher final : public Launcher {
public:
  APILauncher(std::shared_ptr<const api::Executable> executable, std::string entry)
      : executable(std::move(executable)), entry(std::move(entry)) {
    symbol = "@" + this->entry;
  }
  ~APILauncher() override {
    destroyEvents();
    if (workspace)
      llvm::consumeError(rt::CudaDriver::get().free(workspace));
  }

  // The kernels a case launches are compiled and loaded in prepare(), for its sizes: a dynamic
  // program has dozens, of which a case uses one or two.
  llvm::Error load() override { return llvm::Error::success(); }

  llvm::Error prepare(const Signature &signature, CaseBuffers &buffers) override {
    // The API's arguments: the source function's, then one buffer per result, each tensor with
    // the sizes and strides (in elements) its descriptor has.
    arguments.clear();
    size_t t = 0;
    auto addTensor = [&](const DeviceTensor &tensor) {
      size_t rank = tensor.spec.shape.size();
      const std::vector<int64_t> &d = tensor.descriptor;
      arguments.push_back(api::Argument::tensor(
          reinterpret_cast<const void *>(static_cast<uintptr_t>(tensor.pointer)),
          llvm::ArrayRef(d).slice(3, rank), llvm::ArrayRef(d).slice(3 + rank, rank)));
    };
    for (const ArgSpec &spec : signature.inputs) {
      if (spec.isTensor) {
        addTensor(buffers.tensors[t++]);
        continue;
      }
      double value = buffers.scalarValues[arguments.size()];
      arguments.push_back(isFloatKind(spec.element)
                              ? api::Argument::scalar(value)
                              : api::Argument::integer(static_cast<int64_t>(value)));
    }
    for (; t < buffers.tensors.size(); ++t)
      addTensor(buffers.tensors[t]);

    llvm::Expected<std::vector<api::Launch>> launches = executable->plan(entry, arguments);
    if (!launches)
      return launches.takeError();
    launchesPerCall = static_cast<int64_t>(launches->size());
    kernels.clear();
    for (const api::Launch &launch : *launches)
      kernels.push_back(launch.kernel);
    llvm::Expected<uint64_t> needed = executable->getWorkspaceSize(entry, arguments);
    if (!needed)
      return needed.takeError();
    if (*needed > workspaceBytes) {
      rt::CudaDriver &driver = rt::CudaDriver::get();
      if (workspace)
        llvm::consumeError(driver.free(workspace));
      workspace = 0;
      workspaceBytes = 0;
      llvm::Expected<rt::CUdeviceptr> allocated = driver.alloc(*needed);
      if (!allocated)
        return withContext("allocating " + std::to_string(*needed) + " bytes of workspace",
                           allocated.takeError());
      workspace = *allocated;
      workspaceBytes = *needed;
    }
    return llvm::Error::success();
  }

  llvm::Error compileAll() override {
    Phase phase("compiling every kernel");
    for (unsigned k = 0; k < executable->getKernels().size(); ++k)
      if (llvm::Expected<llvm::StringRef> image = executable->getKernelImage(k); !image)
        return image.takeError();
    return llvm::Error::success();
  }

  llvm::Error compileCall() override {
    Phase phase("compiling the kernels of the call");
    for (unsigned kernel : kernels)
      if (llvm::Expected<llvm::StringRef> image = executable->getKernelImage(kernel); !image)
        return image.takeError();
    return llvm::Error::success();
  }

  llvm::Error loadCall() override {
    Phase phase("loading the kernels of the call");
    return executable->prepare(entry, arguments);
  }

  llvm::Error call(CaseBuffers &, rt::CUstream stream) override {
    rt::CudaDriver &driver = rt::CudaDriver::get();
    if (timing)
      if (llvm::Error err = driver.recordEvent(start, stream))
        return err;
    if (llvm::Error err =
            executable->run(entry, arguments, stream,
                            reinterpret_cast<void *>(static_cast<uintptr_t>(workspace)),
                            workspaceBytes))
      return err;
    return timing ? driver.recordEvent(end, stream) : llvm::Error::success();
  }

  llvm::Error setTiming(bool on) override {
    timing = false;
    if (on && !start) {
      // One pair of events, recorded again around every timed call.
      rt::CudaDriver &driver = rt::CudaDriver::get();
      llvm::Expected<rt::CUevent> a = driver.createEvent();
      if (!a)
        return a.takeError();
      start = *a;
      llvm::Expected<rt::CUevent> b = driver.createEvent();
      if (!b)
        return b.takeError();
      end = *b;
    }
    timing = on;
    return llvm::Error::success();
  }

  llvm::Expected<float> takeCallTime() override {
    return rt::CudaDriver::get().elapsedMs(start, end);
  }

private:
  void destroyEvents() {
    for (rt::CUevent event : {start, end})
      if (event)
        llvm::consumeError(rt::CudaDriver::get().destroyEvent(event));
    start = end = nullptr;
  }

  std::shared_ptr<const api::Executable> executable;
  std::string entry;
  std::vector<api::Argument> arguments;
  std::vector<unsigned> kernels; ///< what the prepared call launches
  rt::CUdeviceptr workspace = 0;
  uint64_t workspaceBytes = 0;
  bool timing = false;
  rt::CUevent start = nullptr, end = nullptr; ///< around each timed call
};

//===----------------------------------------------------------------------===//
// The generated host code
//===----------------------------------------------------------------------===//

class HostCodeLauncher final : public Launcher {
public:
  HostCodeLauncher(std::unique_ptr<ExecutionEngine> engine, llvm::StringRef entry)
      : engine(std::move(engine)) {
    symbol = "_mlir_ciface_" + entry.str();
  }

  llvm::Error load() override { return rt::takeError(); }

  llvm::Error prepare(const Signature &signature, CaseBuffers &buffers) override {
    packArguments(signature, buffers);
    return llvm::Error::success();
  }

  llvm::Error call(CaseBuffers &buffers, rt::CUstream) override {
    // The host code launches on the runtime's stream (rt::runtimeStream(), the runner's).
    if (llvm::Error err = engine->invokePacked(symbol, buffers.packedArgs))
      return err;
    return rt::takeError();
  }

  llvm::Error setTiming(bool on) override {
    rt::setKernelTiming(on);
    return llvm::Error::success();
  }

  llvm::Expected<float> takeCallTime() override {
    // The runtime records every launch; a call's time is the sum of its launches'.
    llvm::Expected<std::vector<float>> launchTimes = rt::takeKernelTimes();
    if (!launchTimes)
      return launchTimes.takeError();
    float sum = 0;
    for (float ms : *launchTimes)
      sum += ms;
    launchesPerCall = static_cast<int64_t>(launchTimes->size());
    return sum;
  }

  ExecutionEngine &getEngine() { return *engine; }

private:
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace

llvm::Expected<std::unique_ptr<Launcher>> createAPILauncher(ModuleOp module,
                                                            llvm::StringRef entry,
                                                            const PipelineSettings &settings) {
  api::CompileOptions options;
  options.chip = settings.chip;
  options.features = settings.features;
  options.optLevel = settings.kernelOptLevel;
  options.format = settings.binaryFormat;
  options.registersPerThread = settings.registersPerThread;
  options.threadsPerBlock = settings.threadsPerBlock;
  options.maxRegisters = settings.maxRegisters;
  options.cacheDir = settings.cacheDir;
  std::shared_ptr<const api::Executable> executable;
  {
    Phase phase("compiling up to the kernels (the C++ API's compile())");
    llvm::Expected<std::shared_ptr<const api::Executable>> compiled =
        api::compile(module, options);
    if (!compiled)
      return compiled.takeError();
    executable = std::move(*compiled);
  }
  if (!executable->lookupFunction(entry))
    return makeError("the compiled program has no host function @" + entry);
  if (!settings.ptxFile.empty()) {
    // As the pipeline's ptx-file option: '-' is standard error. Every kernel is compiled for it.
    llvm::Expected<llvm::StringRef> ptx = [&] {
      Phase phase("compiling every kernel, for the PTX file");
      return executable->getPTX();
    }();
    if (!ptx)
      return ptx.takeError();
    if (settings.ptxFile == "-") {
      llvm::errs() << *ptx;
    } else {
      std::error_code ec;
      llvm::raw_fd_ostream os(settings.ptxFile, ec, llvm::sys::fs::OF_Text);
      if (ec)
        return makeError("cannot write '" + settings.ptxFile + "': " + ec.message());
      os << *ptx;
    }
  }
  return std::make_unique<APILauncher>(std::move(executable), entry.str());
}

llvm::Expected<std::unique_ptr<Launcher>> createHostCodeLauncher(ModuleOp compiled,
                                                                 llvm::StringRef entry) {
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine = createEngine(compiled);
  if (!engine)
    return engine.takeError();
  return std::make_unique<HostCodeLauncher>(std::move(*engine), entry);
}

llvm::Error callHostCodeWithoutGPU(Launcher &launcher, CaseBuffers &buffers) {
  auto &hostCode = static_cast<HostCodeLauncher &>(launcher);
  return hostCode.getEngine().invokePacked(hostCode.getSymbol(), buffers.packedArgs);
}

} // namespace softmax::runner
