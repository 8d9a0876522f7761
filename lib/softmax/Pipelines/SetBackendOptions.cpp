//===- SetBackendOptions.cpp - LLVM back-end options of the kernels -------===//
//
// LLVM's NVPTX back end reads some of its choices only from process-wide command-line options
// (cl::opt), not from the target machine or the module: loop strength reduction is added by
// TargetPassConfig unless `-disable-lsr` is set. This pass sets such options for the
// gpu-module-to-binary that follows it.
//
//===----------------------------------------------------------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_SETBACKENDOPTIONSPASS
#include "softmax/Pipelines/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;

namespace {

/// Sets the registered option `name`, a cl::opt<bool> of LLVM's code generator, to `value`,
/// unless the process's command line gave it (an explicit choice wins; setting a value does not
/// count as an occurrence, so each compile sets it again) or the code generator is not linked.
void setUnlessGiven(StringRef name, bool value) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end() || it->second->getNumOccurrences() > 0)
    return;
  // `-disable-lsr` is `static cl::opt<bool> DisableLSR` in llvm/lib/CodeGen/TargetPassConfig.cpp.
  static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(value);
}

struct SetBackendOptionsPass
    : softmax::impl::SetBackendOptionsPassBase<SetBackendOptionsPass> {
  using Base::Base;

  void runOnOperation() override { softmax::applyBackendOptions(loopStrengthReduction); }
};

} // namespace

void mlir::softmax::applyBackendOptions(bool loopStrengthReduction) {
  setUnlessGiven("disable-lsr", !loopStrengthReduction);
}
