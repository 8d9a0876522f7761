//===- Passes.td - Passes over the softmax dialect ---------*- tablegen -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_TD
#define SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusePass : Pass<"softmax-fuse", "::mlir::func::FuncOp"> {
  let summary = "Fuse prologue* -> softmax -> cast? chains into softmax.fused";
  let description = [{
    For each `softmax.softmax` / `softmax.log_softmax`, walks up through `scale`, `add_bias`,
    `mask` and `cast` ops and down to one `cast`, and replaces the chain by one `softmax.fused`
    op whose prologue lists the steps in order. An op joins the chain only when its result has no
    other user (fusing it would compute it twice) and, for a mask, when its axis is the softmax's
    (otherwise it means something else). Element-wise chains left over afterwards become
    `softmax.fused` ops with `normalization = none`, so that every softmax-dialect op reaches the
    GPU lowering in one form. A function result that is an argument, or a value returned twice,
    gets a step-less `none` op (a copy), so that every result has its own output buffer.
    A negation (a scale by exactly -1) moves after the roundings that follow it in a prologue:
    `round(-x) = -round(x)` exactly, and the kernels then negate f32 values rather than 16-bit
    ones (LLVM's `neg.bf16` of a rounded value made ptxas spill).
  }];
  let dependentDialects = ["::mlir::softmax::SoftmaxDialect"];
}

def RaisePass : Pass<"softmax-raise", "::mlir::func::FuncOp"> {
  let summary = "Raise linalg softmax forms and their neighbours into the softmax dialect";
  let description = [{
    The front door for what torch-mlir, IREE and upstream MLIR hand over. Rewrites

    - `linalg.softmax` on ranked tensors, any dimension, into `softmax.softmax` with that axis;
    - a softmax decomposed into linalg ops on tensors (a max reduction, `exp(x - max)`, a sum
      reduction, then a division or a product with the reciprocal) into `softmax.softmax`, and
      `(x - max) - log(sum)` into `softmax.log_softmax`, whether the element-wise steps are one
      `linalg.generic` each or fused (upstream fuses the subtraction into the exp), generics or
      named ops (`linalg.reduce`, `linalg.broadcast`, `linalg.exp`, ...);
    - the element-wise linalg ops that feed a raised op and nothing else into `softmax.scale`
      (a product with, or quotient by, a constant or an invariant scalar or 0-d tensor),
      `softmax.add_bias`
      (a sum with a broadcast tensor), `softmax.mask` (a select with a constant fill on an i1
      tensor, a causal `linalg.index` comparison, or a column index against per-row lengths) and
      `softmax.cast` (`arith.extf` / `arith.truncf`); a cast of a softmax result becomes
      `softmax.cast` too.

    Raised softmax ops keep the source's meaning for a row of -inf, `masked_rows = nan`, unless
    `masked-rows=zero` asks for the dialect's policy instead (probability 0, log-probability
    -inf: a fully masked row no longer poisons what follows with NaN). The max
    reduction may start from -inf or the lowest finite value with `arith.maximumf` or
    `arith.maxnumf`, or from NaN with `arith.maxnumf` (upstream's decomposition): all give the
    dialect's result, see docs/dialect.md. Near misses (no max subtraction, reductions over
    different dimensions, an intermediate with other users, ...) are left untouched; the full
    list is in docs/raising.md. Nothing else is rewritten: the pass does not fold or
    canonicalize.
  }];
  let options = [
    Option<"maskedRows", "masked-rows", "::mlir::softmax::MaskedRows",
           /*default=*/"::mlir::softmax::MaskedRows::nan",
           "Result of raised softmax / log_softmax ops for a row that is entirely -inf",
           [{::llvm::cl::values(
             clEnumValN(::mlir::softmax::MaskedRows::nan, "nan",
                        "NaN, as linalg computes it (-inf - -inf): the program keeps its meaning"),
             clEnumValN(::mlir::softmax::MaskedRows::zero, "zero",
                        "the dialect's policy: probability 0 and log-probability -inf"))}]>
  ];
  let dependentDialects = [
    "::mlir::softmax::SoftmaxDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SelectStrategyPass : Pass<"softmax-select-strategy", "::mlir::func::FuncOp"> {
  let summary = "Choose the kernel plan of each softmax.fused op from its row width";
  let description = [{
    Sets `strategies` on every `softmax.fused` op that has none (a hand-written list is kept and
    checked). The plan depends on the row width N, the element type, the row count M when it is
    known and the target's limits:

    - `multi_row` when at most 32 lanes cover a row (16 values a thread): several rows a warp;
    - `row_registers` while the row fits the register budget of up to `threads-per-block` lanes;
    - `row_shared` while the row (as f32) fits `shared-memory-per-block`;
    - `chunked_online` beyond that.

    With a dynamic N it lists one variant per tier, ending with `chunked_online`, and the host
    code dispatches on N at run time. A softmax over a non-last axis gets one `strided_axis`
    plan, sized for the axis (C values of a column in registers when a block holds them, else
    two passes; a dynamic C takes a plan whose kernel does either). See docs/strategies.md for
    the thresholds and why.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "GPU architecture whose limits apply (sm_80, sm_86, sm_89, sm_90)">,
    Option<"registersPerThread", "registers-per-thread", "int64_t", /*default=*/"0",
           "Register budget of a thread (0: the chip's maximum, 255)">,
    Option<"sharedMemoryPerBlock", "shared-memory-per-block", "int64_t", /*default=*/"0",
           "Shared memory a block may use, in bytes (0: the chip's limit)">,
    Option<"threadsPerBlock", "threads-per-block", "int64_t", /*default=*/"0",
           "Largest block (0: the chip's limit, 1024)">
  ];
  let dependentDialects = ["::mlir::softmax::SoftmaxDialect"];
}

#endif // SOFTMAX_DIALECT_SOFTMAX_TRANSFORMS_PASSES_TD
