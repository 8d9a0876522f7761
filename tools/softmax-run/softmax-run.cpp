//===- softmax-run.cpp - Compile, run and check a softmax program ---------===//
//
// softmax-run FILE.mlir [--entry=NAME] [--shape=AxB]... [--check|--no-check] [--bench] ...
//
// The command line of softmax::runner::runProgram (softmax/Runner/Run.h), which compiles the
// program (through the C++ API by default, --launcher), runs it on the GPU and checks it against
// the float64 reference of the unfused program. This file reads the options into a
// RunnerOptions and answers --probe, --print-fill-ptx and --version itself.
//
// docs/runner.md describes the options, tolerances, exit codes and timing.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runner/Progress.h"
#include "softmax/Runner/Report.h"
#include "softmax/Runner/Run.h"
#include "softmax/Runner/RunnerOptions.h"
#include "softmax/Runtime/CudaDriver.h"
#include "softmax/Runtime/DeviceFill.h"

#include "Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>

using namespace ::softmax::runner;
namespace rt = ::softmax::runtime;
namespace cl = llvm::cl;


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
static cl::opt<std::string> properties(
    "property",
    cl::desc("Properties checked besides the reference: shift (softmax(x + 96) = softmax(x), "
             "the inputs put on an exact grid), row-sum, monotone (or all)"),
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
static cl::opt<LauncherKind> launcher(
    "launcher", cl::desc("How the calls reach the GPU"),
    cl::values(clEnumValN(LauncherKind::API, "api",
                          "the C++ API: compile() and Executable::run() on the runner's stream, "
                          "as an embedder or the Python package calls it (default)"),
               clEnumValN(LauncherKind::HostCode, "host-code",
                          "the host code softmax-opt --softmax-to-nvvm emits, JIT-compiled over "
                          "the project's mgpu* runtime")),
    cl::init(LauncherKind::Default), cl::cat(runCategory));
static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("The C++ API's on-disk compile cache ('off': none; default: $SOFTMAX_CACHE_DIR, "
             "else $XDG_CACHE_HOME/softmax-compiler)"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<bool> emulateDevice(
    "emulate-device", cl::Hidden,
    cl::desc("Testing aid: no GPU; the 'device' outputs are the reference's own results, "
             "written at the row stride, so the check must pass"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<bool> emulateF32(
    "emulate-f32", cl::Hidden,
    cl::desc("Testing aid, with --emulate-device: the 'device' outputs are the program evaluated "
             "with every prologue step rounded to f32, as the kernels compute (not their fused "
             "multiply-adds), instead of the reference's own"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<bool> emulateNearTies(
    "emulate-near-ties", cl::Hidden,
    cl::desc("Testing aid, with --emulate-device: the 'device' outputs are the program evaluated "
             "with every f16/bf16 rounding of a value within 2^-21 of a tie rounded to the other "
             "neighbour, instead of the reference's own"),
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
  options.propertyList = properties;
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
  options.emulateF32 = emulateF32;
  options.emulateNearTies = emulateNearTies;
  options.launcher = launcher;
  options.pipeline.cacheDir = cacheDir;
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

  return runProgram(readCommandLine());
}
