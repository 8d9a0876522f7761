//===- Run.cpp - softmax-run's run of a program: compile, run, check, time ===//
//
//  1. parses the file once, raises linalg softmax forms into the dialect (softmax-raise, a no-op
//     on dialect programs) and keeps an untouched clone for the float64 reference;
//  2. runs softmax-fuse + softmax-select-strategy (+ softmax-lower-to-gpu) on a second clone to
//     report the plans and kernel names, and compiles the program: through the C++ API's
//     compile() (--launcher=api), or with buildSoftmaxToNVVMPipeline for the host code
//     (--launcher=host-code; Launcher.h);
//  3. loads the CUDA driver (exit 3 with the runtime's one-line reason when there is none) and
//     the kernels;
//  4. poisons every output before every run, then checks that every element was written and
//     compares with the reference evaluated on the unfused program; with --bench, times the
//     calls with device events and a device-to-device copy of the same bytes.
//
// With --case (repeatable), steps 1-3 happen once and step 4 runs for every case in turn
// (allocate, generate inputs, run, check, time, free), each case with its own report. With
// --no-check --bench the inputs are generated on the device by seeded fill kernels
// (softmax/Runtime/DeviceFill.h) instead of on the host.
//
// docs/runner.md describes the options, tolerances, exit codes and timing.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runner/Run.h"

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
#include "softmax/Runner/Launcher.h"
#include "softmax/Runner/Progress.h"
#include "softmax/Runner/Properties.h"
#include "softmax/Runner/Report.h"
#include "softmax/Runner/Signature.h"
#include "softmax/Runner/Storage.h"
#include "softmax/Runtime/CudaDriver.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <set>
#include <sys/file.h>
#include <unistd.h>

using namespace mlir;

namespace softmax::runner {

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
  std::unique_ptr<Launcher> launcher; ///< null with --emulate-device
  std::string symbol;                 ///< what the launcher calls, for the reports
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
  if (llvm::Error err = session.launcher->call(buffers, session.stream))
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
  Launcher &launcher = *session.launcher;
  if (llvm::Error err = launcher.setTiming(true))
    return withContext("creating the timing events", std::move(err));
  // Off again on every way out (an error stops the loop early).
  llvm::scope_exit timingOff([&] { llvm::consumeError(launcher.setTiming(false)); });
  std::vector<double> callUs;
  for (int i = 0; i < opts.warmup + opts.reps; ++i) {
    if (llvm::Error err = runOnce(session, buffers))
      return withContext("running " + session.symbol + " (bench)", std::move(err));
    llvm::Expected<float> ms = launcher.takeCallTime();
    if (!ms)
      return withContext("reading the call's time", ms.takeError());
    if (i < opts.warmup)
      continue;
    callUs.push_back(*ms * 1000.0);
    report.launchesPerCall = launcher.getLaunchesPerCall();
  }
  if (llvm::Error err = launcher.setTiming(false))
    return err;
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

/// --property, before the inputs are uploaded: records the properties that do not apply (and
/// why), puts the inputs on the shift's grid and makes their shifted twin, and keeps the logits
/// the monotone property compares with (Properties.h).
void prepareProperties(const Session &session, const Signature &signature,
                       const PropertyAnalysis &analysis, std::vector<std::vector<double>> &values,
                       RunReport &report, std::vector<std::vector<double>> &shiftedValues,
                       std::vector<std::string> &monotoneBlockers,
                       std::vector<double> &logitsForMonotone) {
  const PropertySet &properties = session.options.properties;
  size_t numOutputs = analysis.outputs.size();
  if (values.size() != signature.inputs.size()) {
    // No host inputs (a run that calls the host code without a GPU): nothing to compare.
    for (const std::string &name : properties.names())
      report.properties.push_back({name, "", false, "no inputs on the host"});
    monotoneBlockers.assign(numOutputs, "no inputs on the host");
    return;
  }
  if (properties.shift) {
    std::string why = analysis.shiftBlocker;
    if (why.empty() && !session.files.empty())
      why = "inputs from --input files (the shift puts the inputs on its grid)";
    for (const OutputChain &chain : analysis.outputs)
      if (why.empty())
        why = checkFactors(chain, values, /*forShift=*/true);
    if (!why.empty()) {
      report.properties.push_back({"shift", "", false, why});
    } else {
      double magnitude = 0;
      for (const OutputChain &chain : analysis.outputs)
        magnitude = std::max(magnitude, getShiftMagnitude(chain, values));
      // The logits and the biases (the tensors the shifted values pass through).
      std::set<int> onGrid;
      for (const OutputChain &chain : analysis.outputs) {
        onGrid.insert(chain.logits);
        onGrid.insert(chain.biasArguments.begin(), chain.biasArguments.end());
      }
      for (int i : onGrid)
        putOnShiftGrid(values[i], analysis.gridBits, magnitude);
      shiftedValues = values;
      int logits = analysis.outputs.front().logits;
      for (double &value : shiftedValues[logits])
        value += kShift;
      report.notes.push_back(llvm::formatv("property shift: the logits and biases clamped to "
                                           "[-{0}, {0}] on a grid exact to {1} with {2} bits; "
                                           "the second run adds {3} to {4}",
                                           kShiftInputBound, magnitude, analysis.gridBits, kShift,
                                           signature.inputs[logits].name)
                                 .str());
    }
  }
  if (properties.monotone) {
    int logits = -1;
    monotoneBlockers.assign(numOutputs, "");
    for (size_t o = 0; o < numOutputs; ++o) {
      const OutputChain &chain = analysis.outputs[o];
      std::string &why = monotoneBlockers[o];
      why = chain.monotoneBlocker;
      if (why.empty())
        why = checkFactors(chain, values, /*forShift=*/false);
      if (why.empty() && (chain.logits < 0 || !signature.inputs[chain.logits].isTensor ||
                          signature.inputs[chain.logits].shape != signature.outputs[o].shape))
        why = "the logits are not a tensor argument of the result's shape";
      if (why.empty() && logits >= 0 && chain.logits != logits)
        why = "another result's logits were kept (one logits argument is compared)";
      if (why.empty() && logits < 0) {
        logits = chain.logits;
        logitsForMonotone = values[logits];
      }
    }
  }
}

/// How the reference evaluates a program: the float64 reference itself, or one of its
/// admissible alternatives (docs/reference.md).
enum class Evaluation { Float64, F32Intermediates, NearTiesFlipped, LogitScale };
using EvaluateFn =
    llvm::function_ref<bool(std::vector<std::vector<double>>, Evaluation,
                            std::vector<mlir::softmax::reference::HostValue> &)>;

/// The admissible results besides the float64 reference, for a program with prologue steps: the
/// program evaluated with f32 intermediates, and with the near ties of its 16-bit roundings
/// rounded the other way; and the magnitudes of its logits (EvaluateOptions::logitScale), which
/// widen the tolerance by their f32 conditioning. Evaluated when an element first misses the
/// reference, at most once.
struct Alternatives {
  /// The inputs, kept for the evaluations (empty when the program has no prologue step, and
  /// once they have run).
  std::vector<std::vector<double>> inputs;
  std::vector<mlir::softmax::reference::HostValue> f32, nearTiesFlipped, logitScale;

  /// Evaluates those not yet evaluated; false when the reference fails.
  bool evaluate(EvaluateFn evaluateReference) {
    if (inputs.empty())
      return true;
    if (f32.empty() && !evaluateReference(inputs, Evaluation::F32Intermediates, f32))
      return false;
    if (nearTiesFlipped.empty() &&
        !evaluateReference(inputs, Evaluation::NearTiesFlipped, nearTiesFlipped))
      return false;
    bool ok = !logitScale.empty() ||
              evaluateReference(std::move(inputs), Evaluation::LogitScale, logitScale);
    inputs.clear();
    return ok;
  }
  /// Output `o`'s logit magnitudes, or null before they are evaluated.
  const double *logitScaleOf(size_t o) const {
    return logitScale.empty() ? nullptr : logitScale[o].tensor.data.data();
  }
  /// Output `o` of each alternative evaluated so far.
  llvm::SmallVector<const double *, 2> of(size_t o) const {
    llvm::SmallVector<const double *, 2> data;
    for (const auto *results : {&f32, &nearTiesFlipped})
      if (!results->empty())
        data.push_back((*results)[o].tensor.data.data());
    return data;
  }
};

/// --property, after the reference check: row-sum and monotone on the check run's outputs,
/// then the shift's second run, compared with the reference of the unshifted inputs.
llvm::Error checkProperties(
    Session &session, const Signature &signature, CaseBuffers &buffers,
    const std::vector<std::vector<uint8_t>> &outputImages,
    const std::vector<mlir::softmax::reference::HostValue> &referenceResults,
    Alternatives &alternatives, const PropertyAnalysis &analysis,
    const std::vector<std::vector<double>> &shiftedValues,
    const std::vector<std::string> &monotoneBlockers, const std::vector<double> &logitsForMonotone,
    EvaluateFn evaluateReference, RunReport &report) {
  const RunnerOptions &opts = session.options;
  auto describeRow = [](int64_t row, double sum) {
    return llvm::formatv("row {0} sums to {1:g9}", row, sum).str();
  };
  for (size_t o = 0; o < outputImages.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    const OutputChain &chain = analysis.outputs[o];
    int64_t width = tensor.width;
    int64_t rows = width > 0 ? tensor.spec.getNumElements() / width : 0;
    size_t bytes = tensor.elementBytes();
    std::vector<double> row(width);
    auto decodeRow = [&](int64_t r) {
      decodeElements(tensor.spec.element, outputImages[o].data() + r * tensor.stride * bytes,
                     width, row.data());
    };
    if (opts.properties.rowSum) {
      PropertyReport property{"row-sum", tensor.spec.name};
      bool logarithms = signature.outputKinds[o] == OutputKind::LogProbabilities;
      property.reason = chain.rowSumBlocker;
      if (property.reason.empty() && signature.outputKinds[o] == OutputKind::Values)
        property.reason = "not probabilities";
      property.applied = property.reason.empty();
      if (property.applied) {
        property.bound = rowSumBound(tensor.spec.element, width, logarithms);
        // `scale`: the logits' magnitudes, for rows past the bound (Alternatives).
        auto measure = [&](const double *scale) {
          property.measured = 0;
          property.violations = property.withinLogitConditioning = 0;
          property.first.clear();
          for (int64_t r = 0; r < rows; ++r) {
            decodeRow(r);
            // Log-probabilities: log_softmax = log(softmax), so their exponentials sum to 1.
            double sum = 0;
            for (double value : row)
              sum += logarithms ? std::exp(value) : value;
            // A fully masked row holds zeros (or NaN, by its policy): not a distribution. Any
            // other row holds at least 1 / width at its maximum.
            if (std::isnan(sum) || sum == 0)
              continue;
            double error = std::fabs(sum - 1);
            property.measured = std::max(property.measured, error);
            if (error <= property.bound)
              continue;
            if (scale && error <= property.bound + rowSumConditioning(row.data(),
                                                                      scale + r * width, width,
                                                                      logarithms))
              ++property.withinLogitConditioning;
            else if (property.violations++ == 0)
              property.first = describeRow(r, sum);
          }
        };
        measure(nullptr);
        if (property.violations && alternatives.evaluate(evaluateReference) &&
            alternatives.logitScaleOf(o))
          measure(alternatives.logitScaleOf(o));
      }
      report.properties.push_back(std::move(property));
    }
    if (opts.properties.monotone) {
      PropertyReport property{"monotone", tensor.spec.name};
      property.reason = monotoneBlockers[o];
      property.applied = property.reason.empty();
      bool logarithms = signature.outputKinds[o] == OutputKind::LogProbabilities;
      // `scale`: the logits' magnitudes, for pairs past the ulps' allowance (Alternatives).
      auto count = [&](const double *scale) {
        int64_t violations = 0;
        for (int64_t r = 0; r < rows; ++r) {
          decodeRow(r);
          std::string first;
          int64_t found = countMonotoneViolations(
              logitsForMonotone.data() + r * width, row.data(), 1, width, tensor.spec.element,
              first, scale ? scale + r * width : nullptr, logarithms);
          if (found && violations == 0)
            property.first = "row " + std::to_string(r) + first.substr(first.find(':'));
          violations += found;
        }
        return violations;
      };
      if (property.applied) {
        property.violations = count(nullptr);
        if (property.violations && alternatives.evaluate(evaluateReference) &&
            alternatives.logitScaleOf(o)) {
          int64_t conditioned = count(alternatives.logitScaleOf(o));
          property.withinLogitConditioning = property.violations - conditioned;
          property.violations = conditioned;
          if (!conditioned)
            property.first.clear();
        }
      }
      report.properties.push_back(std::move(property));
    }
  }
  if (!opts.properties.shift || shiftedValues.empty())
    return llvm::Error::success();

  // The second run, on x + kShift.
  std::vector<std::vector<uint8_t>> shiftedImages(outputImages.size());
  if (opts.emulateDevice) {
    std::vector<mlir::softmax::reference::HostValue> shiftedResults;
    if (!evaluateReference(shiftedValues, Evaluation::Float64, shiftedResults))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the reference cannot evaluate the shifted inputs");
    emulateOutputs(buffers, shiftedResults, shiftedImages);
  } else {
    if (llvm::Error err = uploadInputs(signature, shiftedValues, buffers))
      return err;
    if (llvm::Error err = checkRun(session, buffers, shiftedImages, report))
      return err;
  }
  for (size_t o = 0; o < shiftedImages.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    auto compare = [&] {
      return compareOutput(tensor.spec.element, tensor.spec.shape, shiftedImages[o].data(),
                           tensor.stride, referenceResults[o].tensor.data.data(),
                           signature.outputKinds[o], opts.maxReported,
                           signature.outputsOverLastAxis[o],
                           signature.outputAxes[o], alternatives.of(o),
                           alternatives.logitScaleOf(o));
    };
    CompareResult result = compare();
    if (!result.passed() && !alternatives.inputs.empty() &&
        alternatives.evaluate(evaluateReference))
      result = compare();
    PropertyReport property{"shift", tensor.spec.name, true};
    property.violations = result.mismatches + result.unwritten;
    if (!result.first.empty())
      property.first = "x + " + llvm::formatv("{0}", kShift).str() + ": " + tensor.spec.name +
                       describeMismatch(result.first.front()) + " (want: the unshifted reference)";
    report.properties.push_back(std::move(property));
  }
  return llvm::Error::success();
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
                        opts.maxReported, signature.outputsOverLastAxis[o],
                           signature.outputAxes[o]);
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

  // --property: which properties apply, and for the shift the inputs on its grid and their
  // shifted twin (Properties.h).
  auto referenceFn = session.referenceModule.lookupSymbol<func::FuncOp>(report.entry);
  PropertyAnalysis analysis;
  std::vector<std::vector<double>> shiftedValues;
  std::vector<std::string> monotoneBlockers;
  std::vector<double> logitsForMonotone;
  if (opts.properties.any()) {
    analysis = analyzeProperties(referenceFn, signature);
    prepareProperties(session, signature, analysis, values, report, shiftedValues,
                      monotoneBlockers, logitsForMonotone);
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
  if (session.launcher) {
    if (llvm::Error err = session.launcher->prepare(signature, buffers)) {
      std::string line = "the arguments of " + session.symbol + ": " + errorLine(std::move(err));
      llvm::errs() << "softmax-run: " << line << "\n";
      report.errors.push_back(line);
      return endCase(report, kExitUsage, "USAGE-ERROR");
    }
    if (llvm::Error err = session.launcher->compileCall()) {
      std::string line = errorLine(std::move(err));
      llvm::errs() << "softmax-run: " << line << "\n";
      report.errors.push_back(line);
      return endCase(report, kExitUsage, "COMPILE-ERROR");
    }
    if (!session.noDevice)
      if (llvm::Error err = session.launcher->loadCall())
        return caseDeviceError(report, "loading the kernels", std::move(err));
  }
  for (const DeviceTensor &tensor : buffers.tensors)
    report.idealBytes += tensor.spec.getNumElements() * tensor.elementBytes();
  report.fitsInL2 = report.idealBytes < driver.info().l2CacheBytes;

  if (opts.jitWithoutGPU) {
    // The host code runs to its end; the first mgpu* call records the missing driver.
    if (llvm::Error err = callHostCodeWithoutGPU(*session.launcher, buffers)) {
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

  // The float64 reference of the unfused program, rounded to the result types; for a program
  // with prologue steps the inputs are kept for the admissible alternatives (the program
  // evaluated with f32 intermediates, as the kernels compute, and with near ties of its 16-bit
  // roundings rounded the other way; docs/reference.md), evaluated only if an element misses
  // the reference (at most once: they take the kept inputs).
  using mlir::softmax::reference::HostValue;
  std::vector<HostValue> referenceResults;
  Alternatives alternatives;
  bool doCheck = session.doCheck || opts.emulateDevice;
  bool hasPrologue = false;
  referenceFn.walk([&](Operation *op) {
    if (isa<mlir::softmax::ScaleOp, mlir::softmax::AddBiasOp, mlir::softmax::MaskOp>(op))
      hasPrologue = true;
    if (auto fused = dyn_cast<mlir::softmax::FusedOp>(op))
      hasPrologue |= !fused.getPrologue().empty();
  });
  auto evaluateReference = [&](std::vector<std::vector<double>> inputs, Evaluation evaluation,
                               std::vector<HostValue> &out) -> bool {
    using namespace mlir::softmax::reference;
    std::vector<HostValue> args;
    for (auto [i, spec] : llvm::enumerate(signature.inputs))
      args.push_back(spec.isTensor
                         ? HostValue::ofTensor(HostTensor(spec.shape, std::move(inputs[i])))
                         : HostValue::ofScalar(inputs[i][0]));
    std::string referenceError;
    EvaluateOptions options;
    options.f32Intermediates = evaluation == Evaluation::F32Intermediates;
    options.flipNearTies = evaluation == Evaluation::NearTiesFlipped;
    options.logitScale = evaluation == Evaluation::LogitScale;
    FailureOr<std::vector<HostValue>> results =
        evaluateConsuming(referenceFn, std::move(args), referenceError, options);
    if (failed(results)) {
      report.errors.push_back("the reference cannot evaluate the program: " + referenceError);
      return false;
    }
    if (!options.logitScale) // magnitudes, not values of the result types
      roundResultsToStorage(referenceFn, *results);
    out = std::move(*results);
    return true;
  };
  if (doCheck) {
    Phase phase("evaluating the float64 reference");
    if (hasPrologue)
      alternatives.inputs = values;
    if (!evaluateReference(std::move(values), Evaluation::Float64, referenceResults))
      return endCase(report, kExitUsage, "REFERENCE-ERROR");
  }
  values.clear();
  if (opts.emulateDevice && (opts.emulateF32 || opts.emulateNearTies) && hasPrologue) {
    auto &emulated = opts.emulateF32 ? alternatives.f32 : alternatives.nearTiesFlipped;
    if (!evaluateReference(alternatives.inputs,
                           opts.emulateF32 ? Evaluation::F32Intermediates
                                           : Evaluation::NearTiesFlipped,
                           emulated))
      return endCase(report, kExitUsage, "REFERENCE-ERROR");
    emulateOutputs(buffers, emulated, outputImages);
  } else if (opts.emulateDevice) {
    emulateOutputs(buffers, referenceResults, outputImages);
  }

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
                                   signature.outputsOverLastAxis[o],
                           signature.outputAxes[o]);
    if (output.compare.mismatches > 0 && hasPrologue && doCheck) {
      if (!alternatives.evaluate(evaluateReference))
        return endCase(report, kExitUsage, "REFERENCE-ERROR");
      output.compare = compareOutput(tensor.spec.element, tensor.spec.shape,
                                     outputImages[o].data(), tensor.stride, reference, output.kind,
                                     opts.maxReported, signature.outputsOverLastAxis[o],
                                     signature.outputAxes[o], alternatives.of(o),
                                     alternatives.logitScaleOf(o));
    }
    for (const Mismatch &mismatch : output.compare.first)
      llvm::outs() << "mismatch: " << output.name << describeMismatch(mismatch) << "\n";
    report.outputReports.push_back(std::move(output));
  }
  comparing.finish();
  if (opts.properties.any()) {
    Phase phase("checking the properties");
    if (llvm::Error err = checkProperties(session, signature, buffers, outputImages,
                                          referenceResults, alternatives, analysis,
                                          shiftedValues, monotoneBlockers, logitsForMonotone,
                                          evaluateReference, report))
      return caseDeviceError(report, "property run", std::move(err));
  }
  referenceResults.clear();
  alternatives = Alternatives();
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
                     report.totalPaddingTouched() || report.totalPropertyViolations() ||
                     !report.errors.empty();
  return endCase(report, failedCheck ? kExitMismatch : kExitPass, failedCheck ? "FAIL" : "PASS");
}

//===----------------------------------------------------------------------===//
// Cases from the command line
//===----------------------------------------------------------------------===//

} // namespace

int runProgram(RunnerOptions options) {
  Session session;
  session.options = std::move(options);
  const RunnerOptions &opts = session.options;
  rt::CudaDriver &driver = rt::CudaDriver::get();
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
  base.launcher = opts.launcher == LauncherKind::API ? "api" : "host-code";

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
  // Compile: through the C++ API, or the whole pipeline for the host code.
  bool useAPI = opts.launcher == LauncherKind::API;
  OwningOpRef<ModuleOp> compiled;
  if (useAPI) {
    llvm::Expected<std::unique_ptr<Launcher>> launcher =
        createAPILauncher(*module, base.entry, opts.pipeline);
    if (!launcher) {
      // The API returns the diagnostics rather than printing them.
      llvm::errs() << llvm::toString(launcher.takeError()) << "\n";
      base.errors.push_back("the C++ API's compile() failed (diagnostics above)");
      return finish(session, kExitUsage, "COMPILE-ERROR");
    }
    session.launcher = std::move(*launcher);
    // A run that launches nothing compiles every kernel, so that it still proves they compile.
    if (opts.compileOnly || opts.emulateDevice)
      if (llvm::Error err = session.launcher->compileAll()) {
        llvm::errs() << llvm::toString(std::move(err)) << "\n";
        base.errors.push_back("a kernel did not compile (diagnostics above)");
        return finish(session, kExitUsage, "COMPILE-ERROR");
      }
  } else {
    compiled = module->clone();
    if (failed(compileProgram(*compiled, opts.pipeline))) {
      base.errors.push_back("the softmax-to-nvvm pipeline failed (diagnostics above)");
      return finish(session, kExitUsage, "COMPILE-ERROR");
    }
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

  // Load the kernels once for every case (the host code: JIT-compile it; its module
  // constructors load them).
  if (!useAPI && !opts.emulateDevice) {
    llvm::Expected<std::unique_ptr<Launcher>> created =
        createHostCodeLauncher(*compiled, base.entry);
    if (!created) {
      std::string line =
          "JIT compilation of the host code failed: " + errorLine(created.takeError());
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitUsage, "COMPILE-ERROR");
    }
    session.launcher = std::move(*created);
    if (opts.jitWithoutGPU)
      llvm::outs() << "jit: initialized; runtime: " << errorLine(rt::takeError()) << "\n";
  }
  if (session.launcher && !session.noDevice)
    if (llvm::Error err = session.launcher->load()) {
      std::string line = "loading the kernels: " + errorLine(std::move(err));
      llvm::errs() << "softmax-run: " << line << "\n";
      base.errors.push_back(line);
      return finish(session, kExitDevice, "DEVICE-ERROR");
    }
  if (session.launcher)
    session.symbol = session.launcher->getSymbol().str();
  else
    session.symbol = "@" + base.entry;
  if (opts.emulateDevice)
    session.launcher.reset(); // nothing is called

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

} // namespace softmax::runner
