//===- SoftmaxOps.td - Ops of the softmax dialect ----------*- tablegen -*-===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXOPS_TD
#define SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXOPS_TD

include "softmax/Dialect/Softmax/IR/SoftmaxDialect.td"
include "softmax/Dialect/Softmax/IR/SoftmaxAttrs.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Storage types of every tensor the dialect computes on.
def Softmax_FloatTensor : RankedTensorOf<[F16, BF16, F32]>;

//===----------------------------------------------------------------------===//
// softmax.softmax, softmax.log_softmax
//===----------------------------------------------------------------------===//

class Softmax_NormalizeOp<string mnemonic, string formula>
    : Softmax_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let description = [{
    Normalizes `input` along `axis` (default -1, the last; negative values count from the end):

    }] # formula # [{

    The row maximum is subtracted before exponentiating, so large finite inputs do not overflow.
    IEEE rules apply otherwise: a row holding NaN gives NaN, a row holding +inf gives NaN for
    every element (inf - inf).

    A row whose every element is -inf (a fully masked row) is 0/0 mathematically. `masked_rows`
    chooses the result: `zero` (the default) makes every softmax probability 0 and every
    log-softmax value -inf (the log of that 0), never NaN; `nan` gives NaN as torch does.

    Example:
    ```mlir
    %p = softmax.softmax %x : tensor<4x1000xf32>
    %q = softmax.log_softmax %y axis = 1 masked_rows = nan : tensor<?x8x?xbf16>
    ```
  }];
  let arguments = (ins
    Softmax_FloatTensor:$input,
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    DefaultValuedAttr<Softmax_MaskedRows, "::mlir::softmax::MaskedRows::zero">:$masked_rows
  );
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`axis` `=` $axis^)? (`masked_rows` `=` $masked_rows^)? attr-dict `:`
    custom<RankedTensor>(type($input))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reduction axis in [0, rank).
    int64_t getNormalizedAxis() {
      return ::mlir::softmax::normalizeAxis(getAxis(), getInput().getType().getRank());
    }
  }];
}

def Softmax_SoftmaxOp : Softmax_NormalizeOp<"softmax",
    "`result[.., j, ..] = exp(x_j - max_k x_k) / sum_k exp(x_k - max_k x_k)`"> {
  let summary = "softmax along one axis";
}

def Softmax_LogSoftmaxOp : Softmax_NormalizeOp<"log_softmax",
    "`result[.., j, ..] = (x_j - max_k x_k) - log(sum_k exp(x_k - max_k x_k))`"> {
  let summary = "log-softmax along one axis";
}

//===----------------------------------------------------------------------===//
// softmax.scale
//===----------------------------------------------------------------------===//

def Softmax_ScaleOp : Softmax_Op<"scale", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "multiply every element by a factor (a scale or an inverse temperature)";
  let description = [{
    `result = input * factor`, element-wise. The factor is either a constant (`by 0.125`) or a
    scalar SSA value of type f16, bf16, f32 or f64 (`by %f : f32`), for instance the inverse of a
    sampling temperature known only at run time. A constant factor must be finite in f32, the
    type the kernels compute in (1.0e39 is rejected).

    `scale` by 1.0 folds away, and a chain of constant scales combines into one.

    ```mlir
    %a = softmax.scale %x by 1.250000e-01 : tensor<8x64xf32>
    %b = softmax.scale %x by %inv_temperature : tensor<8x64xf32>, f32
    ```
  }];
  let arguments = (ins
    Softmax_FloatTensor:$input,
    Optional<AnyFloat>:$dynamic_factor,
    OptionalAttr<F64Attr>:$factor
  );
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $input `by` ($dynamic_factor^)? ($factor^)? attr-dict `:`
    custom<RankedTensor>(type($input)) (`,` type($dynamic_factor)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "double":$factor)>,
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Value":$factor)>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// softmax.add_bias
//===----------------------------------------------------------------------===//

def Softmax_AddBiasOp : Softmax_Op<"add_bias", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "add a broadcast bias";
  let description = [{
    `result = input + broadcast(bias)`. The bias broadcasts as in NumPy: its dimensions align
    with the trailing dimensions of `input`, and each is either 1 or equal to the input's (a
    dynamic size on either side must agree at run time). Typical biases: `[N]` per column,
    `[M, N]` per element, `[H, 1, N]` per attention head. The bias may have another float type
    than the input; the sum is computed without rounding the bias first.

    ```mlir
    %y = softmax.add_bias %x, %b : tensor<2x8x16x128xf32>, tensor<8x1x128xbf16>
    ```
  }];
  let arguments = (ins Softmax_FloatTensor:$input, Softmax_FloatTensor:$bias);
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $bias attr-dict `:` custom<RankedTensor>(type($input)) `,`
    custom<RankedTensor>(type($bias))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// softmax.mask
//===----------------------------------------------------------------------===//

def Softmax_MaskOp : Softmax_Op<"mask", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "replace the elements that a mask removes by a fill value";
  let description = [{
    `result[i] = removed(i) ? fill : input[i]`, with `fill` -inf by default, so that removed
    elements get probability 0 in a following softmax. A finite `fill` must be finite in f32
    too (the kernels compute in f32; -1.0e39 would silently become -inf). Indices are taken along `axis` (default
    -1), the column axis of the softmax that follows. Three kinds of mask:

    - `padding %lengths`: per-row lengths; column `j` of a row is removed when
      `j >= lengths[row]` (a length <= 0 removes the whole row, which the softmax then treats by
      its `masked_rows` policy). `lengths` has i32 or i64 elements and a shape that broadcasts to
      the row shape, the input's shape without `axis` (e.g. `[B, H, S]` for `[B, H, S, S]`
      scores, or `[B, 1, 1]` for one length per sequence).
    - `causal`: column `j` of query `i` is removed when `j > i + offset`; the query index `i` is
      the dimension just before `axis`, which must exist. `offset` defaults to 0; its magnitude
      is below 2^62, so that `i + offset` cannot wrap. Only causal masks take an offset.
    - `tensor %mask`: an i1 tensor that broadcasts to the input's shape; `true` keeps an element,
      `false` removes it (torch's boolean attention-mask convention).

    ```mlir
    %a = softmax.mask %x, padding %len : tensor<4x128xf32>, tensor<4xi32>
    %b = softmax.mask %x, causal offset = 2 : tensor<8x128x128xbf16>
    %c = softmax.mask %x, tensor %m fill = -1.000000e+04 : tensor<4x128xf16>, tensor<1x128xi1>
    ```
  }];
  let arguments = (ins
    Softmax_FloatTensor:$input,
    Softmax_MaskKind:$kind,
    Optional<RankedTensorOf<[I1, I32, I64]>>:$mask,
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    DefaultValuedAttr<I64Attr, "0">:$offset,
    DefaultValuedAttr<F64Attr,
        "::llvm::APFloat(-::std::numeric_limits<double>::infinity())">:$fill
  );
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $kind ($mask^)? (`offset` `=` $offset^)? (`axis` `=` $axis^)?
    (`fill` `=` $fill^)? attr-dict `:` custom<RankedTensor>(type($input))
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The column axis in [0, rank).
    int64_t getNormalizedAxis() {
      return ::mlir::softmax::normalizeAxis(getAxis(), getInput().getType().getRank());
    }
  }];
}

//===----------------------------------------------------------------------===//
// softmax.cast
//===----------------------------------------------------------------------===//

def Softmax_CastOp : Softmax_Op<"cast",
    [Pure, DeclareOpInterfaceMethods<CastOpInterface>]> {
  let summary = "convert between f32, f16 and bf16";
  let description = [{
    Converts every element to the result's element type, rounding to nearest even. The shape is
    unchanged. A cast to the same type folds away.

    ```mlir
    %h = softmax.cast %p : tensor<4x1000xf32> to tensor<4x1000xbf16>
    ```
  }];
  let arguments = (ins Softmax_FloatTensor:$input);
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<RankedTensor>(type($input)) `to`
    custom<RankedTensor>(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// softmax.fused
//===----------------------------------------------------------------------===//

def Softmax_FusedOp : Softmax_Op<"fused", [Pure]> {
  let summary = "a prologue, a softmax (or log-softmax, or nothing) and a store, as one op";
  let description = [{
    What `softmax-fuse` makes of a chain `prologue* -> softmax|log_softmax -> cast?`, and of
    element-wise chains left on their own (`normalization = none`). Its meaning, element by
    element of a row along `axis`:

    1. `v = input[i]`, widened to f32 (the reference uses f64);
    2. each `prologue` step in order: `#softmax.scale<c>` (v * c), `#softmax.scale_by<k>`
       (v * operand k, a float scalar), `#softmax.bias<k>` (v + broadcast(operand k)),
       `#softmax.mask<kind, operand = k, offset = o, fill = f>` (the `softmax.mask` of that kind),
       `#softmax.round<T>` (round v to T, a narrowing cast inside the chain);
    3. `softmax` / `log_softmax` over the row, with the `masked_rows` policy, or nothing (`none`);
    4. the result stored in the result's element type (the fused epilogue cast).

    Side operands are referenced by their index among `side_operands`. The steps obey the rules
    of the ops they fuse, and a mask step carries only the fields its kind uses (an operand for
    `padding` and `tensor`, an offset for `causal`).

    `strategies` (a list of `#softmax.strategy`) is set by `softmax-select-strategy` or by hand
    and obeyed by `softmax-lower-to-gpu`: each entry becomes a kernel, and the host code runs the
    first entry that can handle the row width (a plan holding the whole row handles widths up to
    its span; `chunked_online` handles any). With a static width one entry is enough; with a
    dynamic width the list must end with a `chunked_online` entry. Consecutive entries of the
    same maximum width are alternatives for one tier of a dynamic width: each but the last runs
    only where its fast kernel applies (every row starts on its vector's boundary and is whole
    vectors), the last runs otherwise; `softmax-select-strategy` lists narrower vectors so for
    rows off the widest vector's boundary.

    The code a kernel unrolls for one thread is bounded: each of the `vector * chunks` values a
    plan gives a thread goes through the prologue's steps and a few operations of its own, so an
    entry may have `vector * chunks * (4 + number of prologue steps)` of at most 1024; a longer
    chain or a wider span is rejected (compile time grows with it: docs/compile-time.md).

    ```mlir
    %y = softmax.fused softmax %x axis = 2
           prologue [#softmax.scale<1.250000e-01>, #softmax.mask<causal, offset = 0, fill = 0xFFF0000000000000>]
           : tensor<16x1024x1024xbf16> -> tensor<16x1024x1024xbf16>
    ```
  }];
  let arguments = (ins
    Softmax_FloatTensor:$input,
    Variadic<AnyType>:$side_operands,
    Softmax_Normalization:$normalization,
    I64Attr:$axis,
    ArrayAttr:$prologue,
    DefaultValuedAttr<Softmax_MaskedRows, "::mlir::softmax::MaskedRows::zero">:$masked_rows,
    // Checked entry by entry by the verifier, which names a bad entry's index.
    OptionalAttr<ArrayAttr>:$strategies
  );
  let results = (outs Softmax_FloatTensor:$result);
  let assemblyFormat = [{
    $normalization $input (`(` $side_operands^ `:` type($side_operands) `)`)? `axis` `=` $axis
    `prologue` $prologue (`masked_rows` `=` $masked_rows^)?
    attr-dict `:` custom<RankedTensor>(type($input)) `->`
    custom<RankedTensor>(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reduction axis in [0, rank).
    int64_t getNormalizedAxis() {
      return ::mlir::softmax::normalizeAxis(getAxis(), getInput().getType().getRank());
    }
    /// The static row width, or ShapedType::kDynamic.
    int64_t getRowWidth() { return getInput().getType().getDimSize(getNormalizedAxis()); }
    /// The product of the sizes after the axis (1 for the last axis), or std::nullopt when
    /// one of them is dynamic.
    std::optional<int64_t> getStaticInnerSize();
    /// Checks `strategies` against the row width.
    ::mlir::LogicalResult verifyStrategies();
    /// Registers a thread of a register plan holds for side operands read along the row when
    /// it keeps `values` of a row: a bias, its values for the thread's columns in its
    /// element type (held across the block's rows: LLVM hoists their loads out of the row
    /// loop); a boolean mask, a register an element while its row is computed. Scalars and values of
    /// one a row take none. The plans must fit it (softmax-select-strategy) and the kernels'
    /// register budgets include it (softmax-lower-to-gpu).
    int64_t getRowSideOperandRegisters(int64_t values);
    /// The tensor operands of the prologue's bias and boolean-mask steps, in step order (a
    /// scalar factor's operand is not a tensor; padding lengths are not read with the values).
    ::llvm::SmallVector<::mlir::Value> getBiasAndMaskOperands();
    /// Registers a thread of a register plan over 16-bit inputs keeps for the prologue's
    /// state beside its values and side operands: 8 for log_softmax under a mask that limits
    /// the read with a scale by a scalar, 8 for two masks or more; 0
    /// otherwise (ptxas -v on the generated programs that spilled without them; the other
    /// prologues fit the plain estimate). The plans must fit it and the kernels' budgets
    /// include it, as getRowSideOperandRegisters.
    int64_t getPrologueStateRegisters();
    /// Whether a padding or causal mask of the prologue fills -inf: the lanes it removes need
    /// not be read (the kernels read each row up to the mask's limit).
    bool hasLimitingMask();
    /// The element operations a kernel of `plan` unrolls for one thread: its `vector * chunks`
    /// values, each through the prologue's steps and kOpsPerValue operations of its own (load,
    /// max, exp, sum, normalisation, store). At most kMaxUnrolledWork (verifyStrategies): the
    /// kernels' size, and their compile time, grow with it.
    int64_t getUnrolledWork(::mlir::softmax::StrategyAttr plan) {
      return plan.getVector() * plan.getChunks() *
             (kOpsPerValue + static_cast<int64_t>(getPrologue().size()));
    }
    static constexpr int64_t kOpsPerValue = 4;
    static constexpr int64_t kMaxUnrolledWork = 1024;
    /// Whether a strided_axis kernel of this op may hold its loaded values packed, two 16-bit
    /// values a register, converting them at each use: a 16-bit input and plain softmax (whose
    /// normalisation needs only the exp again). The kernel does so where it has the register
    /// path only (a static C it holds, or a tier of a dynamic C; a kernel that also has the
    /// online path holds f32 values), with vectors of an even size (AxisKernel.cpp), and the
    /// plan choice budgets for it (AxisPlan.cpp). `tier`: the kernel of a dynamic C's tier,
    /// each of whose chunks compares its axis index with C: with a 16-bit result (bf16 to
    /// f32, 32 chunks of 4 in one row, spilled up to 168 bytes; but see `positiveScalars`),
    /// and without a prologue or
    /// after constant positive scales only (prologueKeepsNegInf, no rounding), so that a chunk
    /// past C loads -inf as raw words: after a scale by a scalar the -inf select that follows
    /// each conversion made ptxas keep f32 copies (64-80 bytes of spills at 120 registers in
    /// the bf16 tiers of C = 256 to 4096), and a rounding to f16 at each use of bf16 values
    /// spilled 28-40 bytes at 112-128 (generator seed 488 of the strided_axis family), where
    /// the tiers of 1024-4096 after constant positive scales, bf16 and f16, are clean at 120
    /// and 128 (2026-12-06, fourteenth session).
    /// `positiveScalars`: a tier that the host code launches only where every scalar factor
    /// is positive (as the kernel reads it, in f32), so that -inf stays -inf through a scale by
    /// a scalar too (lowerStridedAxis; AxisPlan.cpp gives such tiers where those that hold the
    /// column whatever the sign end): bf16 and f16 to an f32 result (the temperature chain),
    /// whose tiers of 1536-4096 assembled without a spill at 104-128 registers over axes 0, 1
    /// and -2, ranks 2-4 and inner sizes of 4-4096; to a 16-bit result, ptxas spilled 16-32
    /// bytes at 120 or at 128, which budget depending on the tier (2026-12-06, fifteenth
    /// session).
    bool mayHoldPackedAxisValues(bool tier = false, bool positiveScalars = false) {
      bool narrowResult = getResult().getType().getElementTypeBitWidth() == 16;
      return getInput().getType().getElementTypeBitWidth() == 16 &&
             getNormalization() == ::mlir::softmax::Normalization::softmax &&
             (!tier || (prologueKeepsNegInf(positiveScalars) && !hasRoundingPrologue() &&
                        (hasScalarScale() ? !narrowResult : narrowResult)));
    }
    /// Whether a prologue step scales by a scalar side operand.
    bool hasScalarScale() {
      return ::llvm::any_of(getPrologue(),
                            ::llvm::IsaPred<::mlir::softmax::ScaleByStepAttr>);
    }
    /// Whether a prologue step rounds the values to a 16-bit type.
    bool hasRoundingPrologue();
    /// Whether -inf stays -inf through `step`: a mask whose fill is -inf, a scale by a positive
    /// constant, a rounding (not a bias, nor a scale by a scalar, whose sign only the call
    /// knows, unless `positiveScalars`: the kernel is launched only where it is positive).
    static bool stepKeepsNegInf(::mlir::Attribute step, bool positiveScalars = false);
    /// Whether -inf stays -inf through every step of the prologue (stepKeepsNegInf), so that a
    /// kernel may stand -inf as loaded for the values past C.
    bool prologueKeepsNegInf(bool positiveScalars = false) {
      return llvm::all_of(getPrologue(), [&](::mlir::Attribute step) {
        return stepKeepsNegInf(step, positiveScalars);
      });
    }
    /// Whether a row_cluster kernel of this op may hold its row's values packed, two 16-bit
    /// values a register, converting them at each use: a 16-bit input and plain softmax
    /// without a prologue (ptxas merges the conversions that a scale follows and keeps f32
    /// copies: a scaled f16 row of 128256 columns spilled 536 bytes at the packed budget;
    /// masks and side operands along the row need their values again). The kernel does so
    /// with vectors of an even size (RowKernel.h, holdsPackedRowValues), and the plan choice
    /// spreads such rows over clusters (SelectStrategy.cpp).
    bool mayHoldPackedRowValues() {
      return getInput().getType().getElementTypeBitWidth() == 16 &&
             getNormalization() == ::mlir::softmax::Normalization::softmax &&
             getPrologue().empty();
    }
  }];
}

#endif // SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXOPS_TD
