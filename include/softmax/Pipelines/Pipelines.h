//===- Pipelines.h - The softmax-to-nvvm pipeline ---------------*- C++ -*-===//
//
// One builder function serves softmax-opt (--softmax-to-nvvm), the runner, the tests and C++
// embedders (SoftmaxCompiler::Pipelines, docs/embedding.md), so that all of them compile exactly
// the same way. The C++ API (softmax/API/Compile.h) runs the first half, then each kernel's
// pipeline when a call first launches it.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_PIPELINES_PIPELINES_H
#define SOFTMAX_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace softmax {

#define GEN_PASS_DECL
#include "softmax/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "softmax/Pipelines/Passes.h.inc"

struct SoftmaxToNVVMOptions : public PassPipelineOptions<SoftmaxToNVVMOptions> {
  PassOptions::Option<std::string> chip{*this, "chip", llvm::cl::desc("GPU architecture"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features (the PTX ISA version)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("LLVM optimisation level of the kernels"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary format: isa (PTX, JIT-compiled by the driver), bin "
                     "(cubin, needs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int64_t> registersPerThread{
      *this, "registers-per-thread",
      llvm::cl::desc("Register budget of a thread for strategy selection (0: the chip's)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> maxRegisters{
      *this, "max-registers",
      llvm::cl::desc("Cap on every kernel's register budget (nvvm.maxnreg; 0: each plan's own)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Largest block for strategy selection (0: the chip's)"), llvm::cl::init(0)};
  PassOptions::Option<bool> loopStrengthReduction{
      *this, "loop-strength-reduction",
      llvm::cl::desc("Run LLVM's loop strength reduction on the kernels (off: a little less "
                     "compile time, but more registers; softmax-set-backend-options)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> ptxFile{
      *this, "ptx-file",
      llvm::cl::desc("Also write the kernels' PTX to this file ('-': standard error; format=isa)"),
      llvm::cl::init("")};
};

/// Checks the options that the passes of the pipeline would otherwise take on trust or report
/// without failing (upstream's gpu-module-to-binary prints an unknown format and carries on):
/// a known chip, format isa/bin/fatbin, opt-level 0-3, features of the form +f,-g, and
/// ptx-file only with format=isa. The --softmax-to-nvvm registration calls it; so should
/// any other caller of buildSoftmaxToNVVMPipeline with options from a user.
llvm::Error verifySoftmaxToNVVMOptions(const SoftmaxToNVVMOptions &options);

/// softmax-fuse, softmax-select-strategy, softmax-lower-to-gpu, then upstream GPU -> NVVM ->
/// binary and host -> LLVM, then softmax-check-ptx. Expects options that
/// verifySoftmaxToNVVMOptions accepts. It is the two halves below, run back to back.
void buildSoftmaxToNVVMPipeline(OpPassManager &pm, const SoftmaxToNVVMOptions &options);

/// The first half: softmax-fuse, softmax-select-strategy, softmax-lower-to-gpu (one gpu.module
/// a kernel), gpu-kernel-outlining, nvvm-attach-target and the host functions' clean-up. Its
/// output is host functions of gpu.launch_func ops and a gpu.module for each kernel, the last
/// point where the launches are still ops (the C++ API reads its launch rules there).
void buildSoftmaxToGPUPipeline(OpPassManager &pm, const SoftmaxToNVVMOptions &options);

/// One kernel module's way to the NVVM and LLVM dialects: `pm` runs on a gpu.module (nest it
/// under a module, or run it on a module of its own): the kernel's clean-up that the first half
/// leaves to it, the rewrites of upstream's gpu-lower-to-nvvm-pipeline, then one conversion
/// (convert-gpu-to-nvvm, which applies every loaded dialect's to-LLVM patterns) where upstream
/// runs one a dialect. serializeKernelModule compiles the result.
void buildKernelToNVVMPipeline(OpPassManager &pm);

/// Compiles `module` (after buildKernelToNVVMPipeline, with its #nvvm.target) with LLVM's NVPTX
/// back end to `format`: isa (PTX), bin (cubin, through ptxas) or fatbin. The object's bytes, or
/// failure after a diagnostic on the module. What softmax-serialize-kernels does to each module.
FailureOr<SmallVector<char, 0>> serializeKernelModule(Operation *module, StringRef format);

/// Sets LLVM's process-wide back-end options that have no per-module switch, as
/// softmax-set-backend-options does before the kernels are compiled: `-disable-lsr` to the
/// opposite of `loopStrengthReduction`, unless the process's command line gave it.
void applyBackendOptions(bool loopStrengthReduction);

/// The second half: softmax-set-backend-options, each kernel module through
/// buildKernelToNVVMPipeline and softmax-serialize-kernels (in parallel over the modules), the
/// host to the LLVM dialect as upstream's pipeline lowers it, then softmax-check-ptx.
void buildGPUToNVVMBinaryPipeline(OpPassManager &pm, const SoftmaxToNVVMOptions &options);

/// Registers --softmax-to-nvvm and the pipeline's own passes.
void registerSoftmaxPipelines();

} // namespace softmax
} // namespace mlir

#endif // SOFTMAX_PIPELINES_PIPELINES_H
