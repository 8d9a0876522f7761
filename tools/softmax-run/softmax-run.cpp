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
// With --case (repeatable), steps 1-3 happen once and step 4 runs for every case in turn
// (allocate, generate inputs, run, check, time, free), each case with its own report. With
// --no-check --bench the inputs are generated on the device by seeded fill kernels
// (softmax/Runtime/DeviceFill.h) instead of on the host.
//
// This file is the command line (into a RunnerOptions), the session and the run loop of a case
// (check run, reference, comparison, timing); the pieces live in lib/softmax/Runner/: the cases
// (Cases.h), data files (DataFiles.h), device buffers (DeviceBuffers.h), planning, compilation
// and JIT (Compile.h), the comparison and the report.
//
// docs/runner.md describes the options, tolerances, exit codes and timing.
//
//===----------------------------------------------------------------------===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Reference/Evaluator.h"
#include "softmax/Registration.h"
#include "softmax/Runner/Cases.h"
#include "softmax/Runner/Compare.h"
#include "softmax/Runner/Compile.h"
#include "softmax/Runner/DataFiles.h"
#include "softmax/Runner/DeviceBuffers.h"
#include "softmax/Runner/Inputs.h"
#include "softmax/Runner/Progress.h"
#include "softmax/Runner/Report.h"
#include "softmax/Runner/RunnerOptions.h"
#include "softmax/Runner/Signature.h"
#include "softmax/Runner/Storage.h"
#include "softmax/Runtime/CudaDriver.h"
#include "softmax/Runtime/DeviceFill.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
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
static cl::OptionCategory dataCategory("Data files (as iree-run-module)");

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
static cl::list<std::string> caseList(
    "case",
    cl::desc("One case: the --shape list of one run joined by ',' (e.g. "
             "--case=16384x4096,16384,4096; --case= for a program without dynamic dimensions). "
             "Repeat it: the program is compiled once and every case runs in turn"),
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
static cl::opt<InputSource> inputSource(
    "inputs", cl::desc("Where the inputs are generated"), cl::init(InputSource::Auto),
    cl::values(clEnumValN(InputSource::Auto, "auto",
                          "on the device with --no-check --bench (no --special), else the host"),
               clEnumValN(InputSource::Host, "host", "on the host, uploaded (needed to check)"),
               clEnumValN(InputSource::Device, "device",
                          "by seeded fill kernels on the device (needs --no-check)")),
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
static cl::opt<bool> printFillPtx(
    "print-fill-ptx", cl::Hidden,
    cl::desc("Testing aid: print the PTX of the device input fill kernels and exit"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<double> progressAfter(
    "progress-after",
    cl::desc("Report a phase on stderr once it has run this many seconds (0: every phase; "
             "negative: never). Default: 1 when stderr is a terminal, else never"),
    cl::init(1.0), cl::cat(runCategory));
static cl::opt<int> maxReported("max-reported", cl::desc("Mismatches printed per output"),
                                cl::init(8), cl::cat(runCategory));

static cl::list<std::string> inputArguments(
    "input",
    cl::desc("One per argument, in order: @FILE.npy for a tensor (its shape fills the dynamic "
             "dimensions; no --shape needed), a value for a scalar. Replaces the generated inputs"),
    cl::cat(dataCategory));
static cl::list<std::string>
    outputFiles("output",
                cl::desc("One per result, in order: @FILE.npy receives the result as the device "
                         "computed it (--output= skips a result)"),
                cl::cat(dataCategory));
static cl::list<std::string> expectedOutputs(
    "expected-output",
    cl::desc("One per result, in order: @FILE.npy to compare the result with, at the reference "
             "check's tolerances (any float type; --expected-output= skips a result)"),
    cl::cat(dataCategory));

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
static cl::opt<int64_t> maxRegisters(
    "max-registers", cl::desc("Cap on every kernel's register budget (nvvm.maxnreg; 0: none)"),
    cl::init(0), cl::cat(pipelineCategory));
static cl::opt<std::string> ptxFile("dump-ptx",
                                    cl::desc("Also write the kernels' PTX here ('-': stderr)"),
                                    cl::init(""), cl::cat(pipelineCategory));

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

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

//===----------------------------------------------------------------------===//
// The session: what the cases of one process share
//===----------------------------------------------------------------------===//

/// The program is parsed, analysed, compiled and JIT-compiled once per process; every case
/// (--case, or the one run --shape describes) then runs against it. The session holds what the
/// cases share and the reports of the cases run so far.
struct Session {
  RunnerOptions options;
  bool multiCase = false; ///< --case given: a JSON array and one progress line per case
  RunReport base;         ///< file, entry, device, plans, kernels, seed, row stride
  std::vector<RunReport> reports;
  bool casesRan = false;

  InputOptions inputOptions;
  bool doCheck = true;
  bool noDevice = false; ///< --jit-without-gpu or --emulate-device: no driver, no buffers
  ModuleOp referenceModule;
  ExecutionEngine *engine = nullptr;
  std::string symbol; ///< _mlir_ciface_<entry>
  rt::CUstream stream = nullptr;

  /// --input, --output, --expected-output (the input values are moved into the one case).
  RunFiles files;
};

/// Writes the JSON (an array with --case) and prints the summary last; returns `exitCode`.
int writeResults(Session &session, int exitCode) {
  const RunnerOptions &opts = session.options;
  if (!opts.jsonFile.empty()) {
    std::string error;
    bool written = session.multiCase ? writeJsonArray(session.reports, opts.jsonFile, error)
                                     : writeJson(session.reports.front(), opts.jsonFile, error);
    if (!written)
      llvm::errs() << "softmax-run: " << error << "\n";
  }
  llvm::outs().flush();
  if (session.multiCase && session.casesRan)
    printCasesSummary(session.base, session.reports, llvm::outs());
  else
    printSummary(session.reports.front(), llvm::outs());
  llvm::outs().flush();
  return exitCode;
}

/// Ends the run before any case ran (a usage or compile error, --compile-only).
int finish(Session &session, int exitCode, llvm::StringRef status) {
  session.base.exitCode = exitCode;
  session.base.status = status.str();
  session.reports = {session.base};
  return writeResults(session, exitCode);
}

/// A usage error: one line on stderr, exit 2.
int usageError(Session &session, const llvm::Twine &message) {
  llvm::errs() << "softmax-run: " << message << "\n";
  session.base.errors.push_back(message.str());
  return finish(session, kExitUsage, "USAGE-ERROR");
}

/// Ends one case with `exitCode` and `status`.
int endCase(RunReport &report, int exitCode, llvm::StringRef status) {
  report.exitCode = exitCode;
  report.status = status.str();
  return exitCode;
}

/// A driver error while running a case: reported by name; the case ends.
int caseDeviceError(RunReport &report, const llvm::Twine &what, llvm::Error err) {
  std::string line = (what + ": " + errorLine(std::move(err))).str();
  llvm::errs() << "softmax-run: " << line << "\n";
  report.errors.push_back(line);
  return endCase(report, kExitDevice, "DEVICE-ERROR");
}



//===----------------------------------------------------------------------===//
// One case: buffers, inputs, runs, checks, timing
//===----------------------------------------------------------------------===//

/// One run: poison the outputs, call, wait, collect the first driver error.
llvm::Error runOnce(Session &session, CaseBuffers &buffers) {
  for (size_t t = buffers.numInputTensors; t < buffers.tensors.size(); ++t)
    if (llvm::Error err = poison(buffers.tensors[t], session.stream))
      return err;
  if (llvm::Error err = session.engine->invokePacked(session.symbol, buffers.packedArgs))
    return err;
  if (llvm::Error err = rt::takeError())
    return err;
  return rt::CudaDriver::get().synchronizeStream(session.stream);
}

/// The check run: the outputs after one call, and whether strided inputs came back unchanged.
llvm::Error checkRun(Session &session, CaseBuffers &buffers,
                     std::vector<std::vector<uint8_t>> &outputImages, RunReport &report) {
  if (llvm::Error err = runOnce(session, buffers))
    return withContext("running " + session.symbol, std::move(err));
  for (size_t t = buffers.numInputTensors; t < buffers.tensors.size(); ++t)
    if (llvm::Error err =
            download(buffers.tensors[t], outputImages[t - buffers.numInputTensors]))
      return withContext("reading " + buffers.tensors[t].spec.name, std::move(err));
  for (const DeviceTensor &tensor : buffers.inputs()) {
    if (tensor.hostImage.empty())
      continue;
    std::vector<uint8_t> image;
    if (llvm::Error err = download(tensor, image))
      return withContext("reading " + tensor.spec.name, std::move(err));
    if (image != tensor.hostImage)
      report.errors.push_back(tensor.spec.name + " (input) was modified by the run");
  }
  return llvm::Error::success();
}

/// Holds --gpu-lock (if given) while alive, so that processes started in parallel time one at
/// a time.
class GpuLock {
public:
  llvm::Error acquire(const std::string &path) {
    if (path.empty())
      return llvm::Error::success();
    fd = ::open(path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0)
      return llvm::createStringError("cannot lock '" + path + "': " + std::strerror(errno));
    return llvm::Error::success();
  }
  ~GpuLock() {
    if (fd >= 0)
      ::close(fd);
  }

private:
  int fd = -1;
};

/// Times the copy reference: cuMemcpyDtoDAsync of idealBytes / 2 (reads and writes the same
/// total as the kernels), median of --reps after --warmup. Notes when there is no memory for it.
llvm::Error timeCopy(Session &session, RunReport &report) {
  const RunnerOptions &opts = session.options;
  rt::CudaDriver &driver = rt::CudaDriver::get();
  size_t copyBytes = static_cast<size_t>(report.idealBytes / 2) & ~size_t(15);
  if (copyBytes == 0)
    return llvm::Error::success();
  llvm::Expected<rt::CUdeviceptr> src = driver.alloc(copyBytes);
  llvm::Expected<rt::CUdeviceptr> dst =
      src ? driver.alloc(copyBytes) : llvm::Expected<rt::CUdeviceptr>(rt::CUdeviceptr(0));
  if (!src || !dst) {
    report.notes.push_back("no memory for the copy reference: " +
                           errorLine(src ? dst.takeError() : src.takeError()));
    if (src)
      llvm::consumeError(driver.free(*src));
    return llvm::Error::success();
  }
  // Not zeros: a copy of a constant non-zero pattern (any bytes do for a copy).
  llvm::consumeError(driver.memset32Async(*src, 0x3F8CCCCD, copyBytes / 4, session.stream));
  llvm::Expected<std::vector<float>> copies =
      driver.timeDeviceToDeviceCopies(*dst, *src, copyBytes, session.stream, opts.reps,
                                      opts.warmup);
  llvm::consumeError(driver.free(*src));
  llvm::consumeError(driver.free(*dst));
  if (!copies)
    return withContext("timing the copy", copies.takeError());
  std::vector<double> copyUs;
  for (float ms : *copies)
    copyUs.push_back(ms * 1000.0);
  report.copyUs = median(copyUs);
  if (report.medianUs > 0)
    report.fractionOfCopy = report.copyUs / report.medianUs;
  return llvm::Error::success();
}

/// --bench: --warmup untimed then --reps timed calls (kernel time from the runtime's per-launch
/// events), the last one checked for unwritten elements again, then the copy reference.
llvm::Error benchCase(Session &session, const Signature &signature, CaseBuffers &buffers,
                      RunReport &report) {
  const RunnerOptions &opts = session.options;
  GpuLock lock;
  if (llvm::Error err = lock.acquire(opts.gpuLock))
    return err;
  report.benched = true;
  report.reps = opts.reps;
  report.warmup = opts.warmup;
  rt::setKernelTiming(true);
  // Off again on every way out (an error stops the loop early).
  llvm::scope_exit timingOff([] { rt::setKernelTiming(false); });
  std::vector<double> callUs;
  for (int i = 0; i < opts.warmup + opts.reps; ++i) {
    if (llvm::Error err = runOnce(session, buffers))
      return withContext("running " + session.symbol + " (bench)", std::move(err));
    llvm::Expected<std::vector<float>> times = rt::takeKernelTimes();
    if (!times)
      return withContext("reading the kernel times", times.takeError());
    if (i < opts.warmup)
      continue;
    double sum = 0;
    for (float ms : *times)
      sum += ms * 1000.0;
    callUs.push_back(sum);
    report.launchesPerCall = static_cast<int64_t>(times->size());
  }
  rt::setKernelTiming(false);
  // The last timed run was poisoned first too: every element must have been written again.
  for (size_t o = 0; o + buffers.numInputTensors < buffers.tensors.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    std::vector<uint8_t> image;
    if (llvm::Error err = download(tensor, image))
      return withContext("reading " + tensor.spec.name, std::move(err));
    CompareResult last = compareOutput(tensor.spec.element, tensor.spec.shape, image.data(),
                                       tensor.stride, nullptr, OutputKind::Values, 0);
    if (o >= report.outputReports.size()) {
      // There was no check run: this is the output's only check.
      OutputReport output;
      output.name = tensor.spec.name;
      output.kind = signature.outputKinds[o];
      output.compare = last;
      report.outputReports.push_back(std::move(output));
      continue;
    }
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
  if (llvm::Error err = timeCopy(session, report))
    return err;
  if (report.fitsInL2) {
    int64_t l2 = rt::CudaDriver::get().info().l2CacheBytes;
    report.notes.push_back(
        "the data (" + std::to_string(report.idealBytes / 1000000) +
        " MB) fits in the L2 cache (" + std::to_string(l2 / 1000000) +
        " MB) and buffers are not rotated: the timings measure the cache, not device memory");
  }
  return llvm::Error::success();
}

/// Whether this case's inputs are generated by the device fill kernels (see --inputs).
bool useDeviceInputs(const Session &session) {
  const RunnerOptions &opts = session.options;
  if (session.noDevice || session.doCheck || session.files.inputValues ||
      !session.inputOptions.special.names().empty())
    return false;
  return opts.inputSource == InputSource::Device ||
         (opts.inputSource == InputSource::Auto && opts.bench);
}

/// --output and --expected-output: writes the results the device computed and compares them
/// with the expected files. Returns an exit code when a file cannot be written, else 0.
int writeAndCompareFiles(const Session &session, const Signature &signature,
                         const CaseBuffers &buffers,
                         const std::vector<std::vector<uint8_t>> &outputImages,
                         RunReport &report) {
  const RunnerOptions &opts = session.options;
  for (size_t o = 0; o < outputImages.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    if (o < session.files.outputPaths.size() && !session.files.outputPaths[o].empty()) {
      const std::string &path = session.files.outputPaths[o];
      Phase phase("writing " + path);
      NpyArray array = packOutput(tensor.spec, outputImages[o].data(), tensor.stride);
      if (llvm::Error err = writeNpy(array, path)) {
        std::string line = "--output: " + errorLine(std::move(err));
        llvm::errs() << "softmax-run: " << line << "\n";
        report.errors.push_back(line);
        return endCase(report, kExitUsage, "USAGE-ERROR");
      }
      llvm::outs() << "output: " << tensor.spec.name << " (" << tensor.spec.describe()
                   << ") written to " << path << "\n";
    }
    if (o < session.files.expectedPaths.size() && !session.files.expectedPaths[o].empty()) {
      OutputReport output;
      output.name = tensor.spec.name;
      output.kind = signature.outputKinds[o];
      output.checked = true;
      output.expectedFile = session.files.expectedPaths[o];
      output.compare =
          compareOutput(tensor.spec.element, tensor.spec.shape, outputImages[o].data(),
                        tensor.stride, session.files.expectedValues[o].data(), output.kind,
                        opts.maxReported, signature.outputsOverLastAxis[o]);
      for (const Mismatch &mismatch : output.compare.first)
        llvm::outs() << "mismatch: " << output.name << describeMismatch(mismatch)
                     << " (expected: " << output.expectedFile << ")\n";
      report.outputReports.push_back(std::move(output));
    }
  }
  return 0;
}

/// Runs one case against the compiled program; fills `report`; returns its exit code.
int runCase(Session &session, const Signature &signature, RunReport &report) {
  const RunnerOptions &opts = session.options;
  rt::CudaDriver &driver = rt::CudaDriver::get();
  report.inputsOnDevice = useDeviceInputs(session);

  // Host inputs: doubles exactly representable in their storage types, for the upload and the
  // reference.
  std::vector<std::vector<double>> values;
  if (session.files.inputValues) {
    values = std::move(*session.files.inputValues);
  } else if (!report.inputsOnDevice && !opts.jitWithoutGPU) {
    Phase phase("generating the inputs");
    values = generateInputs(signature.inputs, session.inputOptions, report.notes);
  }

  CaseBuffers buffers;
  layoutCase(signature, session.inputOptions, session.options.rowStride, buffers);
  if (!session.noDevice) {
    if (llvm::Error err = allocate(buffers))
      return caseDeviceError(report, "allocating", std::move(err));
    Phase phase(report.inputsOnDevice ? "generating the inputs on the device"
                                      : "uploading the inputs");
    llvm::Error err = report.inputsOnDevice
                          ? fillInputsOnDevice(signature, session.inputOptions, buffers,
                                               session.stream)
                          : uploadInputs(signature, values, buffers);
    if (err)
      return caseDeviceError(report, "inputs", std::move(err));
  }
  packArguments(signature, buffers);
  for (const DeviceTensor &tensor : buffers.tensors)
    report.idealBytes += tensor.spec.getNumElements() * tensor.elementBytes();
  report.fitsInL2 = report.idealBytes < driver.info().l2CacheBytes;

  if (opts.jitWithoutGPU) {
    // The host code runs to its end; the first mgpu* call records the missing driver.
    if (llvm::Error err = session.engine->invokePacked(session.symbol, buffers.packedArgs)) {
      std::string line = "calling " + session.symbol + ": " + errorLine(std::move(err));
      llvm::errs() << "softmax-run: " << line << "\n";
      report.errors.push_back(line);
      return endCase(report, kExitUsage, "USAGE-ERROR");
    }
    llvm::outs() << "jit: called " << session.symbol
                 << "; runtime: " << errorLine(rt::takeError()) << "\n";
    return endCase(report, kExitPass, "JIT-ONLY");
  }

  // Timing without a check needs no separate check run: the last timed run's outputs are
  // checked for unwritten elements (2^28-byte downloads cost more than the kernels). A strided
  // input still gets its run, to check that it comes back unchanged.
  bool stridedInput = llvm::any_of(buffers.inputs(), [](const DeviceTensor &tensor) {
    return !tensor.hostImage.empty();
  });
  bool checkRunNeeded = !opts.emulateDevice && (session.doCheck || !opts.bench ||
                                                 stridedInput || !session.files.empty());
  std::vector<std::vector<uint8_t>> outputImages(
      checkRunNeeded || opts.emulateDevice ? buffers.tensors.size() - buffers.numInputTensors : 0);
  if (checkRunNeeded) {
    Phase phase("running " + session.symbol + " and reading its results");
    if (llvm::Error err = checkRun(session, buffers, outputImages, report))
      return caseDeviceError(report, "check run", std::move(err));
  }

  // The float64 reference of the unfused program, rounded to the result types.
  std::vector<mlir::softmax::reference::HostValue> referenceResults;
  bool doCheck = session.doCheck || opts.emulateDevice;
  if (doCheck) {
    using namespace mlir::softmax::reference;
    Phase phase("evaluating the float64 reference");
    std::vector<HostValue> args;
    for (auto [i, spec] : llvm::enumerate(signature.inputs))
      args.push_back(spec.isTensor
                         ? HostValue::ofTensor(HostTensor(spec.shape, std::move(values[i])))
                         : HostValue::ofScalar(values[i][0]));
    values.clear();
    auto referenceFn = session.referenceModule.lookupSymbol<func::FuncOp>(report.entry);
    std::string referenceError;
    FailureOr<std::vector<HostValue>> results =
        evaluateConsuming(referenceFn, std::move(args), referenceError);
    if (failed(results)) {
      report.errors.push_back("the reference cannot evaluate the program: " + referenceError);
      return endCase(report, kExitUsage, "REFERENCE-ERROR");
    }
    roundResultsToStorage(referenceFn, *results);
    referenceResults = std::move(*results);
  }
  values.clear();
  if (opts.emulateDevice)
    emulateOutputs(buffers, referenceResults, outputImages);

  Phase comparing("comparing the results with the reference");
  for (size_t o = 0; o < outputImages.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    OutputReport output;
    output.name = tensor.spec.name;
    output.kind = signature.outputKinds[o];
    output.checked = doCheck;
    const double *reference = nullptr;
    if (doCheck) {
      const auto &result = referenceResults[o].tensor;
      if (result.shape != tensor.spec.shape) {
        report.errors.push_back(output.name + ": the reference's shape differs from the "
                                              "runner's (internal error)");
        return endCase(report, kExitUsage, "REFERENCE-ERROR");
      }
      reference = result.data.data();
    }
    output.compare = compareOutput(tensor.spec.element, tensor.spec.shape, outputImages[o].data(),
                                   tensor.stride, reference, output.kind, opts.maxReported,
                                   signature.outputsOverLastAxis[o]);
    for (const Mismatch &mismatch : output.compare.first)
      llvm::outs() << "mismatch: " << output.name << describeMismatch(mismatch) << "\n";
    report.outputReports.push_back(std::move(output));
  }
  comparing.finish();
  referenceResults.clear();
  if (int exitCode = writeAndCompareFiles(session, signature, buffers, outputImages, report))
    return exitCode;
  outputImages.clear();

  if (opts.bench && !opts.emulateDevice) {
    Phase phase("timing (" + std::to_string(opts.warmup + opts.reps) + " runs and a copy)");
    if (llvm::Error err = benchCase(session, signature, buffers, report))
      return caseDeviceError(report, "bench", std::move(err));
  }

  for (const std::string &note : report.notes)
    llvm::outs() << "note: " << note << "\n";
  bool failedCheck = report.totalMismatches() || report.totalUnwritten() ||
                     report.totalPaddingTouched() || !report.errors.empty();
  return endCase(report, failedCheck ? kExitMismatch : kExitPass, failedCheck ? "FAIL" : "PASS");
}

//===----------------------------------------------------------------------===//
// Cases from the command line
//===----------------------------------------------------------------------===//

} // namespace

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// The settings of this run from the command line (after cl::ParseCommandLineOptions).
static RunnerOptions readCommandLine() {
  RunnerOptions options;
  options.inputFile = inputFile;
  options.entryName = entryName;
  options.shapes.assign(shapes.begin(), shapes.end());
  options.caseList.assign(caseList.begin(), caseList.end());
  options.inputs.seed = seed;
  options.inputs.distribution = distribution;
  options.inputs.scale = scale;
  options.inputs.lengthsMax = lengthsMax;
  options.inputs.maskDensity = maskDensity;
  options.inputs.scalar = scalarValue;
  options.special = special;
  options.rowStride = rowStride;
  options.inputSource = inputSource;
  options.inputArguments.assign(inputArguments.begin(), inputArguments.end());
  options.outputFiles.assign(outputFiles.begin(), outputFiles.end());
  options.expectedOutputs.assign(expectedOutputs.begin(), expectedOutputs.end());
  options.check = check && !noCheck;
  options.bench = bench;
  options.reps = reps;
  options.warmup = warmup;
  options.gpuLock = gpuLock;
  options.maxReported = maxReported;
  options.compileOnly = compileOnly;
  options.deviceOrdinal = deviceOrdinal;
  options.jitWithoutGPU = jitWithoutGPU;
  options.emulateDevice = emulateDevice;
  options.jsonFile = jsonFile;
  options.pipeline.chip = chip;
  options.pipeline.features = features;
  options.pipeline.kernelOptLevel = kernelOptLevel;
  options.pipeline.binaryFormat = binaryFormat;
  options.pipeline.registersPerThread = registersPerThread;
  options.pipeline.threadsPerBlock = threadsPerBlock;
  options.pipeline.maxRegisters = maxRegisters;
  options.pipeline.ptxFile = ptxFile;
  return options;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // --help lists softmax-run's own options; the hundreds of LLVM backend options linked in stay
  // accepted but are not listed (--help-hidden lists everything).
  cl::HideUnrelatedOptions({&runCategory, &dataCategory, &pipelineCategory});
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "softmax-run " SOFTMAX_VERSION " (commit " SOFTMAX_GIT_COMMIT "), LLVM/MLIR "
       << LLVM_VERSION_STRING << "\n";
  });
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
  // Progress lines are for people watching a terminal; logs and the tests' pipes get them only
  // when asked for.
  Phase::setThreshold(progressAfter.getNumOccurrences() || llvm::errs().is_displayed()
                          ? progressAfter.getValue()
                          : -1.0);

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
  if (printFillPtx) {
    llvm::outs() << rt::getFillPtx();
    return kExitPass;
  }

  Session session;
  session.options = readCommandLine();
  const RunnerOptions &opts = session.options;
  session.multiCase = !opts.caseList.empty();
  RunReport &base = session.base;
  base.file = opts.inputFile;
  base.seed = opts.inputs.seed;
  base.rowStride = opts.rowStride;
  if (opts.inputFile.empty())
    return usageError(session, "no input file (usage: softmax-run FILE.mlir [options]; --help)");
  if (llvm::Error err = verifyRunnerOptions(session.options))
    return usageError(session, errorLine(std::move(err)));
  session.inputOptions = opts.inputs;
  session.doCheck = opts.check;

  // Parse once.
  Phase parsing("parsing " + opts.inputFile);
  DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());
  std::string openError;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(opts.inputFile, &openError);
  if (!buffer)
    return usageError(session, "cannot read '" + opts.inputFile + "': " + openError);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    base.errors.push_back("the file does not parse or verify (diagnostics above)");
    return finish(session, kExitUsage, "COMPILE-ERROR");
  }
  // linalg from the front ends (linalg.softmax, decomposed softmax) becomes dialect ops first,
  // so that the reference and the compiler both see the dialect program.
  {
    PassManager raise(&context);
    raise.addNestedPass<func::FuncOp>(mlir::softmax::createRaisePass());
    if (failed(raise.run(*module))) {
      base.errors.push_back("softmax-raise failed (diagnostics above)");
      return finish(session, kExitUsage, "COMPILE-ERROR");
    }
  }

  parsing.finish();

  // The entry and the shapes of every case, all resolved before compiling.
  std::string error;
  FailureOr<func::FuncOp> entry = findEntry(*module, opts.entryName, error);
  if (failed(entry))
    return usageError(session, error);
  base.entry = entry->getSymName().str();
  // --input files: read now, so that their shapes fill the dynamic dimensions.
  llvm::Expected<std::vector<InputArgument>> inputFiles = readInputArguments(opts);
  if (!inputFiles)
    return usageError(session, errorLine(inputFiles.takeError()));
  llvm::Expected<std::vector<std::string>> fileShapes = getShapesFromFiles(*entry, *inputFiles);
  if (!fileShapes)
    return usageError(session, errorLine(fileShapes.takeError()));
  llvm::Expected<std::vector<Signature>> resolved = resolveCases(opts, *entry, *fileShapes);
  if (!resolved)
    return usageError(session, errorLine(resolved.takeError()));
  std::vector<Signature> signatures = std::move(*resolved);
  // The summary of an error before any case ran shows the first case's arguments.
  base.inputs = signatures.front().inputs;
  base.outputs = signatures.front().outputs;
  llvm::Expected<RunFiles> files = resolveRunFiles(opts, signatures, *inputFiles);
  if (!files)
    return usageError(session, errorLine(files.takeError()));
  session.files = std::move(*files);
  for (const Signature &signature : signatures)
    if (llvm::Error err = checkRowStride(opts, signature))
      return usageError(session, errorLine(std::move(err)));
  session.noDevice = opts.jitWithoutGPU || opts.emulateDevice;
  if (!opts.compileOnly)
    for (const Signature &signature : signatures)
      if (llvm::Error err =
              checkHostMemory(opts, signature, !useDeviceInputs(session) && !opts.jitWithoutGPU,
                              session.doCheck || opts.emulateDevice))
        return usageError(session, errorLine(std::move(err)));

  // The untouched clone for the reference; plans from a second one; compile a third.
  OwningOpRef<ModuleOp> referenceModule = module->clone();
  session.referenceModule = *referenceModule;
  FailureOr<ProgramPlan> plan = planProgram(*module, base.entry, opts.pipeline);
  if (failed(plan)) {
    base.errors.push_back("softmax-fuse / softmax-select-strategy / softmax-lower-to-gpu "
                          "failed (diagnostics above)");
    return finish(session, kExitUsage, "COMPILE-ERROR");
  }
  base.plans = std::move(plan->plans);
  base.kernels = std::move(plan->kernels);
  OwningOpRef<ModuleOp> compiled = module->clone();
  if (failed(compileProgram(*compiled, opts.pipeline))) {
    base.errors.push_back("the softmax-to-nvvm pipeline failed (diagnostics above)");
    return finish(session, kExitUsage, "COMPILE-ERROR");
  }
  if (opts.compileOnly)
    return finish(session, kExitPass, "COMPILED");

  // The GPU.
  session.noDevice = opts.jitWithoutGPU || opts.emulateDevice;
  if (!session.noDevice) {
    if (llvm::Error loadError = driver.load(opts.deviceOrdinal)) {
      std::string line = errorLine(std::move(loadError));
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitNoGPU, "NO-GPU");
    }
    const rt::DeviceInfo &info = driver.info();
    base.device = info.name + " (sm_" + std::to_string(info.computeCapabilityMajor) +
                  std::to_string(info.computeCapabilityMinor) + ", " +
                  std::to_string(info.smCount) + " SMs, " +
                  std::to_string(info.l2CacheBytes / (1024 * 1024)) + " MiB L2)";
    llvm::Expected<rt::CUstream> stream = rt::runtimeStream();
    if (!stream) {
      std::string line = "creating the stream: " + errorLine(stream.takeError());
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitDevice, "DEVICE-ERROR");
    }
    session.stream = *stream;
  }

  // JIT the host code once for every case.
  std::unique_ptr<ExecutionEngine> engine;
  session.symbol = "_mlir_ciface_" + base.entry;
  if (!opts.emulateDevice) {
    llvm::Expected<std::unique_ptr<ExecutionEngine>> created = createEngine(*compiled);
    if (!created) {
      std::string line =
          "JIT compilation of the host code failed: " + errorLine(created.takeError());
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitUsage, "COMPILE-ERROR");
    }
    engine = std::move(*created);
    session.engine = engine.get();
    if (opts.jitWithoutGPU) {
      llvm::outs() << "jit: initialized; runtime: " << errorLine(rt::takeError()) << "\n";
    } else if (llvm::Error err = rt::takeError()) {
      std::string line = "loading the kernels: " + errorLine(std::move(err));
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitDevice, "DEVICE-ERROR");
    }
  }

  // Every case in turn; the first failing case's exit code is the process's.
  session.casesRan = true;
  int exitCode = kExitPass;
  for (auto [index, signature] : llvm::enumerate(signatures)) {
    RunReport report = base;
    report.inputs = signature.inputs;
    report.outputs = signature.outputs;
    int caseExit = runCase(session, signature, report);
    if (exitCode == kExitPass)
      exitCode = caseExit;
    if (session.multiCase) {
      for (const std::string &line : report.errors)
        llvm::outs() << "error: " << line << "\n";
      printCaseLine(report, index, signatures.size(), llvm::outs());
      llvm::outs().flush();
    }
    session.reports.push_back(std::move(report));
  }
  return writeResults(session, exitCode);
}
