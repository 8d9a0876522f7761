//===- SoftmaxAttrs.td - Enums and attributes of softmax ---*- tablegen -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXATTRS_TD
#define SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXATTRS_TD

include "softmax/Dialect/Softmax/IR/SoftmaxDialect.td"
include "mlir/IR/EnumAttr.td"

def Softmax_MaskKind : I32EnumAttr<"MaskKind", "which elements a softmax.mask removes", [
    I32EnumAttrCase<"padding", 0>,
    I32EnumAttrCase<"causal", 1>,
    I32EnumAttrCase<"tensor", 2>
  ]> {
  let cppNamespace = "::mlir::softmax";
}

def Softmax_MaskedRows : I32EnumAttr<"MaskedRows",
    "what a softmax produces for a row whose every element is -inf", [
    I32EnumAttrCase<"zero", 0>,
    I32EnumAttrCase<"nan", 1>
  ]> {
  let cppNamespace = "::mlir::softmax";
}

def Softmax_KernelPlan : I32EnumAttr<"KernelPlan", "how a fused softmax maps rows onto the GPU", [
    I32EnumAttrCase<"multi_row", 0>,
    I32EnumAttrCase<"row_registers", 1>,
    I32EnumAttrCase<"chunked_online", 2>
  ]> {
  let cppNamespace = "::mlir::softmax";
  let genSpecializedAttr = 0;
}

def Softmax_StrategyAttr : Softmax_Attr<"Strategy", "strategy"> {
  let summary = "the kernel plan of a fused softmax and its parameters";
  let description = [{
    Chosen by `softmax-select-strategy` or written by hand; `softmax-lower-to-gpu` obeys it.

    - `plan`: `multi_row` (several rows per warp, `lanes` <= 32 threads a row), `row_registers`
      (the whole row held in registers by `lanes` threads, one warp or more a row) or
      `chunked_online` (any width: chunks of `lanes * vector * chunks` elements with a running
      max and sum, then a normalising pass).
    - `lanes`: threads that share one row (a power of two, at most 1024).
    - `rows`: rows per thread block; a block has `lanes * rows` threads, a multiple of 32.
    - `vector`: elements per memory access (1, 2, 4 or 8; 16 bytes is 4 f32 or 8 f16/bf16).
    - `chunks`: accesses per thread per pass over a row segment. For the register plans each
      thread holds `vector * chunks` values, so a row of up to `lanes * vector * chunks`
      elements fits.

    ```mlir
    #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>
    ```
  }];
  let parameters = (ins
    EnumParameter<Softmax_KernelPlan>:$plan,
    "int64_t":$lanes,
    "int64_t":$rows,
    "int64_t":$vector,
    "int64_t":$chunks
  );
  let assemblyFormat = "`<` $plan `,` struct($lanes, $rows, $vector, $chunks) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Threads per block.
    int64_t getBlockSize() const { return getLanes() * getRows(); }
    /// Elements of a row that one pass of the block's lanes covers.
    int64_t getSpan() const { return getLanes() * getVector() * getChunks(); }
  }];
}

#endif // SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXATTRS_TD
