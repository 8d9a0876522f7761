//===- Cases.h - The cases of one softmax-run invocation --------*- C++ -*-===//
//
// A run compiles once and runs one or more cases: the --shape list, one --case each, or the
// shapes of the --input files. These functions turn the settings into the resolved signature of
// every case and check, before anything is compiled, that each case can be laid out (row stride)
// and held in host memory. Errors are one line, as softmax-run prints them (usage errors).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_CASES_H
#define SOFTMAX_RUNNER_CASES_H

#include "softmax/Runner/RunnerOptions.h"
#include "softmax/Runner/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace softmax::runner {

/// The signature of every case of `entry`: one per --case, else the --shape list, else the
/// shapes `fileShapes` that --input files give.
llvm::Expected<std::vector<Signature>> resolveCases(const RunnerOptions &options,
                                                    mlir::func::FuncOp entry,
                                                    const std::vector<std::string> &fileShapes);

/// "--case=16384x4096,16384: " before an error about one case (nothing without --case).
std::string getCasePrefix(const RunnerOptions &options, const Signature &signature);

/// The first float tensor argument (-1 when there is none): the one --row-stride applies to.
int findFirstFloat(const std::vector<ArgSpec> &inputs);

/// --row-stride against a case: a float tensor argument to apply it to, no narrower than any
/// strided row, and every strided tensor's bytes within 64 bits.
llvm::Error checkRowStride(const RunnerOptions &options, const Signature &signature);

/// Refuses a case whose host-side buffers (with `hostInputs`: the inputs in float64 and their
/// images; with `reference`: the reference's results; always the output images) exceed the
/// machine's physical memory: it would otherwise die in an allocation minutes later.
llvm::Error checkHostMemory(const RunnerOptions &options, const Signature &signature,
                            bool hostInputs, bool reference);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_CASES_H
