//===- Normalization.h - The normalising step of the kernels ----*- C++ -*-===//
//
// Internal to the softmax-lower-to-gpu pass: what the row kernels (RowKernel.cpp) and the
// strided_axis kernels (AxisKernel.cpp) emit once a row's (or a column's) max and sum are
// reduced: the statistics that carry the masked-rows policy, and the normalisation of one value.
// Arithmetic is f32; exp and log are ex2.approx / lg2.approx (no libdevice):
// exp(x - m) = 2^((x - m) * log2 e), ln(s) = lg2(s) * ln 2.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_NORMALIZATION_H
#define SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_NORMALIZATION_H

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/Builders.h"

namespace mlir::softmax {

/// 2^x of an f32, as llvm.nvvm.ex2.approx.ftz.f. The flush-to-zero form is one MUFU
/// instruction; the other handles subnormal results with extra scaling. Only exps below 2^-126
/// flush, far under every tolerance.
Value emitExp2(OpBuilder &b, Location loc, Value x);

/// log2(x) of an f32, as llvm.nvvm.lg2.approx.f.
Value emitLog2(OpBuilder &b, Location loc, Value x);

/// exp(x - shift) = 2^((x - shift) * log2 e) of f32s. `shift` must never be -inf (a max made
/// safe: NormalizationStats::maxSafe), so that x = -inf gives 0, never NaN.
Value emitExpShifted(OpBuilder &b, Location loc, Value x, Value shift);

/// What the normalisation of a row (or a column) needs, from its max and sum.
struct NormalizationStats {
  Value maxSafe; ///< the max, or 0 for a row of -inf (so that x - max is never NaN there)
  Value masked;  ///< the row is all -inf
  Value invSum;  ///< 1 / sum; the masked-rows policy value (0 or NaN) in a masked row
  Value logSum;  ///< ln(sum), likewise; only for log_softmax (null otherwise)
};

/// The statistics of a row with max `max` and sum `sum` (the sum of exp(x - maxSafe)), for
/// `op`'s normalisation and masked-rows policy.
///
/// The masked-rows policy is applied once a row, through the factors: in a row of -inf every
/// exp is 0 and every shifted value -inf, so a factor of 0 (softmax) or a log-sum of 0
/// (log-softmax) gives the zero policy, and NaN gives NaN. No per-element select.
///
/// lg2 is an intrinsic call, which nothing removes when unused: logSum is emitted (and set)
/// only for log_softmax.
NormalizationStats emitNormalizationStats(OpBuilder &b, Location loc, FusedOp op, Value max,
                                          Value sum);

/// One f32 value `x` of a row normalised as `op` says: softmax exp(x - maxSafe) * invSum,
/// log_softmax x - maxSafe - logSum, none x itself. `expValue`, when given, is
/// exp(x - maxSafe) already computed (softmax only uses it; null to compute it here).
Value emitNormalize(OpBuilder &b, Location loc, FusedOp op, Value x, Value expValue,
                    const NormalizationStats &stats);

} // namespace mlir::softmax

#endif // SOFTMAX_LIB_CONVERSION_SOFTMAXTOGPU_NORMALIZATION_H
