//===- Passes.td - Passes of the softmax-to-nvvm pipeline --*- tablegen -*-===//

#ifndef SOFTMAX_PIPELINES_PASSES_TD
#define SOFTMAX_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckPTXPass : Pass<"softmax-check-ptx", "::mlir::ModuleOp"> {
  let summary = "Reject PTX with unresolved externs, and optionally write it to a file";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`. PTX that declares an `.extern .func` (for
    instance `__nv_expf` when libdevice was not linked) assembles but fails to load on the GPU;
    this pass turns it into a compile error naming the function. With `ptx-file`, the PTX of every
    `gpu.binary` is also written there (`-` for standard error), which is how a user gets the PTX
    of a program in one command.
  }];
  let options = [
    Option<"ptxFile", "ptx-file", "std::string", /*default=*/"\"\"",
           "Write the PTX of every gpu.binary to this file ('-': standard error)">
  ];
}

def SetBackendOptionsPass : Pass<"softmax-set-backend-options", "::mlir::ModuleOp"> {
  let summary = "Set the LLVM back-end options that the kernels are compiled with";
  let description = [{
    Runs before `gpu-module-to-binary`, which compiles the kernels with LLVM's NVPTX back end.
    LLVM's loop strength reduction (LSR) is one of its IR passes and has no per-module switch,
    only the process-wide `-disable-lsr` option: this pass sets that option to the opposite of
    `loop-strength-reduction`. On by default, as in LLVM: without it ptxas spilled 4-12 bytes
    in dynamic 16-bit tiers at the register budgets of 2026-12-02 (generated seed 197,
    test/Pipelines/ptxas-no-spills-dynamic.mlir), for little gain (1-9% of the back end's time
    on an idle machine at ddda4fa; the H200 ran the benchmarked kernels within 1% of their
    speed without it at 9521bf9 and 32f0d33; docs/compile-time.md).
    An explicit `-disable-lsr` on the command line of the process (softmax-opt's, or an
    embedder's) wins: the pass then leaves the option as it is. Because the option is global,
    other LLVM code generation in the same process sees the last value set (docs/api.md).
  }];
  let options = [
    Option<"loopStrengthReduction", "loop-strength-reduction", "bool", /*default=*/"true",
           "Run LLVM's loop strength reduction when compiling the kernels">
  ];
}

def SerializeKernelsPass : Pass<"softmax-serialize-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile every gpu.module to a gpu.binary, the modules in parallel";
  let description = [{
    What upstream's `gpu-module-to-binary` does to the `gpu.module` ops directly in the module
    (each one's targets serialized, through LLVM's NVPTX back end and, for `bin` and `fatbin`,
    ptxas, into a `gpu.binary` of the same name and offloading handler), but with the modules
    compiled in parallel on MLIR's thread pool: the pipeline puts each kernel in a module of its
    own (softmax-lower-to-gpu's `module-per-kernel`), so a program of many kernels, such as a
    dynamic width's dispatch tiers, compiles on every core. The binaries, and their order, are
    those of a sequential run; with threading disabled (`--mlir-disable-threading`) it is one.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "isa (PTX), bin (cubin, needs ptxas) or fatbin">
  ];
}

def KernelVectorToSCFPass : Pass<"softmax-kernel-vector-to-scf", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Run convert-vector-to-scf on the kernel modules that hold an op it converts";
  let description = [{
    Upstream's gpu-lower-to-nvvm-pipeline runs convert-vector-to-scf on every kernel. The
    kernels softmax-lower-to-gpu emits hold no vector transfer and no vector.print (their vector
    loads, stores and extracts go to LLVM directly), so on them the pass only walks the IR, a
    few milliseconds a kernel. This pass looks for those ops and runs the conversion only on a
    module that has one, such as a kernel outlined from a user's `gpu.launch`.
  }];
}

#endif // SOFTMAX_PIPELINES_PASSES_TD
