//===- softmax-run.cpp - Compile, run and check a softmax program ---------===//
//
// softmax-run FILE.mlir [--entry=NAME] [--shape=AxB]... [--check|--no-check] [--bench] ...
//
//  1. parses the file once, raises linalg softmax forms into the dialect (softmax-raise, a no-op
//     on dialect programs) and keeps an untouched clone for the float64 reference;
//  2. runs softmax-fuse + softmax-select-strategy (+ softmax-lower-to-gpu) on a second clone to
//     report the plans and kernel names, and compiles a third clone in-process with
//     buildSoftmaxToNVVMPipeline (the same pipeline as softmax-opt --softmax-to-nvvm);
//  3. loads the CUDA driver (exit 3 with the runtime's one-line reason when there is none),
//     JIT-compiles the host code with mlir::ExecutionEngine, the project's mgpu* runtime
//     registered as its symbols, and calls _mlir_ciface_<entry> on device buffers;
//  4. poisons every output before every run, then checks that every element was written and
//     compares with the reference evaluated on the unfused program; with --bench, times the
//     kernels with device events and a device-to-device copy of the same bytes.
//
// docs/runner.md describes the options, tolerances, exit codes and timing.
//
//===----------------------------------------------------------------------===//

#include "softmax/Conversion/Passes.h"
#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Reference/Evaluator.h"
#include "softmax/Registration.h"
#include "softmax/Runner/Compare.h"
#include "softmax/Runner/Inputs.h"
#include "softmax/Runner/Report.h"
#include "softmax/Runner/Signature.h"
#include "softmax/Runner/Storage.h"
#include "softmax/Runtime/CudaDriver.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cmath>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace ::softmax::runner;
namespace rt = ::softmax::runtime;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

static cl::OptionCategory runCategory("softmax-run options");
static cl::OptionCategory pipelineCategory("Pipeline options (as --softmax-to-nvvm)");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"), cl::init(""),
                                      cl::cat(runCategory));
static cl::opt<std::string> entryName("entry",
                                      cl::desc("Function to run (default: the only public one)"),
                                      cl::init(""), cl::cat(runCategory));
static cl::list<std::string>
    shapes("shape",
           cl::desc("Full shape AxBxC of each tensor argument with dynamic dimensions, in "
                    "argument order (repeat the option)"),
           cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of every input"), cl::init(1),
                              cl::cat(runCategory));
static cl::opt<Distribution> distribution(
    "dist", cl::desc("Distribution of float inputs"), cl::init(Distribution::Normal),
    cl::values(clEnumValN(Distribution::Normal, "normal", "normal(0, scale)"),
               clEnumValN(Distribution::Uniform, "uniform", "uniform in [-scale, scale]")),
    cl::cat(runCategory));
static cl::opt<double> scale("scale", cl::desc("Scale of float inputs"), cl::init(1.0),
                             cl::cat(runCategory));
static cl::opt<std::string>
    special("special",
            cl::desc("Special values in the first float tensor: neg-inf-rows,pos-inf,nan,large,"
                     "constant-rows (or all)"),
            cl::init(""), cl::cat(runCategory));
static cl::opt<int64_t> lengthsMax("lengths-max",
                                   cl::desc("Largest integer input (padding lengths); default: "
                                            "the row width of the first float tensor"),
                                   cl::init(-1), cl::cat(runCategory));
static cl::opt<double> maskDensity("mask-density",
                                   cl::desc("Probability that an i1 mask element is true (kept)"),
                                   cl::init(0.9), cl::cat(runCategory));
static cl::opt<double> scalarValue("scalar", cl::desc("Value of every scalar argument"),
                                   cl::init(0.7), cl::cat(runCategory));
static cl::opt<int64_t>
    rowStride("row-stride",
              cl::desc("Allocate the first float input and the outputs with rows this many "
                       "elements apart (>= the row width) and check the padding is untouched"),
              cl::init(0), cl::cat(runCategory));
static cl::opt<int> reps("reps", cl::desc("Timed runs with --bench"), cl::init(20),
                         cl::cat(runCategory));
static cl::opt<int> warmup("warmup", cl::desc("Untimed runs before them"), cl::init(3),
                           cl::cat(runCategory));
static cl::opt<bool> check("check", cl::desc("Compare with the float64 reference (default)"),
                           cl::init(true), cl::cat(runCategory));
static cl::opt<bool> noCheck("no-check",
                             cl::desc("Skip the reference (still checks every output element "
                                      "was written)"),
                             cl::init(false), cl::cat(runCategory));
static cl::opt<bool> bench("bench", cl::desc("Time the kernels and a copy of the same bytes"),
                           cl::init(false), cl::cat(runCategory));
static cl::opt<std::string> gpuLock(
    "gpu-lock",
    cl::desc("With --bench, hold an exclusive lock on this file while timing, so that runs "
             "started in parallel (compiling and checking at once) time one at a time"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<bool> compileOnly("compile-only",
                                 cl::desc("Compile, print the plans and kernels, and stop (no "
                                          "GPU needed)"),
                                 cl::init(false), cl::cat(runCategory));
static cl::opt<bool> probe("probe",
                           cl::desc("Only report whether a GPU is usable (exit 0) or not (3)"),
                           cl::init(false), cl::cat(runCategory));
static cl::opt<std::string> jsonFile("json", cl::desc("Write the report as JSON to this file"),
                                     cl::init(""), cl::cat(runCategory));
static cl::opt<int> deviceOrdinal("device", cl::desc("CUDA device ordinal"), cl::init(0),
                                  cl::cat(runCategory));
static cl::opt<bool> jitWithoutGPU(
    "jit-without-gpu", cl::Hidden,
    cl::desc("Testing aid: JIT the host code and call it without loading the driver (the mgpu* "
             "functions then report the missing driver and skip all device work)"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<bool> emulateDevice(
    "emulate-device", cl::Hidden,
    cl::desc("Testing aid: no GPU; the 'device' outputs are the reference's own results, "
             "written at the row stride, so the check must pass"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<int> maxReported("max-reported", cl::desc("Mismatches printed per output"),
                                cl::init(8), cl::cat(runCategory));

static cl::opt<std::string> chip("chip", cl::desc("GPU architecture"), cl::init("sm_90"),
                                 cl::cat(pipelineCategory));
static cl::opt<std::string> features("features", cl::desc("PTX features"), cl::init("+ptx80"),
                                     cl::cat(pipelineCategory));
static cl::opt<int> kernelOptLevel("kernel-opt-level",
                                   cl::desc("LLVM optimisation level of the kernels"), cl::init(3),
                                   cl::cat(pipelineCategory));
static cl::opt<std::string> binaryFormat("format",
                                         cl::desc("Kernel binary format: isa, bin or fatbin"),
                                         cl::init("isa"), cl::cat(pipelineCategory));
static cl::opt<int64_t> registersPerThread("registers-per-thread",
                                           cl::desc("Register budget for strategy selection"),
                                           cl::init(0), cl::cat(pipelineCategory));
static cl::opt<int64_t> threadsPerBlock("threads-per-block",
                                        cl::desc("Largest block for strategy selection"),
                                        cl::init(0), cl::cat(pipelineCategory));
static cl::opt<std::string> ptxFile("dump-ptx",
                                    cl::desc("Also write the kernels' PTX here ('-': stderr)"),
                                    cl::init(""), cl::cat(pipelineCategory));

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// Ends the run: prints the summary last, writes the JSON, returns the exit code.
int finish(RunReport &report, int exitCode, llvm::StringRef status) {
  report.exitCode = exitCode;
  report.status = status.str();
  if (!jsonFile.empty()) {
    std::string error;
    if (!writeJson(report, jsonFile, error))
      llvm::errs() << "softmax-run: " << error << "\n";
  }
  llvm::outs().flush();
  printSummary(report, llvm::outs());
  llvm::outs().flush();
  return exitCode;
}

/// A usage error: one line on stderr, exit 2.
int usageError(RunReport &report, const llvm::Twine &message) {
  llvm::errs() << "softmax-run: " << message << "\n";
  report.errors.push_back(message.str());
  return finish(report, kExitUsage, "USAGE-ERROR");
}

std::string printAttr(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The pipeline options from the command line (the options object cannot be copied).
void fillPipelineOptions(mlir::softmax::SoftmaxToNVVMOptions &options) {
  options.chip = chip;
  options.features = features;
  options.optLevel = kernelOptLevel;
  options.format = binaryFormat;
  options.registersPerThread = registersPerThread;
  options.threadsPerBlock = threadsPerBlock;
  options.ptxFile = ptxFile;
}

/// The plans (softmax-fuse + softmax-select-strategy) and kernel names (softmax-lower-to-gpu)
/// of the entry function, from a clone of the module.
LogicalResult analyse(ModuleOp module, llvm::StringRef entry, RunReport &report) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  pm.addNestedPass<func::FuncOp>(mlir::softmax::createFusePass());
  mlir::softmax::SelectStrategyPassOptions strategy;
  strategy.chip = chip;
  strategy.registersPerThread = registersPerThread;
  strategy.threadsPerBlock = threadsPerBlock;
  pm.addNestedPass<func::FuncOp>(mlir::softmax::createSelectStrategyPass(strategy));
  if (failed(pm.run(*clone)))
    return failure();
  auto fn = clone->lookupSymbol<func::FuncOp>(entry);
  fn.walk([&](mlir::softmax::FusedOp fused) {
    std::string plan = mlir::softmax::stringifyNormalization(fused.getNormalization()).str() + " " +
                       printType(fused.getInput().getType()) + " -> " + printType(fused.getType()) +
                       ": ";
    plan += fused.getStrategiesAttr() ? printAttr(fused.getStrategiesAttr()) : "(none)";
    report.plans.push_back(plan);
  });

  PassManager lower(module.getContext());
  lower.addPass(mlir::softmax::createLowerToGPUPass());
  if (failed(lower.run(*clone)))
    return failure();
  clone->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel() && kernel.getName().starts_with(entry))
      report.kernels.push_back(kernel.getName().str());
  });
  return success();
}

/// A tensor argument or result in device memory, and its memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]} as the C interface expects it.
struct DeviceTensor {
  ArgSpec spec;
  bool isOutput = false;
  int64_t width = 1;     ///< row width (last dimension)
  int64_t stride = 1;    ///< elements between rows in memory (>= width)
  int64_t allocated = 0; ///< elements allocated
  rt::CUdeviceptr pointer = 0;
  std::vector<int64_t> descriptor;
  std::vector<uint8_t> hostImage; ///< inputs: the uploaded bytes (with poisoned padding)

  size_t elementBytes() const { return getElementBytes(spec.element); }
  size_t allocatedBytes() const { return static_cast<size_t>(allocated) * elementBytes(); }
};

/// Lays out `tensor` with rows `stride` apart and builds its descriptor.
void layout(DeviceTensor &tensor, int64_t stride) {
  const std::vector<int64_t> &shape = tensor.spec.shape;
  int64_t rank = static_cast<int64_t>(shape.size());
  tensor.width = rank ? shape.back() : 1;
  tensor.stride = std::max(stride, tensor.width);
  int64_t rows = tensor.width ? tensor.spec.getNumElements() / tensor.width : 0;
  if (tensor.width == 0)
    rows = 0;
  tensor.allocated = rank <= 1 ? tensor.stride : rows * tensor.stride;
  std::vector<int64_t> strides(rank, 1);
  if (rank >= 2) {
    strides[rank - 2] = tensor.stride;
    for (int64_t d = rank - 3; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];
  }
  tensor.descriptor.assign(3 + 2 * rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    tensor.descriptor[3 + d] = shape[d];
    tensor.descriptor[3 + rank + d] = strides[d];
  }
}

/// Fills every output buffer (padding included) with the poison pattern, on the runtime's stream.
llvm::Error poison(const DeviceTensor &tensor, rt::CUstream stream) {
  rt::CudaDriver &driver = rt::CudaDriver::get();
  std::optional<uint64_t> bits = getPoisonBits(tensor.spec.element);
  if (!bits || tensor.allocated == 0)
    return llvm::Error::success();
  switch (tensor.elementBytes()) {
  case 4:
    return driver.memset32Async(tensor.pointer, static_cast<uint32_t>(*bits), tensor.allocated,
                                stream);
  case 2:
    return rt::CudaDriver::check(driver.api().cuMemsetD16Async(tensor.pointer,
                                                               static_cast<unsigned short>(*bits),
                                                               tensor.allocated, stream),
                                 "cuMemsetD16Async");
  default: {
    std::vector<uint8_t> image(tensor.allocatedBytes());
    fillPoison(tensor.spec.element, image.data(), tensor.allocated);
    return driver.copyToDevice(tensor.pointer, image.data(), image.size());
  }
  }
}

std::string errorLine(llvm::Error error) {
  std::string text = llvm::toString(std::move(error));
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

double median(std::vector<double> values) {
  if (values.empty())
    return -1;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

} // namespace

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  RunReport report;
  // Unknown options and bad values are usage errors (exit 2), not cl's default exit 1.
  std::string clErrors;
  llvm::raw_string_ostream clStream(clErrors);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "softmax-run: compile a softmax-dialect program, run it on "
                                   "the GPU and check it against the float64 reference\n",
                                   &clStream)) {
    llvm::errs() << clErrors;
    return kExitUsage;
  }
  rt::CudaDriver &driver = rt::CudaDriver::get();

  // --probe: is there a usable GPU? (lit uses this to set the `gpu` feature.)
  if (probe) {
    if (llvm::Error error = driver.load(deviceOrdinal)) {
      llvm::outs() << "no GPU: " << errorLine(std::move(error)) << "\n";
      return kExitNoGPU;
    }
    const rt::DeviceInfo &info = driver.info();
    llvm::outs() << "gpu: " << info.name << " (sm_" << info.computeCapabilityMajor
                 << info.computeCapabilityMinor << ", " << info.smCount << " SMs, L2 "
                 << info.l2CacheBytes / (1024 * 1024) << " MiB, driver " << info.driverVersion
                 << ")\n";
    return kExitPass;
  }

  report.file = inputFile;
  report.seed = seed;
  report.rowStride = rowStride;
  if (inputFile.empty())
    return usageError(report, "no input file (usage: softmax-run FILE.mlir [options]; --help)");
  InputOptions inputOptions;
  inputOptions.seed = seed;
  inputOptions.distribution = distribution;
  inputOptions.scale = scale;
  inputOptions.lengthsMax = lengthsMax;
  inputOptions.maskDensity = maskDensity;
  inputOptions.scalar = scalarValue;
  {
    std::string error;
    if (!parseSpecialCases(special, inputOptions.special, error))
      return usageError(report, error);
  }
  if (rowStride < 0)
    return usageError(report, "--row-stride must be >= 0");
  if (reps < 1 || warmup < 0)
    return usageError(report, "--reps must be >= 1 and --warmup >= 0");
  if (maskDensity < 0 || maskDensity > 1)
    return usageError(report, "--mask-density must be in [0, 1]");
  bool doCheck = check && !noCheck;

  // Parse once.
  DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());
  std::string openError;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &openError);
  if (!buffer)
    return usageError(report, "cannot read '" + inputFile + "': " + openError);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    report.errors.push_back("the file does not parse or verify (diagnostics above)");
    return finish(report, kExitUsage, "COMPILE-ERROR");
  }
  // linalg from the front ends (linalg.softmax, decomposed softmax) becomes dialect ops first,
  // so that the reference and the compiler both see the dialect program.
  {
    PassManager raise(&context);
    raise.addNestedPass<func::FuncOp>(mlir::softmax::createRaisePass());
    if (failed(raise.run(*module))) {
      report.errors.push_back("softmax-raise failed (diagnostics above)");
      return finish(report, kExitUsage, "COMPILE-ERROR");
    }
  }

  // The entry and its shapes.
  std::string error;
  FailureOr<func::FuncOp> entry = findEntry(*module, entryName, error);
  if (failed(entry))
    return usageError(report, error);
  report.entry = entry->getSymName().str();
  FailureOr<Signature> signature = resolveSignature(*entry, shapes, compileOnly, error);
  if (failed(signature))
    return usageError(report, error);
  report.inputs = signature->inputs;
  report.outputs = signature->outputs;
  int firstFloat = -1;
  for (auto [i, spec] : llvm::enumerate(signature->inputs))
    if (spec.isTensor && isFloatKind(spec.element) && firstFloat < 0)
      firstFloat = static_cast<int>(i);
  if (rowStride > 0) {
    if (firstFloat < 0)
      return usageError(report, "--row-stride needs a float tensor argument");
    auto checkWidth = [&](const ArgSpec &spec) {
      return spec.getRowWidth() < 0 || rowStride >= spec.getRowWidth();
    };
    if (!checkWidth(signature->inputs[firstFloat]) || !llvm::all_of(signature->outputs, checkWidth))
      return usageError(
          report, "--row-stride=" + std::to_string(rowStride) + " is smaller than a row (" +
                      std::to_string(signature->inputs[firstFloat].getRowWidth()) + " elements)");
  }

  // The untouched clone for the reference; plans from a second one; compile a third.
  OwningOpRef<ModuleOp> referenceModule = module->clone();
  if (failed(analyse(*module, report.entry, report))) {
    report.errors.push_back("softmax-fuse / softmax-select-strategy / softmax-lower-to-gpu "
                            "failed (diagnostics above)");
    return finish(report, kExitUsage, "COMPILE-ERROR");
  }
  OwningOpRef<ModuleOp> compiled = module->clone();
  {
    PassManager pm(&context);
    mlir::softmax::SoftmaxToNVVMOptions options;
    fillPipelineOptions(options);
    mlir::softmax::buildSoftmaxToNVVMPipeline(pm, options);
    if (failed(pm.run(*compiled))) {
      report.errors.push_back("the softmax-to-nvvm pipeline failed (diagnostics above)");
      return finish(report, kExitUsage, "COMPILE-ERROR");
    }
  }
  if (compileOnly)
    return finish(report, kExitPass, "COMPILED");

  // The GPU.
  bool noDevice = jitWithoutGPU || emulateDevice;
  if (noDevice) {
    // Skip the driver: descriptors hold null pointers and nothing is allocated.
  } else if (llvm::Error loadError = driver.load(deviceOrdinal)) {
    std::string line = errorLine(std::move(loadError));
    llvm::errs() << "softmax-run: " << line << "\n";
    report.errors.push_back(line);
    return finish(report, kExitNoGPU, "NO-GPU");
  }
  const rt::DeviceInfo &info = driver.info();
  if (!noDevice) {
    report.device = info.name + " (sm_" + std::to_string(info.computeCapabilityMajor) +
                    std::to_string(info.computeCapabilityMinor) + ", " +
                    std::to_string(info.smCount) + " SMs, " +
                    std::to_string(info.l2CacheBytes / (1024 * 1024)) + " MiB L2)";
  }
  // A driver error while running: report it by name and stop.
  auto deviceError = [&](const llvm::Twine &what, llvm::Error err) {
    std::string line = (what + ": " + errorLine(std::move(err))).str();
    llvm::errs() << "softmax-run: " << line << "\n";
    report.errors.push_back(line);
    return finish(report, kExitDevice, "DEVICE-ERROR");
  };
  rt::CUstream stream = nullptr;
  if (!noDevice) {
    llvm::Expected<rt::CUstream> streamOrError = rt::runtimeStream();
    if (!streamOrError)
      return deviceError("creating the stream", streamOrError.takeError());
    stream = *streamOrError;
  }

  // Inputs (doubles exactly representable in their storage types).
  std::vector<std::vector<double>> values =
      generateInputs(signature->inputs, inputOptions, report.notes);

  // Device buffers: every tensor argument, then every result.
  std::vector<DeviceTensor> tensors;
  struct Freer {
    std::vector<DeviceTensor> &tensors;
    ~Freer() {
      for (DeviceTensor &tensor : tensors)
        if (tensor.pointer)
          llvm::consumeError(rt::CudaDriver::get().free(tensor.pointer));
    }
  } freer{tensors};
  std::vector<uint64_t> scalarSlots(signature->inputs.size(), 0);
  for (auto [i, spec] : llvm::enumerate(signature->inputs)) {
    if (!spec.isTensor) {
      encodeElements(spec.element, values[i].data(), 1, &scalarSlots[i]);
      continue;
    }
    DeviceTensor tensor;
    tensor.spec = spec;
    layout(tensor, static_cast<int>(i) == firstFloat ? rowStride.getValue() : 0);
    tensors.push_back(std::move(tensor));
  }
  size_t numInputTensors = tensors.size();
  for (const ArgSpec &spec : signature->outputs) {
    DeviceTensor tensor;
    tensor.spec = spec;
    tensor.isOutput = true;
    layout(tensor, rowStride);
    tensors.push_back(std::move(tensor));
  }
  for (DeviceTensor &tensor : noDevice ? llvm::MutableArrayRef<DeviceTensor>()
                                       : llvm::MutableArrayRef<DeviceTensor>(tensors)) {
    size_t bytes = std::max<size_t>(tensor.allocatedBytes(), 1);
    llvm::Expected<rt::CUdeviceptr> pointer = driver.alloc(bytes);
    if (!pointer)
      return deviceError("allocating " + std::to_string(bytes) + " bytes for " + tensor.spec.name,
                         pointer.takeError());
    tensor.pointer = *pointer;
    tensor.descriptor[0] = tensor.descriptor[1] = static_cast<int64_t>(tensor.pointer);
  }
  // Upload the inputs, rows at their stride, padding poisoned.
  if (!noDevice) {
    size_t t = 0;
    for (auto [i, spec] : llvm::enumerate(signature->inputs)) {
      if (!spec.isTensor)
        continue;
      DeviceTensor &tensor = tensors[t++];
      size_t bytes = tensor.elementBytes();
      tensor.hostImage.assign(tensor.allocatedBytes(), 0);
      if (tensor.stride != tensor.width)
        fillPoison(spec.element, tensor.hostImage.data(), tensor.allocated);
      int64_t rows = tensor.width ? spec.getNumElements() / tensor.width : 0;
      for (int64_t r = 0; r < rows; ++r)
        encodeElements(spec.element, values[i].data() + r * tensor.width, tensor.width,
                       tensor.hostImage.data() + r * tensor.stride * bytes);
      if (llvm::Error err =
              driver.copyToDevice(tensor.pointer, tensor.hostImage.data(), tensor.hostImage.size()))
        return deviceError("uploading " + spec.name, std::move(err));
      if (tensor.stride == tensor.width)
        tensor.hostImage = {}; // only kept to check strided inputs afterwards
    }
  }
  for (const DeviceTensor &tensor : tensors)
    report.idealBytes += tensor.spec.getNumElements() * tensor.elementBytes();
  report.fitsInL2 = report.idealBytes < info.l2CacheBytes;

  // The packed arguments of _mlir_ciface_<entry>: a pointer to each argument; a tensor argument
  // is a pointer to its descriptor, a scalar its value.
  std::vector<void *> descriptorPointers(tensors.size());
  for (size_t t = 0; t < tensors.size(); ++t)
    descriptorPointers[t] = tensors[t].descriptor.data();
  std::vector<void *> packedArgs;
  {
    size_t t = 0;
    for (auto [i, spec] : llvm::enumerate(signature->inputs))
      packedArgs.push_back(spec.isTensor ? static_cast<void *>(&descriptorPointers[t++])
                                         : static_cast<void *>(&scalarSlots[i]));
    for (; t < tensors.size(); ++t)
      packedArgs.push_back(&descriptorPointers[t]);
  }

  // JIT the host code; the module constructors load the kernels through our mgpu* functions.
  std::unique_ptr<ExecutionEngine> engine;
  std::string symbol = "_mlir_ciface_" + report.entry;
  if (!emulateDevice) {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    ExecutionEngineOptions engineOptions;
    engineOptions.enableGDBNotificationListener = false;
    engineOptions.enablePerfNotificationListener = false;
    auto engineOrError = ExecutionEngine::create(*compiled, engineOptions);
    if (!engineOrError) {
      std::string line =
          "JIT compilation of the host code failed: " + errorLine(engineOrError.takeError());
      llvm::errs() << "softmax-run: " << line << "\n";
      report.errors.push_back(line);
      return finish(report, kExitUsage, "COMPILE-ERROR");
    }
    engine = std::move(*engineOrError);
    engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      rt::registerSymbols([&](llvm::StringRef name, void *address) {
        symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
      });
      return symbols;
    });
    engine->initialize();
    if (jitWithoutGPU)
      llvm::outs() << "jit: initialized; runtime: " << errorLine(rt::takeError()) << "\n";
    else if (llvm::Error err = rt::takeError())
      return deviceError("loading the kernels", std::move(err));
    if (jitWithoutGPU) {
      // The host code runs to its end; the first mgpu* call records the missing driver.
      llvm::Error err = engine->invokePacked(symbol, packedArgs);
      if (err)
        return usageError(report, "calling " + symbol + ": " + errorLine(std::move(err)));
      llvm::outs() << "jit: called " << symbol << "; runtime: " << errorLine(rt::takeError())
                   << "\n";
      return finish(report, kExitPass, "JIT-ONLY");
    }
  } // !emulateDevice

  // One run: poison the outputs, call, wait, collect the first driver error.
  auto runOnce = [&]() -> llvm::Error {
    for (size_t t = numInputTensors; t < tensors.size(); ++t)
      if (llvm::Error err = poison(tensors[t], stream))
        return err;
    if (llvm::Error err = engine->invokePacked(symbol, packedArgs))
      return err;
    if (llvm::Error err = rt::takeError())
      return err;
    return driver.synchronizeStream(stream);
  };
  // The outputs as bytes, rows at their stride.
  auto download = [&](const DeviceTensor &tensor, std::vector<uint8_t> &image) -> llvm::Error {
    image.resize(tensor.allocatedBytes());
    return driver.copyToHost(image.data(), tensor.pointer, image.size());
  };

  std::vector<std::vector<uint8_t>> outputImages(tensors.size() - numInputTensors);
  if (!emulateDevice) {
    if (llvm::Error err = runOnce())
      return deviceError("running " + symbol, std::move(err));
    for (size_t t = numInputTensors; t < tensors.size(); ++t)
      if (llvm::Error err = download(tensors[t], outputImages[t - numInputTensors]))
        return deviceError("reading " + tensors[t].spec.name, std::move(err));
    // A strided input must come back unchanged, padding included.
    for (size_t t = 0; t < numInputTensors; ++t) {
      if (tensors[t].hostImage.empty())
        continue;
      std::vector<uint8_t> image;
      if (llvm::Error err = download(tensors[t], image))
        return deviceError("reading " + tensors[t].spec.name, std::move(err));
      if (image != tensors[t].hostImage)
        report.errors.push_back(tensors[t].spec.name + " (input) was modified by the run");
    }
  } // !emulateDevice

  // The float64 reference of the unfused program, rounded to the result types.
  std::vector<mlir::softmax::reference::HostValue> referenceResults;
  if (emulateDevice)
    doCheck = true;
  if (doCheck) {
    using namespace mlir::softmax::reference;
    std::vector<HostValue> args;
    for (auto [i, spec] : llvm::enumerate(signature->inputs))
      args.push_back(spec.isTensor
                         ? HostValue::ofTensor(HostTensor(spec.shape, std::move(values[i])))
                         : HostValue::ofScalar(values[i][0]));
    values.clear();
    auto referenceFn = referenceModule->lookupSymbol<func::FuncOp>(report.entry);
    std::string referenceError;
    FailureOr<std::vector<HostValue>> results =
        evaluateConsuming(referenceFn, std::move(args), referenceError);
    if (failed(results)) {
      report.errors.push_back("the reference cannot evaluate the program: " + referenceError);
      return finish(report, kExitUsage, "REFERENCE-ERROR");
    }
    roundResultsToStorage(referenceFn, *results);
    referenceResults = std::move(*results);
  }
  if (emulateDevice) {
    // The "device" wrote the reference: rows at their stride, padding left poisoned.
    for (size_t o = 0; o < outputImages.size(); ++o) {
      const DeviceTensor &tensor = tensors[numInputTensors + o];
      std::vector<uint8_t> &image = outputImages[o];
      image.assign(tensor.allocatedBytes(), 0);
      fillPoison(tensor.spec.element, image.data(), tensor.allocated);
      const std::vector<double> &data = referenceResults[o].tensor.data;
      int64_t rows = tensor.width ? tensor.spec.getNumElements() / tensor.width : 0;
      for (int64_t r = 0; r < rows; ++r)
        encodeElements(tensor.spec.element, data.data() + r * tensor.width, tensor.width,
                       image.data() + r * tensor.stride * tensor.elementBytes());
    }
  }
  values.clear();

  for (size_t o = 0; o < outputImages.size(); ++o) {
    const DeviceTensor &tensor = tensors[numInputTensors + o];
    OutputReport output;
    output.name = tensor.spec.name;
    output.kind = signature->outputKinds[o];
    output.checked = doCheck;
    const double *reference = nullptr;
    if (doCheck) {
      const auto &result = referenceResults[o].tensor;
      if (result.shape != tensor.spec.shape) {
        report.errors.push_back(output.name + ": the reference's shape differs from the "
                                              "runner's (internal error)");
        return finish(report, kExitUsage, "REFERENCE-ERROR");
      }
      reference = result.data.data();
    }
    output.compare = compareOutput(tensor.spec.element, tensor.spec.shape, outputImages[o].data(),
                                   tensor.stride, reference, output.kind, maxReported);
    for (const Mismatch &mismatch : output.compare.first)
      llvm::outs() << "mismatch: " << output.name << describeMismatch(mismatch) << "\n";
    report.outputReports.push_back(std::move(output));
  }
  referenceResults.clear();
  outputImages.clear();

  // Timing: kernels from the runtime's per-launch events, a copy of the same bytes the same way.
  if (bench && !emulateDevice) {
    // Released when the process ends (or the descriptor closes) at the latest.
    int lockFd = -1;
    if (!gpuLock.empty()) {
      lockFd = ::open(gpuLock.c_str(), O_CREAT | O_RDWR, 0644);
      if (lockFd < 0 || ::flock(lockFd, LOCK_EX) != 0)
        return usageError(report, "cannot lock '" + gpuLock + "': " + std::strerror(errno));
    }
    auto unlock = llvm::make_scope_exit([&] {
      if (lockFd >= 0)
        ::close(lockFd);
    });
    report.benched = true;
    report.reps = reps;
    report.warmup = warmup;
    rt::setKernelTiming(true);
    std::vector<double> callUs;
    for (int i = 0; i < warmup + reps; ++i) {
      if (llvm::Error err = runOnce())
        return deviceError("running " + symbol + " (bench)", std::move(err));
      llvm::Expected<std::vector<float>> times = rt::takeKernelTimes();
      if (!times)
        return deviceError("reading the kernel times", times.takeError());
      if (i < warmup)
        continue;
      double sum = 0;
      for (float ms : *times)
        sum += ms * 1000.0;
      callUs.push_back(sum);
      report.launchesPerCall = static_cast<int64_t>(times->size());
    }
    rt::setKernelTiming(false);
    // The last timed run was poisoned first too: every element must have been written again.
    for (size_t o = 0; o + numInputTensors < tensors.size(); ++o) {
      const DeviceTensor &tensor = tensors[numInputTensors + o];
      std::vector<uint8_t> image;
      if (llvm::Error err = download(tensor, image))
        return deviceError("reading " + tensor.spec.name, std::move(err));
      CompareResult last = compareOutput(tensor.spec.element, tensor.spec.shape, image.data(),
                                         tensor.stride, nullptr, OutputKind::Values, 0);
      if (last.unwritten || last.paddingTouched) {
        report.errors.push_back(tensor.spec.name + ": after the last timed run " +
                                std::to_string(last.unwritten) + " element(s) unwritten, " +
                                std::to_string(last.paddingTouched) + " padding touched");
        report.outputReports[o].compare.unwritten += last.unwritten;
        report.outputReports[o].compare.paddingTouched += last.paddingTouched;
      }
    }
    report.medianUs = median(callUs);
    report.minUs = *std::min_element(callUs.begin(), callUs.end());
    report.maxUs = *std::max_element(callUs.begin(), callUs.end());
    if (report.medianUs > 0)
      report.gbps = report.idealBytes / (report.medianUs * 1e-6) / 1e9;

    // The copy reads and writes idealBytes / 2 each: the same total traffic.
    size_t copyBytes = static_cast<size_t>(report.idealBytes / 2) & ~size_t(15);
    if (copyBytes > 0) {
      llvm::Expected<rt::CUdeviceptr> src = driver.alloc(copyBytes);
      llvm::Expected<rt::CUdeviceptr> dst =
          src ? driver.alloc(copyBytes) : llvm::Expected<rt::CUdeviceptr>(rt::CUdeviceptr(0));
      if (!src || !dst) {
        std::string line = "no memory for the copy reference: " +
                           errorLine(src ? dst.takeError() : src.takeError());
        report.notes.push_back(line);
        if (src)
          llvm::consumeError(driver.free(*src));
      } else {
        // Not zeros: a copy of a poisoned buffer (any bytes do for a copy).
        llvm::consumeError(driver.memset32Async(*src, 0x3F8CCCCD, copyBytes / 4, stream));
        llvm::Expected<std::vector<float>> copies =
            driver.timeDeviceToDeviceCopies(*dst, *src, copyBytes, stream, reps, warmup);
        llvm::consumeError(driver.free(*src));
        llvm::consumeError(driver.free(*dst));
        if (!copies)
          return deviceError("timing the copy", copies.takeError());
        std::vector<double> copyUs;
        for (float ms : *copies)
          copyUs.push_back(ms * 1000.0);
        report.copyUs = median(copyUs);
        if (report.medianUs > 0)
          report.fractionOfCopy = report.copyUs / report.medianUs;
      }
    }
    if (report.fitsInL2)
      report.notes.push_back(
          "the data (" + std::to_string(report.idealBytes / 1000000) +
          " MB) fits in the L2 cache (" + std::to_string(info.l2CacheBytes / 1000000) +
          " MB) and buffers are not rotated: the timings measure the cache, not device memory");
  }

  for (const std::string &note : report.notes)
    llvm::outs() << "note: " << note << "\n";
  bool failedCheck = report.totalMismatches() || report.totalUnwritten() ||
                     report.totalPaddingTouched() || !report.errors.empty();
  return finish(report, failedCheck ? kExitMismatch : kExitPass, failedCheck ? "FAIL" : "PASS");
}
