//===- Inputs.h - Reproducible inputs for the runner ------------*- C++ -*-===//
//
// Every input comes from --seed, so that a failing case can be re-run exactly:
//  - float tensors: normal(0, scale) (or uniform in [-scale, scale]), rounded to their storage
//    type; the --special cases are applied to the first float tensor, row by row;
//  - i32 / i64 (and other integer) tensors, the padding lengths: uniform in [0, lengthsMax],
//    with exact 0s and lengthsMax included (positions i % 16 == 0 and 1);
//  - i1 tensors, the boolean masks: true (keep) with probability maskDensity;
//  - float scalars: --scalar (rounded to their type); integer scalars: --scalar rounded.
// Values are produced as doubles that are exactly representable in the storage type, so the same
// numbers go to the device (encoded) and to the float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_INPUTS_H
#define SOFTMAX_RUNNER_INPUTS_H

#include "softmax/Runner/Signature.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax::runner {

enum class Distribution { Normal, Uniform };

/// Special values for the first float tensor (--special=...).
struct SpecialCases {
  bool negInfRows = false;   ///< "neg-inf-rows": every element of some rows is -inf
  bool posInf = false;       ///< "pos-inf": one +inf in some rows
  bool nan = false;          ///< "nan": one NaN in some rows
  bool large = false;        ///< "large": one +1e30 and many -1e30 in some rows (capped for f16)
  bool constantRows = false; ///< "constant-rows": every element of some rows is the same

  /// The names of the enabled cases, in the order above.
  std::vector<std::string> names() const;
};

/// Parses a comma-separated list of the names above (or "" / "none" / "all").
bool parseSpecialCases(const std::string &text, SpecialCases &cases, std::string &error);

struct InputOptions {
  uint64_t seed = 1;
  Distribution distribution = Distribution::Normal;
  double scale = 1.0;
  SpecialCases special;
  int64_t lengthsMax = -1; ///< -1: the row width of the first float tensor
  double maskDensity = 0.9;
  double scalar = 0.7;
};

/// One vector of doubles per input (tensors packed row-major; a scalar is one value), each
/// exactly representable in its storage type. `notes` receives one line per special case saying
/// which rows it went to.
std::vector<std::vector<double>> generateInputs(const std::vector<ArgSpec> &inputs,
                                                const InputOptions &options,
                                                std::vector<std::string> &notes);

// The pieces of generateInputs that inputs generated on the device (softmax-run --inputs=device)
// share with the host ones.

/// The seed of argument `index`'s values (every argument has its own stream).
uint64_t getArgumentSeed(uint64_t seed, size_t index);
/// The largest integer input: options.lengthsMax, or the row width of the first float tensor.
int64_t resolveLengthsMax(const std::vector<ArgSpec> &inputs, const InputOptions &options);
/// The value of a scalar argument (--scalar, rounded to its type; integers rounded first).
double getScalarInput(const ArgSpec &spec, const InputOptions &options);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_INPUTS_H
