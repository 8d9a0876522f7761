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

def Softmax_Normalization : I32EnumAttr<"Normalization",
    "what a fused op computes after its prologue", [
    I32EnumAttrCase<"softmax", 0>,
    I32EnumAttrCase<"log_softmax", 1>,
    I32EnumAttrCase<"none", 2>
  ]> {
  let cppNamespace = "::mlir::softmax";
}

def Softmax_KernelPlan : I32EnumAttr<"KernelPlan", "how a fused softmax maps rows onto the GPU", [
    I32EnumAttrCase<"multi_row", 0>,
    I32EnumAttrCase<"row_registers", 1>,
    I32EnumAttrCase<"chunked_online", 2>,
    I32EnumAttrCase<"row_shared", 3>,
    I32EnumAttrCase<"row_cluster", 4>,
    I32EnumAttrCase<"strided_axis", 5>,
    I32EnumAttrCase<"row_staged", 6>,
    I32EnumAttrCase<"row_split", 7>
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
      max and sum, then a normalising pass that reads the row again) or `row_shared` (the same
      online pass, keeping the row in dynamic shared memory so that the normalising pass reads
      it from there: one read, rows of up to 57856 elements, one row a block), `row_cluster`
      (a row spread over the `cluster` blocks of a thread-block cluster, each holding
      `lanes * vector * chunks` of its columns in registers; the row's max and sum are combined
      through distributed shared memory: one read, rows of up to `cluster` spans; sm_90), or
      `strided_axis` (a softmax over a non-last axis: the input viewed as [outer, C, inner],
      consecutive threads on consecutive inner elements, each column of C values reduced by
      `rows` threads of a block; see below and docs/strategies.md), or `row_staged` (one block
      a row, the row brought into dynamic shared memory as stored, by one bulk asynchronous copy
      of its 16-byte-aligned interior whose completion an mbarrier counts, then reduced and
      normalised from there: one read, no registers held for the bytes in flight; with
      `cluster` above 1 a row is staged across up to `cluster` blocks of a thread-block cluster,
      a slice each, whose (max, sum) combine through distributed shared memory; rows of up to
      (14464 * `cluster` - 1) * `vector` elements; `vector` is 16 bytes of the input type and
      `chunks` 1; sm_90), or `row_split` (for few rows: each row split over
      ceil(width / (`lanes * vector * chunks`)) blocks, one span each, in three launches: every
      block's (max, sum) of its span, one block a row merging them, every block normalising
      its span again (the second read mostly from L2); the partial results travel through the
      output row itself, in the first words of each block's span, so no workspace is needed;
      any width; rows whose input and output overlap, or are misaligned differently, take the
      chunked_online kernel of the same parameters).
    - `lanes`: threads that share one row: a power of two up to a warp (32), whole warps
      beyond (a multiple of 32, at most 1024; `strided_axis`: a power of two).
    - `rows`: rows per thread block (at most 1024); a block has `lanes * rows` threads, a
      multiple of 32 and at most 1024.
    - `vector`: elements per memory access (1, 2, 4 or 8; 16 bytes is 4 f32 or 8 f16/bf16).
    - `chunks`: accesses per thread per pass over a row segment (1 to 64). For the register
      plans each thread holds `vector * chunks` values (at most 256), so a row of up to
      `lanes * vector * chunks` elements fits.
    - `cluster` (row_cluster: 2 to 16, the blocks of the thread-block cluster that shares a
      row; row_staged: 1 to 16, the most blocks a row is staged across, the launch taking the
      fewest that keep each block's slice within kStagedBlockTargetBytes; row_split: 1 for its
      three launches, 2 to 16 for one launch over a cluster of that many blocks a row, their
      (max, sum) merged through distributed shared memory; strided_axis: 1 to 16, the blocks
      of a thread-block cluster that share each column, their (max, sum) merged through
      distributed shared memory; omitted elsewhere, where it is 1).

    For `strided_axis` the parameters mean: `lanes` threads a block along the contiguous inner
    axis (each `vector` consecutive elements: a block covers `lanes * vector` columns), `rows`
    threads a block along the softmax axis (a column's C values are spread over them and
    combined through shuffles and shared memory), `chunks` C values a thread: when
    `C <= rows * chunks` they stay in registers (one read), else a thread loads `chunks` at a
    time in an online max/sum pass and reads the column again to normalise. With `cluster`
    above 1 the column is spread over that many blocks of a thread-block cluster, block `q`
    holding axis values `q * rows * chunks` onwards: one read for `C <= rows * chunks *
    cluster`, the register path only (sm_90).

    ```mlir
    #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>
    #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 8>
    #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 8>
    ```
  }];
  let parameters = (ins
    EnumParameter<Softmax_KernelPlan>:$plan,
    "int64_t":$lanes,
    "int64_t":$rows,
    "int64_t":$vector,
    "int64_t":$chunks,
    DefaultValuedParameter<"int64_t", "1">:$cluster
  );
  let assemblyFormat = "`<` $plan `,` struct($lanes, $rows, $vector, $chunks, $cluster) `>`";
  let builders = [
    AttrBuilder<(ins "KernelPlan":$plan, "int64_t":$lanes, "int64_t":$rows, "int64_t":$vector,
                     "int64_t":$chunks), [{
      return $_get($_ctxt, plan, lanes, rows, vector, chunks, 1);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Threads per block.
    int64_t getBlockSize() const { return getLanes() * getRows(); }
    /// Elements of a row that one pass of the block's lanes covers.
    int64_t getSpan() const { return getLanes() * getVector() * getChunks(); }
    /// strided_axis: the axis values a block (a cluster of `cluster` blocks) holds in
    /// registers (`rows * chunks * cluster`): the widest C of its register path, and of a
    /// dynamic C's tier (FusedOp::verifyStrategies).
    int64_t getAxisCapacity() const { return getRows() * getChunks() * getCluster(); }
    /// Whether the plan keeps the whole row on chip (so `getMaxWidth()` bounds the row width).
    bool holdsWholeRow() const {
      return getPlan() != KernelPlan::chunked_online && getPlan() != KernelPlan::strided_axis &&
             getPlan() != KernelPlan::row_split;
    }
    /// Whether the plan keeps its values in registers between the reductions and the store.
    bool isRegisterPlan() const {
      return getPlan() == KernelPlan::multi_row || getPlan() == KernelPlan::row_registers ||
             getPlan() == KernelPlan::row_cluster;
    }
    /// The widest row the plan handles: its span for the register plans (times the cluster's
    /// blocks for row_cluster), the shared-memory capacity for row_shared, anything for
    /// chunked_online, row_split and strided_axis.
    int64_t getMaxWidth() const;
    /// Shared memory a row_shared block may take for its row: the 227 KB that sm_90 gives a
    /// block, less 1 KB for the reductions. Rows are held as f32.
    static constexpr int64_t kSharedRowBytes = 227 * 1024 - 1024;
    /// Values a thread of a register plan may hold (vector * chunks): beyond this the kernel
    /// spills whatever the register budget.
    static constexpr int64_t kMaxValuesPerThread = 256;
    /// The most blocks a row_cluster plan spreads a row over: sm_90's non-portable cluster size
    /// (8 is the portable one; TargetInfo says which the target allows).
    static constexpr int64_t kMaxClusterBlocks = 16;
    /// Static shared memory a strided_axis block may take to combine the rows of its columns.
    static constexpr int64_t kMaxAxisSharedBytes = 48 * 1024;
    /// Shared memory a row_staged block reserves before its row: the mbarrier, then the max and
    /// sum slots of its warps (one f32 each, 32 warps at most).
    static constexpr int64_t kStagedHeaderBytes = 272;
    /// Dynamic shared memory a row_staged block aims to stay within when a cluster spreads
    /// the row: two blocks a multiprocessor (sm_90's 228 KB, less 1 KB the system reserves a
    /// block, halved), where the single-block kernel held the H200's bandwidth (bf16 50257
    /// columns, 98 KB a row: 0.92x copy; 65536 columns, 128 KB, one block: 0.75x).
    static constexpr int64_t kStagedBlockTargetBytes = 113 * 1024;
    /// 16-byte words of a row of `width` elements as row_staged stages it: one more than the
    /// row fills, for a start off a word boundary.
    int64_t getStagedWords(int64_t width) const {
      return (width + getVector() - 1) / getVector() + 1;
    }
    /// Blocks a row_staged launch stages a row of `width` elements across: the fewest, up to
    /// `cluster`, whose slices keep each block within kStagedBlockTargetBytes.
    int64_t getStagedClusterBlocks(int64_t width) const {
      int64_t sliceWords = (kStagedBlockTargetBytes - kStagedHeaderBytes) / 16;
      int64_t blocks = (getStagedWords(width) + sliceWords - 1) / sliceWords;
      return std::max<int64_t>(1, std::min(blocks, getCluster()));
    }
    /// The widest row a dynamic program's dispatch sends the plan (the next tier takes wider
    /// ones): getMaxWidth, but for row_staged over a cluster the widest whose slices keep each
    /// block within kStagedBlockTargetBytes on `cluster` blocks (one block a multiprocessor
    /// beyond: bf16 1048576 columns over 16 blocks ran at 0.44x copy, chunked_online 0.48x).
    int64_t getDispatchWidth() const {
      if (getPlan() != KernelPlan::row_staged || getCluster() == 1)
        return getMaxWidth();
      int64_t sliceWords = (kStagedBlockTargetBytes - kStagedHeaderBytes) / 16;
      return (sliceWords * getCluster() - 1) * getVector();
    }
    /// Dynamic shared memory a row_staged block takes for rows of `width` elements: the
    /// header, then its slice of the row's 16-byte words (getStagedWords over
    /// getStagedClusterBlocks blocks, rounded up).
    int64_t getStagedSharedBytes(int64_t width) const {
      int64_t blocks = getStagedClusterBlocks(width);
      return (getStagedWords(width) + blocks - 1) / blocks * 16 + kStagedHeaderBytes;
    }
    /// Checks that the plan can handle rows of `width` elements (ShapedType::kDynamic: any
    /// width the host code dispatches to it).
    ::mlir::LogicalResult verifyRowWidth(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError, int64_t width) const;
  }];
}

//===----------------------------------------------------------------------===//
// Prologue steps of softmax.fused
//===----------------------------------------------------------------------===//

// A double, printed so that it round-trips (-inf prints as 0xFFF0000000000000).
def Softmax_DoubleParameter : APFloatParameter<"a 64-bit float"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::APFloat> {
    ::llvm::APFloat value(0.0);
    if ($_parser.parseFloat(::llvm::APFloat::IEEEdouble(), value))
      return ::mlir::failure();
    return value;
  }() }];
  let printer = [{ $_printer.printFloat($_self) }];
}

def Softmax_ScaleStepAttr : Softmax_Attr<"ScaleStep", "scale"> {
  let summary = "prologue step: multiply by a constant (a fused softmax.scale)";
  let parameters = (ins Softmax_DoubleParameter:$factor);
  let assemblyFormat = "`<` $factor `>`";
}

def Softmax_ScaleByStepAttr : Softmax_Attr<"ScaleByStep", "scale_by"> {
  let summary = "prologue step: multiply by the scalar side operand #operand";
  let parameters = (ins "int64_t":$operand);
  let assemblyFormat = "`<` $operand `>`";
}

def Softmax_BiasStepAttr : Softmax_Attr<"BiasStep", "bias"> {
  let summary = "prologue step: add the broadcast tensor side operand #operand";
  let parameters = (ins "int64_t":$operand);
  let assemblyFormat = "`<` $operand `>`";
}

def Softmax_MaskStepAttr : Softmax_Attr<"MaskStep", "mask"> {
  let summary = "prologue step: a fused softmax.mask";
  let description = [{
    `padding` and `tensor` masks read side operand #operand (lengths, or the i1 mask); `causal`
    uses `offset`. Removed elements become `fill`.
  }];
  let parameters = (ins
    EnumParameter<Softmax_MaskKind>:$kind,
    DefaultValuedParameter<"int64_t", "-1">:$operand,
    DefaultValuedParameter<"int64_t", "0">:$offset,
    Softmax_DoubleParameter:$fill
  );
  let assemblyFormat = "`<` $kind `,` struct($operand, $offset, $fill) `>`";
}

def Softmax_RoundStepAttr : Softmax_Attr<"RoundStep", "round"> {
  let summary = "prologue step: round to a narrower float type (a fused narrowing softmax.cast)";
  let parameters = (ins "::mlir::Type":$type);
  let assemblyFormat = "`<` $type `>`";
}

#endif // SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXATTRS_TD
