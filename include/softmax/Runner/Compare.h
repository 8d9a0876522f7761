//===- Compare.h - Checking kernel outputs against the reference -*- C++ -*-===//
//
// Compares one output tensor, as read back from the device in its storage type, with the float64
// reference rounded to that type (docs/runner.md, "Tolerances"):
//  - an element that still holds the poison pattern was never written: counted as unwritten;
//  - with a row stride, the padding after each row must still hold the poison pattern;
//  - NaN must meet NaN, an infinity the same infinity; anything else must satisfy
//      |out - ref| <= atolFloor + atolRow * rowScale + rtol * |ref|
//    where rowScale is max |ref| over the finite elements of the row (at least 1 for
//    log-probabilities and plain values).
// It also measures the largest absolute and relative errors and, for probabilities, the row-sum
// error max |sum(out) - 1| over rows that are not fully masked (and hold no NaN).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_COMPARE_H
#define SOFTMAX_RUNNER_COMPARE_H

#include "softmax/Runner/Storage.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax::runner {

/// What an output holds, which decides its tolerance.
enum class OutputKind {
  Probabilities,    ///< a softmax (values in [0, 1], rows summing to 1)
  LogProbabilities, ///< a log-softmax (values <= 0, unbounded below)
  Values,           ///< anything else (an element-wise chain)
};
const char *getOutputKindName(OutputKind kind);

struct Tolerance {
  double rtol = 0;      ///< relative to |ref|
  double atolRow = 0;   ///< relative to the row's scale (max |ref| of the row)
  double atolFloor = 0; ///< absolute
};
/// The tolerance for an output of `element` type holding `kind` (see docs/runner.md for why).
Tolerance getTolerance(ElementKind element, OutputKind kind);

struct Mismatch {
  std::vector<int64_t> index; ///< position in the tensor
  double got = 0;             ///< the kernel's value
  double want = 0;            ///< the reference, rounded to storage
  bool unwritten = false;     ///< still the poison pattern
  bool padding = false;       ///< a padding element after the row (index.back() >= width)
};

struct CompareResult {
  int64_t elements = 0;       ///< elements of the tensor
  int64_t mismatches = 0;     ///< written elements outside the tolerance
  int64_t unwritten = 0;      ///< elements still poisoned
  int64_t paddingTouched = 0; ///< row-stride padding elements that no longer hold the poison
  double maxAbsError = 0;     ///< over finite pairs
  double maxRelError = 0;     ///< over finite pairs with ref != 0
  double rowSumError = -1;    ///< probabilities only; -1 when not measured
  int64_t rowsSummed = 0;
  /// Elements outside the tolerance of the reference but within it of an alternative (the f32
  /// evaluation, near ties rounded the other way: see compareOutput): counted, not mismatches.
  int64_t acceptedByAlternative = 0;
  /// Elements outside those tolerances but within them once the conditioning of large logits
  /// is added (compareOutput's `logitScale`): counted, not mismatches.
  int64_t acceptedByLogitConditioning = 0;
  Tolerance tolerance;
  std::vector<Mismatch> first; ///< the first few problems, in memory order

  bool passed() const { return mismatches == 0 && unwritten == 0 && paddingTouched == 0; }
};

/// Checks the output `data` (storage bytes, rows `rowStride` elements apart; 0 means packed)
/// of `shape` against `reference` (packed doubles already rounded to `element`; null: only the
/// poison and padding checks run). Row sums are measured for probabilities whose rows are
/// distributions (`rowsAreDistributions`: a softmax over the last axis). Where the softmax is
/// over another axis (`axis`, not the last), the scale of the absolute tolerance is that of
/// each element's softmax slice along `axis` rather than its row's. `alternatives` are
/// further admissible results, laid out as `reference` (the reference evaluated with f32
/// intermediates, as the kernels compute, or with near ties of its 16-bit roundings rounded the
/// other way: docs/reference.md): an element outside the tolerance of `reference` but within it
/// of one of them passes, and is counted in acceptedByAlternative. `logitScale` (laid out as
/// `reference`; probabilities and log-probabilities only) is the reference evaluated with
/// EvaluateOptions::logitScale: an element still outside passes when within the tolerance
/// widened by kLogitConditioning * logitScale (relative for probabilities, absolute for
/// log-probabilities) of the reference or an alternative, counted in
/// acceptedByLogitConditioning.
CompareResult compareOutput(ElementKind element, const std::vector<int64_t> &shape,
                            const void *data, int64_t rowStride, const double *reference,
                            OutputKind kind, int maxReported = 8,
                            bool rowsAreDistributions = true, int64_t axis = -1,
                            llvm::ArrayRef<const double *> alternatives = {},
                            const double *logitScale = nullptr);

/// How far f32 arithmetic may move a probability (relative) or a log-probability (absolute),
/// per unit of the logits' magnitude (EvaluateOptions::logitScale): a logit computed in f32 by a
/// few prologue steps (each rounding; softmax-fuse's combined constants rounding too), less its
/// maximum and times log2(e), is off its exact value by up to about 8 f32 ulps of the slice's
/// magnitude, and p_i moves by exp(d_i - sum_j p_j d_j), up to twice that: 2 * 8 * 2^-24.
/// Negligible for the logits of most programs (|z| of 10: 1e-5 relative); what a scale by
/// 10000 makes of them (|z| of 900: 9e-4) is what f32 allows (docs/reference.md).
constexpr double kLogitConditioning = 0x1p-20;

/// "[3, 17] got 0.125 want 0.12500001" (or "unwritten" / "padding overwritten").
std::string describeMismatch(const Mismatch &mismatch);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_COMPARE_H
