//===- Evaluator.cpp - The float64 reference for softmax programs ---------===//
//
// An interpreter of the softmax dialect on host doubles. Each op is a whole-tensor loop written
// from the op's documented meaning (SoftmaxOps.td); softmax.fused replays its prologue steps with
// the same loops as the ops they stand for, so a fused op and its unfused chain mean the same by
// construction.
//
// Layout: every tensor is packed row-major. Index-dependent loops walk the tensor one innermost
// row (last dimension) at a time, with the multi-index of the leading dimensions kept in an
// odometer and broadcast operands read through per-dimension strides (0 where they broadcast), so
// there is no per-element index arithmetic beyond a multiply-add. The reductions of softmax and
// log_softmax run over `axis` for a block of `inner` contiguous rows at once (the dimensions after
// the axis), which keeps every pass sequential in memory for any axis.
//
// Memory: an op overwrites its input tensor in place when it is that value's last use, so a chain
// of ops on a large tensor holds about one copy of it at a time.
//
//===----------------------------------------------------------------------===//

#include "softmax/Reference/Evaluator.h"

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::softmax;
using namespace mlir::softmax::reference;

//===----------------------------------------------------------------------===//
// HostTensor, HostValue, rounding helpers
//===----------------------------------------------------------------------===//

HostTensor HostTensor::filled(std::vector<int64_t> shape, double value) {
  HostTensor t;
  t.shape = std::move(shape);
  t.data.assign(static_cast<size_t>(t.getNumElements()), value);
  return t;
}

int64_t HostTensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

HostValue HostValue::ofScalar(double value) {
  HostValue v;
  v.isTensor = false;
  v.scalar = value;
  return v;
}

HostValue HostValue::ofTensor(HostTensor tensor) {
  HostValue v;
  v.isTensor = true;
  v.tensor = std::move(tensor);
  return v;
}

double mlir::softmax::reference::roundFlippingNearTie(double value, FloatFormat format) {
  double nearest = roundTo(value, format);
  if ((format != FloatFormat::F16 && format != FloatFormat::BF16) || !std::isfinite(value))
    return nearest;
  // Within the window of a midpoint exactly when moving the value by the window's width one way
  // or the other changes its rounding (the window is far below half an ulp of the format).
  double delta = kNearTieWindow * std::fabs(value);
  double below = roundTo(value - delta, format), above = roundTo(value + delta, format);
  if (below == above)
    return nearest;
  return below != nearest ? below : above;
}

std::optional<FloatFormat> mlir::softmax::reference::getFloatFormat(Type type) {
  if (type.isF64())
    return FloatFormat::F64;
  if (type.isF32())
    return FloatFormat::F32;
  if (type.isF16())
    return FloatFormat::F16;
  if (type.isBF16())
    return FloatFormat::BF16;
  return std::nullopt;
}

double mlir::softmax::reference::roundTo(double value, Type type) {
  if (std::optional<FloatFormat> format = getFloatFormat(type))
    return roundTo(value, *format);
  return value;
}

void mlir::softmax::reference::roundToStorage(HostValue &value, Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (std::optional<FloatFormat> format = getFloatFormat(shaped.getElementType()))
      roundAllTo(value.tensor.data.data(), static_cast<int64_t>(value.tensor.data.size()), *format);
    return;
  }
  value.scalar = roundTo(value.scalar, type);
}

void mlir::softmax::reference::roundResultsToStorage(func::FuncOp fn,
                                                     std::vector<HostValue> &results) {
  ArrayRef<Type> types = fn.getFunctionType().getResults();
  for (size_t i = 0; i < results.size() && i < types.size(); ++i)
    roundToStorage(results[i], types[i]);
}

//===----------------------------------------------------------------------===//
// Shape helpers
//===----------------------------------------------------------------------===//

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "[]";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

/// An APFloat attribute value as a double (the dialect stores f64 values; converting first keeps
/// this right for any other semantics too).
double toDouble(APFloat value) {
  bool losesInfo = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

/// Read strides of a tensor of shape `from` broadcast (NumPy: trailing alignment, each dimension
/// 1 or equal) to the shape `to`: one stride per dimension of `to`, 0 along the dimensions that
/// `from` lacks or has as 1. Fails, saying why in `why`, when the shapes do not broadcast.
LogicalResult broadcastStrides(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                               std::vector<int64_t> &strides, std::string &why) {
  if (from.size() > to.size()) {
    why = "shape " + formatShape(from) + " has more dimensions than " + formatShape(to);
    return failure();
  }
  strides.assign(to.size(), 0);
  size_t lead = to.size() - from.size();
  int64_t stride = 1;
  for (size_t i = from.size(); i-- > 0;) {
    int64_t f = from[i], t = to[lead + i];
    if (f != t && f != 1) {
      why = "shape " + formatShape(from) + " does not broadcast to " + formatShape(to) +
            ": dimension " + std::to_string(i) + " has size " + std::to_string(f) +
            ", expected 1 or " + std::to_string(t);
      return failure();
    }
    strides[lead + i] = (f == 1) ? 0 : stride;
    stride *= f;
  }
  return success();
}

/// sum_d index[d] * strides[d] over the leading dimensions (all but the last).
inline int64_t rowOffset(const std::vector<int64_t> &index, const std::vector<int64_t> &strides) {
  int64_t offset = 0;
  for (size_t d = 0; d + 1 < index.size(); ++d)
    offset += index[d] * strides[d];
  return offset;
}

/// Calls `fn(index, row)` for each innermost row of a tensor of `shape` (rank >= 1) in row-major
/// order: `index` holds the indices of the leading dimensions (its last entry is 0) and `row` the
/// flat offset of the row's first element. Nothing is called for an empty tensor.
template <typename Fn> void forEachRow(ArrayRef<int64_t> shape, Fn &&fn) {
  size_t rank = shape.size();
  for (int64_t d : shape)
    if (d == 0)
      return;
  int64_t width = shape[rank - 1];
  std::vector<int64_t> index(rank, 0);
  for (int64_t row = 0;; row += width) {
    fn(static_cast<const std::vector<int64_t> &>(index), row);
    // Advance the odometer over dimensions rank-2 .. 0.
    size_t d = rank - 1;
    while (d > 0) {
      --d;
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (rank == 1)
      return;
  }
}

//===----------------------------------------------------------------------===//
// The element loops: one per op meaning, shared by the unfused ops and the fused prologue
//===----------------------------------------------------------------------===//

/// softmax / log_softmax of one contiguous row of `n` elements, in place. m = the row maximum,
/// e_j = exp(x_j - m), s = sum e_j; softmax e_j / s, log_softmax (x_j - m) - log(s). NaN elements
/// are skipped by the maximum and reach every result through exp(NaN) in the sum; +inf makes
/// m = +inf and every result NaN (inf - inf). A row with no element above -inf is fully masked
/// (`maskedValue`) unless it holds a NaN.
void normalizeRow(double *x, int64_t n, bool logSoftmax, double maskedValue) {
  double m = kNegInf;
  for (int64_t j = 0; j < n; ++j)
    m = x[j] > m ? x[j] : m;
  if (m == kNegInf) {
    bool hasNaN = false;
    for (int64_t j = 0; j < n; ++j)
      hasNaN |= std::isnan(x[j]);
    std::fill(x, x + n, hasNaN ? std::numeric_limits<double>::quiet_NaN() : maskedValue);
    return;
  }
  double s = 0.0;
  if (logSoftmax) {
    for (int64_t j = 0; j < n; ++j)
      s += std::exp(x[j] - m);
    double logSum = std::log(s);
    for (int64_t j = 0; j < n; ++j)
      x[j] = (x[j] - m) - logSum;
  } else {
    for (int64_t j = 0; j < n; ++j) {
      double e = std::exp(x[j] - m);
      x[j] = e; // kept for the division below
      s += e;
    }
    for (int64_t j = 0; j < n; ++j)
      x[j] = x[j] / s;
  }
}

/// softmax / log_softmax along `axis`, in place, with the formula and rules of normalizeRow. A
/// fully masked row (every element -inf) follows `policy`.
void normalize(HostTensor &t, int64_t axis, bool logSoftmax, MaskedRows policy) {
  int64_t outer = 1, inner = 1, n = t.shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= t.shape[d];
  for (int64_t d = axis + 1; d < t.getRank(); ++d)
    inner *= t.shape[d];
  if (outer == 0 || inner == 0 || n == 0)
    return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double maskedValue = policy == MaskedRows::nan ? nan : logSoftmax ? kNegInf : 0.0;

  // The last axis: contiguous rows.
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o)
      normalizeRow(t.data.data() + o * n, n, logSoftmax, maskedValue);
    return;
  }

  // Another axis: the dimensions after it make `inner` rows that interleave element by element
  // (row c of a block holds base[c + j * inner], j in [0, n)). Each pass walks the block in
  // memory order and updates all its rows at once.
  std::vector<double> maxes(inner), sums(inner), logSums(inner), fixedValues(inner);
  for (int64_t o = 0; o < outer; ++o) {
    double *base = t.data.data() + o * n * inner;

    std::fill(maxes.begin(), maxes.end(), kNegInf);
    for (int64_t j = 0; j < n; ++j) {
      const double *x = base + j * inner;
      for (int64_t c = 0; c < inner; ++c)
        maxes[c] = x[c] > maxes[c] ? x[c] : maxes[c];
    }

    // Rows with no element above -inf: fully masked, or NaN if the row holds one. Their value
    // is decided here, before the next pass overwrites the elements.
    for (int64_t c = 0; c < inner; ++c) {
      if (maxes[c] != kNegInf)
        continue;
      bool hasNaN = false;
      for (int64_t j = 0; j < n; ++j)
        hasNaN |= std::isnan(base[c + j * inner]);
      fixedValues[c] = hasNaN ? nan : maskedValue;
    }

    std::fill(sums.begin(), sums.end(), 0.0);
    for (int64_t j = 0; j < n; ++j) {
      double *x = base + j * inner;
      for (int64_t c = 0; c < inner; ++c) {
        double e = std::exp(x[c] - maxes[c]);
        sums[c] += e;
        if (!logSoftmax)
          x[c] = e; // kept for the division below
      }
    }

    if (logSoftmax)
      for (int64_t c = 0; c < inner; ++c)
        if (maxes[c] != kNegInf)
          logSums[c] = std::log(sums[c]);
    for (int64_t j = 0; j < n; ++j) {
      double *x = base + j * inner;
      for (int64_t c = 0; c < inner; ++c) {
        if (maxes[c] == kNegInf)
          x[c] = fixedValues[c];
        else if (logSoftmax)
          x[c] = (x[c] - maxes[c]) - logSums[c];
        else
          x[c] = x[c] / sums[c];
      }
    }
  }
}

/// EvaluateOptions::logitScale's stand-in for normalize(): each element of a slice along
/// `axis` becomes |z_i| + M (M the largest |z_j| of the slice's finite logits within
/// kNegligibleLogitGap of its maximum; 0 for non-finite logits and slices without a finite
/// maximum), in place.
void logitScales(HostTensor &t, int64_t axis) {
  int64_t outer = 1, inner = 1, n = t.shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= t.shape[d];
  for (int64_t d = axis + 1; d < t.getRank(); ++d)
    inner *= t.shape[d];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < inner; ++c) {
      double *x = t.data.data() + o * n * inner + c;
      double m = kNegInf;
      for (int64_t j = 0; j < n; ++j)
        m = x[j * inner] > m ? x[j * inner] : m;
      double largest = 0;
      bool finiteMax = std::isfinite(m);
      if (finiteMax)
        for (int64_t j = 0; j < n; ++j)
          if (std::isfinite(x[j * inner]) && x[j * inner] >= m - kNegligibleLogitGap)
            largest = std::max(largest, std::fabs(x[j * inner]));
      for (int64_t j = 0; j < n; ++j) {
        double &v = x[j * inner];
        v = finiteMax && std::isfinite(v) ? std::fabs(v) + largest : 0.0;
      }
    }
  }
}

void scaleAll(HostTensor &t, double factor) {
  for (double &v : t.data)
    v *= factor;
}

/// x + broadcast(bias), in place.
LogicalResult addBias(HostTensor &t, const HostTensor &bias, std::string &why) {
  std::vector<int64_t> strides;
  if (failed(broadcastStrides(bias.shape, t.shape, strides, why))) {
    why = "bias " + why;
    return failure();
  }
  int64_t width = t.shape.back(), step = strides.back();
  double *x = t.data.data();
  const double *b = bias.data.data();
  forEachRow(t.shape, [&](const std::vector<int64_t> &index, int64_t row) {
    const double *br = b + rowOffset(index, strides);
    for (int64_t k = 0; k < width; ++k)
      x[row + k] += br[k * step];
  });
  return success();
}

/// softmax.mask, in place: removed elements become `fill`. `operand` is the lengths (padding) or
/// the i1 mask (tensor), null for causal. `axis` is in [0, rank).
LogicalResult applyMask(HostTensor &t, MaskKind kind, const HostTensor *operand, int64_t axis,
                        int64_t offset, double fill, std::string &why) {
  const int64_t rank = t.getRank(), last = rank - 1, width = t.shape[last];
  double *x = t.data.data();

  switch (kind) {
  case MaskKind::padding: {
    // Lengths broadcast to the row shape (the input shape without `axis`); as strides over the
    // input's dimensions that is a stride of 0 along `axis`.
    std::vector<int64_t> rowShape(t.shape);
    rowShape.erase(rowShape.begin() + axis);
    std::vector<int64_t> rowStrides;
    if (failed(broadcastStrides(operand->shape, rowShape, rowStrides, why))) {
      why = "lengths " + why;
      return failure();
    }
    std::vector<int64_t> strides(rowStrides);
    strides.insert(strides.begin() + axis, 0);
    const double *lengths = operand->data.data();
    int64_t step = strides[last];
    forEachRow(t.shape, [&](const std::vector<int64_t> &index, int64_t row) {
      const double *lr = lengths + rowOffset(index, strides);
      if (axis == last) {
        // One length for the whole row: columns from max(length, 0) on are removed.
        double length = lr[0];
        for (int64_t k = 0; k < width; ++k)
          if (static_cast<double>(k) >= length)
            x[row + k] = fill;
      } else {
        // The column is fixed for this innermost row; the length varies along it.
        double column = static_cast<double>(index[axis]);
        for (int64_t k = 0; k < width; ++k)
          if (column >= lr[k * step])
            x[row + k] = fill;
      }
    });
    return success();
  }

  case MaskKind::causal: {
    // Query i is the index of dimension axis - 1 (never the last), column j that of `axis`.
    forEachRow(t.shape, [&](const std::vector<int64_t> &index, int64_t row) {
      int64_t query = index[axis - 1];
      if (axis == last) {
        for (int64_t k = 0; k < width; ++k)
          if (k > query + offset)
            x[row + k] = fill;
      } else if (index[axis] > query + offset) {
        for (int64_t k = 0; k < width; ++k)
          x[row + k] = fill;
      }
    });
    return success();
  }

  case MaskKind::tensor: {
    std::vector<int64_t> strides;
    if (failed(broadcastStrides(operand->shape, t.shape, strides, why))) {
      why = "mask " + why;
      return failure();
    }
    const double *mask = operand->data.data();
    int64_t step = strides[last];
    forEachRow(t.shape, [&](const std::vector<int64_t> &index, int64_t row) {
      const double *mr = mask + rowOffset(index, strides);
      for (int64_t k = 0; k < width; ++k)
        if (mr[k * step] == 0.0) // false removes, true keeps
          x[row + k] = fill;
    });
    return success();
  }
  }
  why = "unknown mask kind";
  return failure();
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Evaluator {
public:
  Evaluator(std::string &error, EvaluateOptions options) : error(error), options(options) {}

  /// Evaluates `fn` on `args`, moving them out of `owned` (the same values) when it is given.
  FailureOr<std::vector<HostValue>> run(func::FuncOp fn, ArrayRef<HostValue> args,
                                        std::vector<HostValue> *owned);

private:
  /// Fails with "<op name> at <location>: <message>".
  LogicalResult fail(Operation *op, const Twine &message) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "'" << op->getName() << "' at " << op->getLoc() << ": " << message;
    error = std::move(s);
    return failure();
  }

  LogicalResult bindArguments(func::FuncOp fn, ArrayRef<HostValue> args,
                              std::vector<HostValue> *owned);
  LogicalResult evaluateOp(Operation *op);
  LogicalResult evaluateFused(FusedOp op, HostTensor &t);
  LogicalResult evaluateConstant(arith::ConstantOp op);

  /// The tensor of `value`, read-only.
  const HostTensor &tensor(Value value) { return env.find(value)->second.tensor; }
  /// The tensor of `value` for an op to overwrite: moved out when the op is its last use,
  /// copied otherwise.
  HostTensor takeTensor(Value value);
  /// The scalar of `value`; fails on a tensor.
  FailureOr<double> scalar(Operation *op, Value value);
  /// Drops the values whose last use is `op`.
  void release(Operation *op);

  /// An intermediate rounding (softmax.cast, a #softmax.round step) to `format`: near ties
  /// rounded the other way with EvaluateOptions::flipNearTies.
  void roundIntermediate(HostTensor &t, FloatFormat format) const {
    if (options.logitScale)
      return;
    if (!options.flipNearTies) {
      roundAllTo(t.data.data(), static_cast<int64_t>(t.data.size()), format);
      return;
    }
    for (double &value : t.data)
      value = roundFlippingNearTie(value, format);
  }

  /// normalize(), or logitScales() with EvaluateOptions::logitScale.
  void normalizeOrScale(HostTensor &t, int64_t axis, bool logSoftmax, MaskedRows policy) const {
    if (options.logitScale)
      logitScales(t, axis);
    else
      normalize(t, axis, logSoftmax, policy);
  }

  /// After a prologue step: rounds to f32 with EvaluateOptions::f32Intermediates.
  void stepDone(HostTensor &t) const {
    if (options.f32Intermediates && !options.logitScale)
      roundAllTo(t.data.data(), static_cast<int64_t>(t.data.size()), FloatFormat::F32);
  }

  std::string &error;
  EvaluateOptions options;
  llvm::DenseMap<Value, HostValue> env;
  llvm::DenseMap<Value, int64_t> remainingUses;
  std::vector<HostValue> results;
  bool returned = false;
};

HostTensor Evaluator::takeTensor(Value value) {
  auto it = env.find(value);
  if (remainingUses.lookup(value) == 1) {
    HostTensor t = std::move(it->second.tensor);
    env.erase(it);
    return t;
  }
  return it->second.tensor;
}

FailureOr<double> Evaluator::scalar(Operation *op, Value value) {
  const HostValue &v = env.find(value)->second;
  if (v.isTensor)
    return fail(op, "expected a scalar operand, got a tensor");
  return v.scalar;
}

void Evaluator::release(Operation *op) {
  for (Value operand : op->getOperands())
    if (--remainingUses[operand] == 0)
      env.erase(operand);
}

LogicalResult Evaluator::bindArguments(func::FuncOp fn, ArrayRef<HostValue> args,
                                       std::vector<HostValue> *owned) {
  Operation *op = fn.getOperation();
  ArrayRef<Type> types = fn.getFunctionType().getInputs();
  if (args.size() != types.size())
    return fail(op, "expects " + Twine(types.size()) + " arguments, got " + Twine(args.size()));
  for (auto [i, type] : llvm::enumerate(types)) {
    const HostValue &arg = args[i];
    std::string which = "argument #" + std::to_string(i);
    if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
      if (!arg.isTensor)
        return fail(op, which + " must be a tensor, got a scalar");
      const HostTensor &t = arg.tensor;
      bool shapeOk = t.getRank() == tensorType.getRank();
      for (int64_t d = 0; shapeOk && d < t.getRank(); ++d)
        shapeOk = t.shape[d] >= 0 &&
                  (tensorType.isDynamicDim(d) || tensorType.getDimSize(d) == t.shape[d]);
      if (!shapeOk) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << which << " has shape " << formatShape(t.shape) << ", which does not match " << type;
        return fail(op, s);
      }
      if (static_cast<int64_t>(t.data.size()) != t.getNumElements())
        return fail(op, which + " has " + std::to_string(t.data.size()) +
                            " elements, but its shape " + formatShape(t.shape) + " holds " +
                            std::to_string(t.getNumElements()));
    } else if (isa<FloatType, IntegerType, IndexType>(type)) {
      if (arg.isTensor)
        return fail(op, which + " must be a scalar, got a tensor");
    } else {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << which << " has type " << type << ", which the reference does not support";
      return fail(op, s);
    }
    // The ops may overwrite the tensors of the environment in place: copy the caller's
    // arguments, unless they were handed over.
    if (owned)
      env[fn.getArgument(i)] = std::move((*owned)[i]);
    else
      env[fn.getArgument(i)] = arg;
  }
  return success();
}

FailureOr<std::vector<HostValue>> Evaluator::run(func::FuncOp fn, ArrayRef<HostValue> args,
                                                 std::vector<HostValue> *owned) {
  if (fn.isExternal()) {
    return fail(fn, "has no body to evaluate");
  }
  if (!fn.getBody().hasOneBlock()) {
    return fail(fn, "has more than one block; the reference evaluates straight-line bodies only");
  }
  Block &body = fn.getBody().front();
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      ++remainingUses[operand];

  if (failed(bindArguments(fn, args, owned)))
    return failure();
  for (Operation &op : body) {
    if (failed(evaluateOp(&op)))
      return failure();
    // Results nobody reads are dropped at once.
    for (Value result : op.getResults())
      if (remainingUses.lookup(result) == 0)
        env.erase(result);
  }
  if (!returned) {
    return fail(fn, "has no func.return");
  }
  return std::move(results);
}

LogicalResult Evaluator::evaluateConstant(arith::ConstantOp op) {
  Attribute value = op.getValue();
  auto toDoubleElement = [](Attribute element, double &out) {
    if (auto f = dyn_cast<FloatAttr>(element)) {
      out = f.getValueAsDouble();
      return true;
    }
    if (auto i = dyn_cast<IntegerAttr>(element)) {
      // i1 true is 1 (not -1); other integers keep their sign.
      out = i.getType().isInteger(1) ? static_cast<double>(i.getValue().getZExtValue())
                                     : static_cast<double>(i.getValue().getSExtValue());
      return true;
    }
    return false;
  };
  double scalarValue;
  if (toDoubleElement(value, scalarValue)) {
    env[op.getResult()] = HostValue::ofScalar(scalarValue);
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!dense || !type)
    return fail(op, "only float / integer scalars and dense tensor constants are supported");
  HostTensor t;
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  t.data.reserve(static_cast<size_t>(t.getNumElements()));
  for (Attribute element : dense.getValues<Attribute>()) {
    double v;
    if (!toDoubleElement(element, v))
      return fail(op, "unsupported element in a dense constant");
    t.data.push_back(v);
  }
  env[op.getResult()] = HostValue::ofTensor(std::move(t));
  return success();
}

LogicalResult Evaluator::evaluateFused(FusedOp op, HostTensor &t) {
  int64_t axis = op.getNormalizedAxis();
  std::string why;
  // 1. The input is already a double: nothing to widen. 2. The prologue steps, in order.
  for (Attribute step : op.getPrologue()) {
    if (auto scale = dyn_cast<ScaleStepAttr>(step)) {
      scaleAll(t, toDouble(scale.getFactor()));
      stepDone(t);
    } else if (auto scaleBy = dyn_cast<ScaleByStepAttr>(step)) {
      FailureOr<double> factor = scalar(op, op.getSideOperands()[scaleBy.getOperand()]);
      if (failed(factor))
        return failure();
      scaleAll(t, *factor);
      stepDone(t);
    } else if (auto bias = dyn_cast<BiasStepAttr>(step)) {
      if (failed(addBias(t, tensor(op.getSideOperands()[bias.getOperand()]), why)))
        return fail(op, why);
      stepDone(t);
    } else if (auto mask = dyn_cast<MaskStepAttr>(step)) {
      const HostTensor *operand = nullptr;
      if (mask.getKind() != MaskKind::causal)
        operand = &tensor(op.getSideOperands()[mask.getOperand()]);
      if (failed(applyMask(t, mask.getKind(), operand, axis, mask.getOffset(),
                           toDouble(mask.getFill()), why)))
        return fail(op, why);
      stepDone(t);
    } else if (auto round = dyn_cast<RoundStepAttr>(step)) {
      std::optional<FloatFormat> format = getFloatFormat(round.getType());
      if (!format)
        return fail(op, "#softmax.round to an unsupported type");
      roundIntermediate(t, *format);
    } else {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "unknown prologue step " << step;
      return fail(op, s);
    }
  }
  // 3. The normalization.
  switch (op.getNormalization()) {
  case Normalization::softmax:
    normalizeOrScale(t, axis, /*logSoftmax=*/false, op.getMaskedRows());
    break;
  case Normalization::log_softmax:
    normalizeOrScale(t, axis, /*logSoftmax=*/true, op.getMaskedRows());
    break;
  case Normalization::none:
    break;
  }
  // 4. The store in the result's element type.
  std::optional<FloatFormat> format = getFloatFormat(op.getType().getElementType());
  if (!format)
    return fail(op, "unsupported result element type");
  if (!options.logitScale)
    roundAllTo(t.data.data(), static_cast<int64_t>(t.data.size()), *format);
  return success();
}

LogicalResult Evaluator::evaluateOp(Operation *op) {
  std::string why;
  // Every tensor op below computes its result in `t`, which starts as (a copy of) its input.
  auto finish = [&](Value result, HostTensor t) {
    release(op);
    env[result] = HostValue::ofTensor(std::move(t));
    return success();
  };

  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (Value operand : ret.getOperands()) {
      const HostValue &v = env.find(operand)->second;
      results.push_back(v.isTensor ? HostValue::ofTensor(takeTensor(operand)) : v);
      --remainingUses[operand]; // so that a value returned twice is copied, then moved
    }
    returned = true;
    return success();
  }

  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return evaluateConstant(c);

  if (auto s = dyn_cast<SoftmaxOp>(op)) {
    HostTensor t = takeTensor(s.getInput());
    normalizeOrScale(t, s.getNormalizedAxis(), /*logSoftmax=*/false, s.getMaskedRows());
    return finish(s.getResult(), std::move(t));
  }

  if (auto s = dyn_cast<LogSoftmaxOp>(op)) {
    HostTensor t = takeTensor(s.getInput());
    normalizeOrScale(t, s.getNormalizedAxis(), /*logSoftmax=*/true, s.getMaskedRows());
    return finish(s.getResult(), std::move(t));
  }

  if (auto s = dyn_cast<ScaleOp>(op)) {
    double factor;
    if (FloatAttr attr = s.getFactorAttr()) {
      factor = attr.getValueAsDouble();
    } else if (Value dynamic = s.getDynamicFactor()) {
      FailureOr<double> value = scalar(op, dynamic);
      if (failed(value))
        return failure();
      factor = *value;
    } else {
      return fail(op, "has no factor");
    }
    HostTensor t = takeTensor(s.getInput());
    scaleAll(t, factor);
    stepDone(t);
    return finish(s.getResult(), std::move(t));
  }

  if (auto b = dyn_cast<AddBiasOp>(op)) {
    HostTensor t = takeTensor(b.getInput());
    if (failed(addBias(t, tensor(b.getBias()), why)))
      return fail(op, why);
    stepDone(t);
    return finish(b.getResult(), std::move(t));
  }

  if (auto m = dyn_cast<MaskOp>(op)) {
    HostTensor t = takeTensor(m.getInput());
    const HostTensor *operand = m.getMask() ? &tensor(m.getMask()) : nullptr;
    if (m.getKind() != MaskKind::causal && !operand)
      return fail(op, "needs a mask operand");
    if (failed(applyMask(t, m.getKind(), operand, m.getNormalizedAxis(),
                         static_cast<int64_t>(m.getOffset()), toDouble(m.getFill()), why)))
      return fail(op, why);
    stepDone(t);
    return finish(m.getResult(), std::move(t));
  }

  if (auto c = dyn_cast<CastOp>(op)) {
    std::optional<FloatFormat> format = getFloatFormat(c.getType().getElementType());
    if (!format)
      return fail(op, "unsupported result element type");
    HostTensor t = takeTensor(c.getInput());
    roundIntermediate(t, *format);
    return finish(c.getResult(), std::move(t));
  }

  if (auto f = dyn_cast<FusedOp>(op)) {
    HostTensor t = takeTensor(f.getInput());
    if (failed(evaluateFused(f, t)))
      return failure();
    return finish(f.getResult(), std::move(t));
  }

  return fail(op, "the reference does not know this op (it evaluates softmax.* ops, "
                  "arith.constant and func.return)");
}

} // namespace

FailureOr<std::vector<HostValue>>
mlir::softmax::reference::evaluate(func::FuncOp fn, ArrayRef<HostValue> args, std::string &error,
                                   EvaluateOptions options) {
  Evaluator evaluator(error, options);
  return evaluator.run(fn, args, /*owned=*/nullptr);
}

FailureOr<std::vector<HostValue>>
mlir::softmax::reference::evaluateConsuming(func::FuncOp fn, std::vector<HostValue> &&args,
                                            std::string &error, EvaluateOptions options) {
  Evaluator evaluator(error, options);
  std::vector<HostValue> owned = std::move(args);
  return evaluator.run(fn, owned, &owned);
}
