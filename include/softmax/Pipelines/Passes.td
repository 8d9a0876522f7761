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

#endif // SOFTMAX_PIPELINES_PASSES_TD
