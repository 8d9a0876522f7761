//===- Report.h - What a softmax-run invocation found -----------*- C++ -*-===//
//
// One record of a run: the program, its shapes and plans, the comparison of each output, the
// timings, and the outcome. softmax-run prints it as a short human summary (the last lines of its
// output) and, with --json=FILE, writes it as one JSON object (docs/runner.md lists the keys).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_REPORT_H
#define SOFTMAX_RUNNER_REPORT_H

#include "softmax/Runner/Compare.h"
#include "softmax/Runner/Signature.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax::runner {

/// softmax-run's exit codes.
enum ExitCode {
  kExitPass = 0,     ///< checked (or not asked to) and everything matched
  kExitMismatch = 1, ///< a mismatch, an unwritten output element or touched padding
  kExitUsage = 2,    ///< bad command line, unreadable file, or the program does not compile
  kExitNoGPU = 3,    ///< no CUDA driver or device (the runtime's one-line explanation printed)
  kExitDevice = 4,   ///< a driver error while running (out of memory, launch failure, ...)
};

struct OutputReport {
  std::string name;
  OutputKind kind = OutputKind::Values;
  bool checked = false; ///< compared with the reference (else only poison/padding checked)
  CompareResult compare;
};

struct RunReport {
  std::string file, entry, device;
  std::vector<ArgSpec> inputs, outputs;
  std::vector<std::string> plans;   ///< the `strategies` of each softmax.fused op
  std::vector<std::string> kernels; ///< kernel names, in launch order of the host code
  std::vector<std::string> notes;   ///< special cases, L2 residency, ...
  std::vector<std::string> errors;  ///< one line each
  uint64_t seed = 0;
  int64_t rowStride = 0;
  std::vector<OutputReport> outputReports;

  bool benched = false;
  int reps = 0, warmup = 0;
  int64_t launchesPerCall = 0;
  double medianUs = -1, minUs = -1, maxUs = -1; ///< kernel device time per call
  double copyUs = -1;                           ///< the same bytes through cuMemcpyDtoDAsync
  double fractionOfCopy = -1;                   ///< copyUs / medianUs
  double gbps = -1;                             ///< idealBytes / medianUs
  int64_t idealBytes = 0; ///< one read of every input tensor + one write of every output
  bool fitsInL2 = false;

  int exitCode = kExitPass;
  std::string status = "PASS"; ///< PASS, FAIL, COMPILED, USAGE-ERROR, COMPILE-ERROR, NO-GPU, ...

  int64_t totalMismatches() const;
  int64_t totalUnwritten() const;
  int64_t totalPaddingTouched() const;
};

/// Writes `report` as one JSON object to `path` ("-": standard output).
bool writeJson(const RunReport &report, const std::string &path, std::string &error);

/// The human summary; its last line starts with the status ("PASS: ...", "FAIL: ...").
void printSummary(const RunReport &report, llvm::raw_ostream &os);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_REPORT_H
