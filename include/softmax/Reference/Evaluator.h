//===- Evaluator.h - The float64 reference for softmax programs -*- C++ -*-===//
//
// Evaluates a softmax-dialect program (a func.func whose body holds softmax.* ops and
// func.return) on host data in double precision, with the documented meaning of each op. It is
// the independent reference the runner checks compiled kernels against, so it shares nothing with
// the GPU lowering: it interprets the ops one at a time, in program order.
//
// Precision contract (see docs/reference.md):
//  - every value is a double; only softmax.cast, #softmax.round steps and the store of a
//    softmax.fused result round (to nearest even, through FloatFormats.h);
//  - function results are returned unrounded; roundToStorage() rounds them to their declared
//    types, as the runner does before comparing.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_REFERENCE_EVALUATOR_H
#define SOFTMAX_REFERENCE_EVALUATOR_H

#include "softmax/Reference/FloatFormats.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func

namespace softmax::reference {

/// A dense row-major (packed, last dimension contiguous) tensor. Every element type is held as a
/// double: floats exactly, i1 as 0 or 1, i32 / i64 as their (exactly representable) values.
struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<double> data;

  HostTensor() = default;
  HostTensor(std::vector<int64_t> shape, std::vector<double> data)
      : shape(std::move(shape)), data(std::move(data)) {}
  /// A tensor of `shape` filled with `value`.
  static HostTensor filled(std::vector<int64_t> shape, double value);

  /// The product of the dimensions (1 for rank 0).
  int64_t getNumElements() const;
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
};

/// A function argument or result: a ranked tensor or a scalar (float, integer or index, as a
/// double).
struct HostValue {
  bool isTensor = false;
  double scalar = 0.0; // when !isTensor
  HostTensor tensor;   // when isTensor

  static HostValue ofScalar(double value);
  static HostValue ofTensor(HostTensor tensor);
};

/// How an evaluation treats intermediates.
struct EvaluateOptions {
  /// Round the result of every prologue step (softmax.scale, softmax.add_bias, softmax.mask and
  /// a softmax.fused op's scale, bias and mask steps) to f32, as the kernels' f32 arithmetic
  /// rounds (approximately: not their fused multiply-adds). Off, the reference: every value a
  /// double. A diagnostic of how far an f32 evaluation moves a program's results
  /// (the runner's second admissible result, docs/reference.md).
  bool f32Intermediates = false;
  /// At every intermediate rounding to f16 or bf16 (softmax.cast and #softmax.round steps; not
  /// the store of a result), a value within kNearTieWindow of the midpoint between two
  /// neighbouring 16-bit values rounds to the neighbour that to-nearest-even does not choose.
  /// The kernels compute such a value in f32 (with fused multiply-adds, steps softmax-fuse may
  /// combine), a few f32 ulps from the double, so at a near tie either neighbour is what the
  /// dialect's precision rule allows (docs/reference.md): the runner's third admissible result.
  bool flipNearTies = false;
  /// Instead of normalizing, each softmax and log_softmax (and softmax.fused) writes in every
  /// element of a slice `|z_i| + M`: z its logit, M the largest |z_j| of the slice over the
  /// logits that are finite and not negligible (z_j >= max - kNegligibleLogitGap, whose exp
  /// f32 cannot hold). Nothing rounds (no cast, round step, f32 intermediate or store), so the
  /// magnitudes stay whole. Elements of slices without a finite maximum (fully masked, +inf)
  /// and non-finite logits get 0. The runner scales its tolerance by this: an f32 logit is
  /// off its exact value by a few ulps of its magnitude, which moves the probability relative
  /// to it by as many ulps of these (docs/reference.md, "The conditioning of large logits").
  /// A normalization of another's result would see magnitudes rather than probabilities: the
  /// magnitudes are those of a result's last normalization only where its chain has one (as
  /// every generated and example program does).
  bool logitScale = false;
};

/// Logits this far below their slice's maximum have an exp below f32's smallest subnormal
/// (e^-104 < 2^-149): they do not move the other probabilities, whatever their error.
constexpr double kNegligibleLogitGap = 104.0;

/// The half-width of a near tie, relative to the value: 8 f32 ulps (2^-21). Wider than the f32
/// error of a few prologue steps, far narrower than half a 16-bit ulp (2^-9 for bf16, 2^-12 for
/// f16), so only values that are nearly halfway between two 16-bit values count.
constexpr double kNearTieWindow = 0x1p-21;

/// `value` rounded to `format` (f16 or bf16; others round to nearest even as roundTo does), to
/// the other neighbour when `value` is within kNearTieWindow * |value| of their midpoint.
double roundFlippingNearTie(double value, FloatFormat format);

/// Evaluates `fn` on `args` (one per function argument, in order). Tensor arguments give the
/// dynamic dimensions; their shapes must agree with the declared types. Float arguments are taken
/// as they are (they are expected to be representable in their declared types already).
///
/// Supported ops: softmax.softmax, softmax.log_softmax, softmax.scale, softmax.add_bias,
/// softmax.mask, softmax.cast, softmax.fused, arith.constant (float / integer scalars and dense
/// tensors) and func.return. Anything else fails with `error` naming the op and its location;
/// so do run-time shape mismatches (a dynamic dimension that does not broadcast).
///
/// The results are not rounded to their declared types: call roundToStorage() for that.
llvm::FailureOr<std::vector<HostValue>> evaluate(func::FuncOp fn, llvm::ArrayRef<HostValue> args,
                                                 std::string &error,
                                                 EvaluateOptions options = {});

/// evaluate(), taking the arguments over instead of copying them: their tensors become the
/// working storage of the ops (a chain on a large tensor then needs no second copy of it), and
/// `args` is moved from.
llvm::FailureOr<std::vector<HostValue>>
evaluateConsuming(func::FuncOp fn, std::vector<HostValue> &&args, std::string &error,
                  EvaluateOptions options = {});

/// The float format of `type` (f64, f32, f16, bf16), or nothing for other types.
std::optional<FloatFormat> getFloatFormat(Type type);

/// `value` rounded to the float type `type` (f64, f32, f16 or bf16); other types leave it as is.
double roundTo(double value, Type type);

/// Rounds `value` in place to the storage type `type`: a float type or a tensor of floats rounds
/// every element to nearest even; integer types are left as they are. This is what the runner
/// applies to each result of evaluate() before comparing (results are stored in their types).
void roundToStorage(HostValue &value, Type type);

/// roundToStorage() for every result of `fn`, with the result types of its signature.
void roundResultsToStorage(func::FuncOp fn, std::vector<HostValue> &results);

} // namespace softmax::reference
} // namespace mlir

#endif // SOFTMAX_REFERENCE_EVALUATOR_H
