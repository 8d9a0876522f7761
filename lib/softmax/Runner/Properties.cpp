//===- Properties.cpp - Properties every softmax result must have ----------===//

#include "softmax/Runner/Properties.h"
#include "softmax/Runner/Compare.h"

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace ::softmax::runner;
namespace dialect = mlir::softmax;

std::vector<std::string> PropertySet::names() const {
  std::vector<std::string> result;
  if (shift)
    result.push_back("shift");
  if (rowSum)
    result.push_back("row-sum");
  if (monotone)
    result.push_back("monotone");
  return result;
}

bool ::softmax::runner::parsePropertySet(const std::string &text, PropertySet &set,
                                       std::string &error) {
  set = PropertySet();
  if (text.empty() || text == "none")
    return true;
  if (text == "all") {
    set.shift = set.rowSum = set.monotone = true;
    return true;
  }
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(text).split(names, ',');
  for (llvm::StringRef name : names) {
    if (name == "shift")
      set.shift = true;
    else if (name == "row-sum")
      set.rowSum = true;
    else if (name == "monotone")
      set.monotone = true;
    else {
      error = "--property: unknown property '" + name.str() +
              "' (expected shift, row-sum, monotone, all or none)";
      return false;
    }
  }
  return true;
}

namespace {

/// Sets `blocker` to `why` unless it already holds a reason.
void block(std::string &blocker, const llvm::Twine &why) {
  if (blocker.empty())
    blocker = why.str();
}

/// The tensor or scalar argument `value` is, looking through casts; -1 when it is computed.
int argumentOf(Value value) {
  while (auto cast = value.getDefiningOp<dialect::CastOp>())
    value = cast.getInput();
  auto argument = dyn_cast<BlockArgument>(value);
  return argument ? static_cast<int>(argument.getArgNumber()) : -1;
}

/// Walks one output's chain back from its value to the logits argument.
class ChainTracer {
public:
  ChainTracer(OutputChain &chain, int &gridBits) : chain(chain), gridBits(gridBits) {}

  void trace(Value result) {
    // Casts after the normalization change nothing the properties look at.
    Operation *op = result.getDefiningOp();
    while (auto cast = dyn_cast_or_null<dialect::CastOp>(op))
      op = cast.getInput().getDefiningOp();
    Value input;
    bool lastAxis = false;
    auto isLast = [](int64_t axis, Value in) {
      return axis == cast<RankedTensorType>(in.getType()).getRank() - 1;
    };
    if (auto softmax = dyn_cast_or_null<dialect::SoftmaxOp>(op)) {
      input = softmax.getInput();
      lastAxis = isLast(softmax.getNormalizedAxis(), input);
    } else if (auto logSoftmax = dyn_cast_or_null<dialect::LogSoftmaxOp>(op)) {
      input = logSoftmax.getInput();
      lastAxis = isLast(logSoftmax.getNormalizedAxis(), input);
    } else if (auto fused = dyn_cast_or_null<dialect::FusedOp>(op);
               fused && fused.getNormalization() != dialect::Normalization::none) {
      input = fused.getInput();
      lastAxis = isLast(fused.getNormalizedAxis(), input);
      traceFusedPrologue(fused);
    } else {
      std::string why = "the result is not a softmax or log_softmax";
      block(chain.shiftBlocker, why);
      block(chain.monotoneBlocker, why);
      block(chain.rowSumBlocker, why);
      return;
    }
    if (!lastAxis) {
      block(chain.monotoneBlocker, "a softmax over another axis than the last");
      block(chain.rowSumBlocker, "a softmax over another axis than the last");
    }
    traceInput(input);
  }

private:
  void precisionOf(Type type) {
    if (auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
      gridBits = std::min<int>(
          gridBits, static_cast<int>(llvm::APFloat::semanticsPrecision(
                        floatType.getFloatSemantics())));
  }

  void factor(double value) { chain.factors.push_back(value); }

  void scalarFactor(Value operand) {
    int argument = argumentOf(operand);
    if (argument < 0) {
      block(chain.shiftBlocker, "a scale by a computed factor");
      block(chain.monotoneBlocker, "a scale by a computed factor");
      return;
    }
    chain.factorArguments.push_back(argument);
  }

  void bias(Value operand) {
    block(chain.monotoneBlocker, "a bias (it reorders the logits)");
    int argument = argumentOf(operand);
    if (argument < 0) {
      block(chain.shiftBlocker, "a computed bias");
      return;
    }
    precisionOf(operand.getType());
    chain.biasArguments.push_back(argument);
  }

  void mask(double fill) {
    block(chain.monotoneBlocker, "a mask (removed elements do not follow their logits)");
    if (!std::isinf(fill) || fill > 0)
      block(chain.shiftBlocker,
            llvm::formatv("a mask with the finite fill {0} (the shift does not move it)", fill)
                .str());
  }

  void traceFusedPrologue(dialect::FusedOp fused) {
    for (Attribute step : fused.getPrologue()) {
      if (auto scale = dyn_cast<dialect::ScaleStepAttr>(step))
        factor(scale.getFactor().convertToDouble());
      else if (auto scaleBy = dyn_cast<dialect::ScaleByStepAttr>(step))
        scalarFactor(fused.getSideOperands()[scaleBy.getOperand()]);
      else if (auto biasStep = dyn_cast<dialect::BiasStepAttr>(step))
        bias(fused.getSideOperands()[biasStep.getOperand()]);
      else if (auto maskStep = dyn_cast<dialect::MaskStepAttr>(step))
        mask(maskStep.getFill().convertToDouble());
      else if (auto round = dyn_cast<dialect::RoundStepAttr>(step))
        precisionOf(round.getType());
    }
  }

  void traceInput(Value value) {
    for (;;) {
      precisionOf(value.getType());
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        chain.logits = static_cast<int>(argument.getArgNumber());
        return;
      }
      Operation *op = value.getDefiningOp();
      if (auto cast = dyn_cast<dialect::CastOp>(op)) {
        value = cast.getInput();
      } else if (auto scale = dyn_cast<dialect::ScaleOp>(op)) {
        if (FloatAttr constant = scale.getFactorAttr())
          factor(constant.getValueAsDouble());
        else
          scalarFactor(scale.getDynamicFactor());
        value = scale.getInput();
      } else if (auto addBias = dyn_cast<dialect::AddBiasOp>(op)) {
        bias(addBias.getBias());
        value = addBias.getInput();
      } else if (auto maskOp = dyn_cast<dialect::MaskOp>(op)) {
        mask(maskOp.getFill().convertToDouble());
        value = maskOp.getInput();
      } else if (auto fused = dyn_cast<dialect::FusedOp>(op);
                 fused && fused.getNormalization() == dialect::Normalization::none) {
        traceFusedPrologue(fused);
        value = fused.getInput();
      } else {
        std::string why =
            "the logits are computed by " + (op ? op->getName().getStringRef().str() : "?");
        block(chain.shiftBlocker, why);
        block(chain.monotoneBlocker, why);
        return;
      }
    }
  }

  OutputChain &chain;
  int &gridBits;
};

bool isPowerOfTwoOrZero(double value) {
  if (value == 0)
    return true;
  if (!std::isfinite(value))
    return false;
  int exponent;
  return std::fabs(std::frexp(value, &exponent)) == 0.5;
}

} // namespace

auto ::softmax::runner::analyzeProperties(func::FuncOp fn, const Signature &signature)
    -> PropertyAnalysis {
  PropertyAnalysis analysis;
  Operation *terminator = fn.getBody().back().getTerminator();
  for (Value result : terminator->getOperands()) {
    OutputChain chain;
    ChainTracer(chain, analysis.gridBits).trace(result);
    analysis.outputs.push_back(std::move(chain));
  }
  // The shift moves the inputs of every output at once: they must agree on which argument the
  // logits are, and no argument may be both logits and a bias.
  int logits = -1;
  for (const OutputChain &chain : analysis.outputs) {
    if (!chain.shiftBlocker.empty()) {
      block(analysis.shiftBlocker, chain.shiftBlocker);
      continue;
    }
    if (logits >= 0 && chain.logits != logits)
      block(analysis.shiftBlocker, "the results' softmaxes read different logits");
    logits = chain.logits;
  }
  for (const OutputChain &chain : analysis.outputs)
    if (llvm::is_contained(chain.biasArguments, logits))
      block(analysis.shiftBlocker, "the logits are also added as a bias");
  if (logits >= 0 && (logits >= static_cast<int>(signature.inputs.size()) ||
                      !signature.inputs[logits].isTensor ||
                      !isFloatKind(signature.inputs[logits].element)))
    block(analysis.shiftBlocker, "the logits are not a float tensor argument");
  if (analysis.outputs.empty())
    block(analysis.shiftBlocker, "the function returns nothing");
  return analysis;
}

auto ::softmax::runner::checkFactors(const OutputChain &chain,
                                   const std::vector<std::vector<double>> &values, bool forShift)
    -> std::string {
  std::vector<double> factors = chain.factors;
  for (int argument : chain.factorArguments)
    if (argument < static_cast<int>(values.size()) && !values[argument].empty())
      factors.push_back(values[argument].front());
  for (double factor : factors) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", factor);
    if (forShift && !isPowerOfTwoOrZero(factor))
      return std::string("a scale by ") + text +
             " (not a power of two: the shifted logits would round anew)";
    if (!forShift && !(factor >= 0))
      return std::string("a scale by ") + text + " (a negative factor reverses the order)";
  }
  return "";
}

double ::softmax::runner::getShiftMagnitude(const OutputChain &chain,
                                          const std::vector<std::vector<double>> &values) {
  double magnitude =
      kShift + kShiftInputBound * (1 + static_cast<double>(chain.biasArguments.size()));
  std::vector<double> factors = chain.factors;
  for (int argument : chain.factorArguments)
    if (argument < static_cast<int>(values.size()) && !values[argument].empty())
      factors.push_back(values[argument].front());
  // A factor below 1 puts the scaled logits on a finer grid than a bias added after it: the
  // sum is exact when the grid is as much coarser (the inverse factor counts as its magnitude).
  // Without a bias, a scale by a power of two is exact at any magnitude.
  bool biased = !chain.biasArguments.empty();
  for (double factor : factors)
    if (factor != 0)
      magnitude *= std::max({1.0, std::fabs(factor), biased ? 1 / std::fabs(factor) : 1.0});
  return magnitude;
}

void ::softmax::runner::putOnShiftGrid(std::vector<double> &values, int gridBits,
                                     double magnitude) {
  // Every multiple of 2^(e - bits) below 2^e is exact with `bits` significand bits.
  int exponent = static_cast<int>(std::ceil(std::log2(std::max(magnitude, 1.0))));
  double step = std::ldexp(1.0, exponent - gridBits);
  for (double &value : values) {
    if (!std::isfinite(value))
      continue;
    value = std::clamp(value, -kShiftInputBound, kShiftInputBound);
    value = std::nearbyint(value / step) * step;
  }
}

double ::softmax::runner::rowSumBound(ElementKind element, int64_t width, bool logarithms) {
  // Each element rounds once to the storage type: half an ulp relative (the unit roundoff u),
  // or, below the smallest normal, up to half the smallest subnormal; summed over a row of
  // probabilities, at most u + width * subnormal / 2. The f32 arithmetic (exp2.approx, the sum's
  // additions, the reciprocal) adds a few f32 ulps and log2(width) for the sum's tree.
  double unitRoundoff, subnormal;
  switch (element) {
  case ElementKind::BF16:
    unitRoundoff = std::ldexp(1.0, -8);
    subnormal = 9.2e-41;
    break;
  case ElementKind::F16:
    unitRoundoff = std::ldexp(1.0, -11);
    subnormal = 5.97e-8;
    break;
  default:
    unitRoundoff = std::ldexp(1.0, -24);
    subnormal = 1.5e-45;
    break;
  }
  double n = static_cast<double>(std::max<int64_t>(width, 1));
  double f32Arithmetic = (8 + std::log2(n)) * std::ldexp(1.0, -23);
  if (logarithms) {
    // Each y rounds by up to u|y| (or by the f32 error of (x - max) - log(sum), whose log is
    // lg2.approx's: 2^-22 absolute, the same shift for the whole row): sum u|y|e^y <= u(1 +
    // ln n). The exponentials of the kernels' outputs are taken exactly here.
    double spread = 1 + std::log(n);
    return 2 * unitRoundoff * spread + std::ldexp(1.0, -20) + f32Arithmetic * spread;
  }
  return 2 * unitRoundoff + f32Arithmetic + n * subnormal / 2;
}

int64_t ::softmax::runner::countMonotoneViolations(const double *logits, const double *out,
                                                 int64_t rows, int64_t width, ElementKind element,
                                                 std::string &firstViolation,
                                                 const double *logitScale, bool logarithms) {
  // Relative: one ulp of the output type, as a rounding to it can split two neighbours by one
  // ulp, plus 16 f32 ulps (2^-19), twice what each of the two outputs may carry from the f32
  // arithmetic: exp2.approx (2 ulps, and not monotone to the last bit), the rescale of a block's
  // or a chunk's partial results by the exp2 of its max's distance to the row's (2 more), the
  // reciprocal and the products. Equal logits in two blocks of a cluster get outputs 4-8 f32
  // ulps apart (seed 28 of the generator on the H200: 57856 f32 columns over 4 blocks).
  double ulp = element == ElementKind::BF16  ? std::ldexp(1.0, -7)
               : element == ElementKind::F16 ? std::ldexp(1.0, -10)
                                             : std::ldexp(1.0, -23);
  ulp += std::ldexp(1.0, -19);
  // Absolute: f32's smallest normal. The kernels' f32 arithmetic flushes subnormal results to
  // zero in some instructions (ex2.approx.ftz) and not in others (the rescale's product), so an
  // output below 2^-126 may be 0 in one block of a cluster and a subnormal in another (seed
  // 3181 of the generator on an H100: logits -4.0990 and -4.0978 scaled by 10 over 57856 bf16
  // columns gave 2.76e-40 and 0).
  const double flushed = std::ldexp(1.0, -126);
  int64_t violations = 0;
  std::vector<int64_t> order(width);
  for (int64_t r = 0; r < rows; ++r) {
    const double *x = logits + r * width;
    const double *y = out + r * width;
    const double *scale = logitScale ? logitScale + r * width : nullptr;
    bool skip = false;
    for (int64_t i = 0; i < width && !skip; ++i)
      skip = std::isnan(x[i]) || std::isnan(y[i]);
    if (skip)
      continue;
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return x[a] < x[b]; });
    // The largest output among strictly smaller logits, against each element's output.
    double largestBelow = -std::numeric_limits<double>::infinity();
    int64_t largestIndex = -1;
    double groupMax = -std::numeric_limits<double>::infinity();
    int64_t groupIndex = -1;
    for (int64_t k = 0; k < width; ++k) {
      int64_t i = order[k];
      if (k > 0 && x[order[k - 1]] < x[i] && groupMax > largestBelow) {
        largestBelow = groupMax;
        largestIndex = groupIndex;
      }
      if (k > 0 && x[order[k - 1]] < x[i]) {
        groupMax = -std::numeric_limits<double>::infinity();
        groupIndex = -1;
      }
      double conditioning =
          scale && largestIndex >= 0
              ? kLogitConditioning * (scale[i] + scale[largestIndex]) *
                    (logarithms ? 1.0 : std::fabs(y[i]))
              : 0.0;
      if (largestIndex >= 0 &&
          largestBelow > y[i] + ulp * std::fabs(y[i]) + flushed + conditioning) {
        if (violations++ == 0) {
          char text[256];
          std::snprintf(text, sizeof(text),
                        "row %lld: logit %.9g at [%lld] gives %.9g, logit %.9g at [%lld] gives "
                        "%.9g",
                        static_cast<long long>(r), x[largestIndex],
                        static_cast<long long>(largestIndex), largestBelow, x[i],
                        static_cast<long long>(i), y[i]);
          firstViolation = text;
        }
      }
      if (y[i] > groupMax) {
        groupMax = y[i];
        groupIndex = i;
      }
    }
  }
  return violations;
}

double ::softmax::runner::rowSumConditioning(const double *out, const double *logitScale,
                                           int64_t width, bool logarithms) {
  double weighted = 0;
  for (int64_t j = 0; j < width; ++j) {
    double p = logarithms ? std::exp(out[j]) : out[j];
    if (std::isfinite(p) && std::isfinite(logitScale[j]))
      weighted += std::fabs(p) * logitScale[j];
  }
  return kLogitConditioning * weighted;
}
