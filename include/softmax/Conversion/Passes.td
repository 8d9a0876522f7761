//===- Passes.td - Conversions out of the softmax dialect --*- tablegen -*-===//

#ifndef SOFTMAX_CONVERSION_PASSES_TD
#define SOFTMAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToGPUPass : Pass<"softmax-lower-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower softmax.fused ops to GPU kernels and host code that launches them";
  let description = [{
    Every function holding `softmax.fused` ops (run `softmax-fuse` and
    `softmax-select-strategy` first) becomes a host function on memrefs in destination-passing
    style: its tensor arguments become `memref<... , strided<[?, ..., ?, 1], offset: ?>>`
    arguments (any row stride; the leading dimensions must be contiguous with each other), its
    tensor results become trailing output memrefs of the same form, and it returns nothing. It
    gets `llvm.emit_c_interface`, so an embedder calls `_mlir_ciface_<name>`.

    Each fused op becomes one kernel per entry of its `strategies` in the `gpu.module
    @softmax_kernels`, launched with `gpu.launch_func`; with several entries the host code runs
    the first whose span covers the row width. Intermediate tensors live in `gpu.alloc` buffers.
    The kernels use 16-byte vector accesses where the rows are aligned (checked at run time),
    exact scalar paths for tails and unaligned strides, f32 arithmetic, warp shuffles and shared
    memory for the reductions, and do not read the lanes that a padding or causal mask removes.
    A softmax over a non-last axis (plan `strided_axis`) runs without a transpose: the tensor is
    viewed as [outer, C, inner], consecutive threads take consecutive inner elements and the C
    values of a column are reduced by one or more threads of a block; its prologue may scale and
    round (a mask or bias there is rejected with a diagnostic).

    Kernel names are `<function>_<n>_<plan>`, made PTX identifiers (characters other than
    letters, digits and `_` become `_`) and unique among the kernels, as is the module's name
    (`softmax_kernels` unless a symbol already has it). With `module-per-kernel` (the
    softmax-to-nvvm pipeline's choice), each kernel is then moved into a `gpu.module` of its own,
    named after the kernel (unique among the module's symbols), and the launches follow it: a
    module is what the NVPTX back end compiles and the driver loads, so the pipeline compiles the
    kernels in parallel and the C++ API compiles only those a call launches (docs/api.md). The
    pass fails, naming the op, on what it
    does not lower: softmax ops outside a `func.func` of the top-level module (in a nested module
    or a `gpu.func`), functions on tensors without softmax ops, a function whose C interface
    `_mlir_ciface_<name>` is already a symbol, and plans that exceed the limits of `chip` (a
    `row_shared` row larger than the chip's shared memory).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "GPU architecture whose limits the plans must fit (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"maxRegisters", "max-registers", "int64_t", /*default=*/"0",
           "Cap on every kernel's register budget (nvvm.maxnreg), 24 to 255; 0: each plan's "
           "own. For occupancy experiments: below what a kernel needs, ptxas spills">,
    Option<"modulePerKernel", "module-per-kernel", "bool", /*default=*/"false",
           "Put each kernel in a gpu.module of its own, named after the kernel">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // SOFTMAX_CONVERSION_PASSES_TD
