//===- Run.h - softmax-run's run of a program -------------------*- C++ -*-===//
//
// What softmax-run does after reading its command line, as a library function, so that the
// tool is a thin command line over it (tools/softmax-run) and a test or another driver can run
// a program with a RunnerOptions of its own.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_RUN_H
#define SOFTMAX_RUNNER_RUN_H

#include "softmax/Runner/RunnerOptions.h"

namespace softmax::runner {

/// Compiles the program options.inputFile names, runs every case on the GPU (or as the testing
/// aids say), checks each against the float64 reference, times it with --bench, prints the
/// report (stdout; errors and progress on stderr), writes the JSON, and returns the exit code
/// (Report.h's kExit*: 0 pass, 1 mismatch, 2 usage or compile error, 3 no GPU, 4 device error).
int runProgram(RunnerOptions options);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_RUN_H
