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
  }];
  let dependentDialects = ["::mlir::softmax::SoftmaxDialect"];
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
    code dispatches on N at run time. See docs/strategies.md for the thresholds and why.
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
