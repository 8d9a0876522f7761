//===- Properties.h - Properties every softmax result must have -*- C++ -*-===//
//
// The reference check compares each output with a float64 evaluation of the program. The
// properties (softmax-run --property, docs/runner.md "Properties") check the kernels against
// facts of the mathematics instead, so that a bug the reference shares would still show:
//  - shift: softmax(x + c) = softmax(x) (and log_softmax alike). The case runs a second time
//    with kShift added to every logit, and that run's outputs are compared with the reference
//    of the unshifted inputs. The inputs are first clamped to [-kShiftInputBound,
//    kShiftInputBound] and put on a grid on which x + kShift, the biases' sums and every
//    rounding step of the chain are exact, so that the shift changes nothing but the logits'
//    offset; e^(96 + x) overflows f32, so a kernel that does not subtract the row's maximum
//    fails it.
//  - row-sum: every row of probabilities (not fully masked, no NaN) sums to 1 within the
//    roundings to the storage type (rowSumBound); for log-probabilities, the sum of their
//    exponentials does (log_softmax = log(softmax)).
//  - monotone: within a row, a larger logit never gets a smaller probability or
//    log-probability (within one unit of the output type's last place).
// Each applies only where the program's chain keeps it true: the analysis (analyzeProperties)
// says why not where it does not (a mask with a finite fill shifts nothing; a bias reorders the
// logits; a scale by a factor that is not a power of two rounds the shifted logits anew).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_PROPERTIES_H
#define SOFTMAX_RUNNER_PROPERTIES_H

#include "softmax/Runner/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax::runner {

/// The shift the shift property adds to every logit.
constexpr double kShift = 96.0;
/// The largest magnitude of an input (logits, biases) under the shift property.
constexpr double kShiftInputBound = 15.0;

/// The properties --property asks for.
struct PropertySet {
  bool shift = false;
  bool rowSum = false;
  bool monotone = false;

  bool any() const { return shift || rowSum || monotone; }
  /// The names of the enabled properties, in the order above.
  std::vector<std::string> names() const;
};

/// Parses a comma-separated list of "shift", "row-sum", "monotone" (or "" / "none" / "all").
bool parsePropertySet(const std::string &text, PropertySet &set, std::string &error);

/// What analyzeProperties found of one output's chain: its logits argument and the reasons,
/// if any, why a property does not apply to it (empty: it applies).
struct OutputChain {
  int logits = -1;                  ///< the tensor argument the chain starts from (-1: none)
  std::vector<int> factorArguments; ///< scalar arguments the chain multiplies by
  std::vector<double> factors;      ///< constant factors the chain multiplies by
  std::vector<int> biasArguments;   ///< tensor arguments the chain adds
  std::string shiftBlocker, monotoneBlocker, rowSumBlocker;
};

/// The chains of `fn`'s results (the unfused program, as the reference evaluates it) and the
/// float tensor arguments the shift property puts on its grid.
struct PropertyAnalysis {
  std::vector<OutputChain> outputs;
  /// Why the shift property does not apply to the program as a whole (every output is
  /// computed from the same shifted inputs); empty: it applies where each output's does.
  std::string shiftBlocker;
  /// The significand bits of the narrowest float type the shifted values pass through (the
  /// grid's precision): 24 for f32, 11 for f16, 8 for bf16.
  int gridBits = 24;
};

/// Analyses `fn` (whose signature is `signature`).
PropertyAnalysis analyzeProperties(mlir::func::FuncOp fn, const Signature &signature);

/// The reason, if any, why the scalar arguments' run-time values (`values`, one vector per
/// argument as generateInputs makes them) keep a property from holding: the shift property
/// needs every factor a power of two (or 0), the monotone one every factor >= 0.
std::string checkFactors(const OutputChain &chain, const std::vector<std::vector<double>> &values,
                         bool forShift);

/// The magnitude the shift property's grid must hold exactly for `chain`, given the run-time
/// values of its scalar arguments: the shifted logit plus every bias, times every factor larger
/// than 1 and, where a bias is added, the inverse of every factor smaller (the scaled logits
/// lie on a finer grid than the bias).
double getShiftMagnitude(const OutputChain &chain, const std::vector<std::vector<double>> &values);

/// Puts `values` (one float tensor) on the shift property's grid: clamped to
/// [-kShiftInputBound, kShiftInputBound] and rounded to multiples of the step on which every
/// value below `magnitude` is exact with `gridBits` significand bits (infinities and NaN kept).
void putOnShiftGrid(std::vector<double> &values, int gridBits, double magnitude);

/// The largest |sum - 1| a row of `width` probabilities of `element` type may have: the
/// roundings to the storage type (half an ulp, relative, or half the smallest subnormal each)
/// and the f32 arithmetic's. With `logarithms`, the row holds log-probabilities and the sum is
/// of their exponentials: a rounding of y by u|y| moves e^y by u|y|e^y, and sum |y|e^y is at
/// most 1 + ln(width) over a distribution.
double rowSumBound(ElementKind element, int64_t width, bool logarithms = false);

/// Counts the pairs of one row that break the monotone property over `rows` rows of `width`:
/// logits[i] < logits[j] but out[i] > out[j] beyond one ulp of `element` (NaN and masked rows
/// skipped). `firstViolation` describes the first ("row 3: logit 0.5 -> 0.25, logit 0.75 ->
/// 0.125"). With `logitScale` (EvaluateOptions::logitScale of the program, laid out as `out`)
/// each pair may also differ by kLogitConditioning times the sum of the two elements' scales,
/// relative to the outputs (absolute for `logarithms`): their f32 logits' errors.
int64_t countMonotoneViolations(const double *logits, const double *out, int64_t rows,
                                int64_t width, ElementKind element, std::string &firstViolation,
                                const double *logitScale = nullptr, bool logarithms = false);

/// What the f32 conditioning of a row's logits adds to rowSumBound: kLogitConditioning times
/// sum_j p_j * logitScale[j] (p_j = out[j], or e^out[j] for `logarithms`), each output's share
/// of its logit's error.
double rowSumConditioning(const double *out, const double *logitScale, int64_t width,
                          bool logarithms);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_PROPERTIES_H
