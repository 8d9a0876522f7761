//===- Compile.h - softmax-run's compilation of a program -------*- C++ -*-===//
//
// What softmax-run does with a parsed (and raised) program before running it: the plans and
// kernel names it reports (softmax-fuse, softmax-select-strategy, softmax-lower-to-gpu for the
// chip, on a clone), the compilation with buildSoftmaxToNVVMPipeline (the same builder as
// softmax-opt --softmax-to-nvvm), and the JIT of the host code over the project's mgpu* runtime.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_COMPILE_H
#define SOFTMAX_RUNNER_COMPILE_H

#include "softmax/Runner/RunnerOptions.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace softmax::runner {

/// What the planning passes chose for a program's entry.
struct ProgramPlan {
  std::vector<std::string> plans;   ///< per softmax.fused: "softmax <in> -> <out>: [strategies]"
  std::vector<std::string> kernels; ///< the entry's kernels, in the order of the gpu.module
};

/// softmax-fuse + softmax-select-strategy (the plans) and softmax-lower-to-gpu (the kernel
/// names) of `entry`, for the chip and budgets of `settings`, on a clone of `module`. Fails
/// (diagnostics emitted) where a pass does.
mlir::FailureOr<ProgramPlan> planProgram(mlir::ModuleOp module, llvm::StringRef entry,
                                         const PipelineSettings &settings);

/// Compiles `module` in place with buildSoftmaxToNVVMPipeline (options verified first by
/// verifyRunnerOptions).
mlir::LogicalResult compileProgram(mlir::ModuleOp module, const PipelineSettings &settings);

/// JIT-compiles the host code of a compiled module, the project's mgpu* functions registered
/// as its symbols before initialize() (whose module constructors load the kernels).
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>> createEngine(mlir::ModuleOp compiled);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_COMPILE_H
