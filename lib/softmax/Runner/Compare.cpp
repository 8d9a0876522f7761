//===- Compare.cpp - Checking kernel outputs against the reference --------===//

#include "softmax/Runner/Compare.h"

#include "softmax/Runner/Parallel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

using namespace softmax::runner;

const char *softmax::runner::getOutputKindName(OutputKind kind) {
  switch (kind) {
  case OutputKind::Probabilities:
    return "probabilities";
  case OutputKind::LogProbabilities:
    return "log-probabilities";
  case OutputKind::Values:
    return "values";
  }
  return "?";
}

Tolerance softmax::runner::getTolerance(ElementKind element, OutputKind kind) {
  // The kernels compute in f32 and round once to the storage type; the reference is exact and
  // rounded once to the same type. So |out - ref| <= (f32 arithmetic error) + (one unit in the
  // last place of the storage type, the two roundings falling on either side of a boundary).
  //  - rtol: one ulp of the storage type, relative (bf16 2^-7, f16 2^-10), and for f32 the
  //    relative error of exp2.approx, the log2(e) product and the row sum (~2e-6).
  //  - atolRow x rowScale: the f32 arithmetic error that is absolute, not relative: an element
  //    whose exponent argument x - max carries a rounding error of eps * |x - max| (tiny
  //    probabilities), and for log-softmax the error of (x - max) - log(sum), proportional to
  //    the row's largest magnitude.
  //  - atolFloor: the smallest subnormal of the storage type (f16 probabilities below 6e-5 are
  //    subnormal, where one ulp is 6e-8 absolute); for f32 and bf16 probabilities 2^-126, under
  //    which the kernels' exp flushes to zero.
  Tolerance tolerance;
  switch (element) {
  case ElementKind::BF16:
    tolerance.rtol = 8e-3;
    tolerance.atolFloor = 9.2e-41;
    break;
  case ElementKind::F16:
    tolerance.rtol = 1e-3;
    tolerance.atolFloor = 5.97e-8;
    break;
  case ElementKind::F64:
    tolerance.rtol = 2e-6; // computed in f32 all the same
    tolerance.atolFloor = 0;
    break;
  default:
    tolerance.rtol = 2e-6;
    tolerance.atolFloor = 1.5e-45;
    break;
  }
  tolerance.atolRow = kind == OutputKind::LogProbabilities ? 4e-6 : 1e-6;
  // The kernels' exp (ex2.approx.ftz) flushes results below 2^-126 to zero, so a probability
  // under it may be 0 where the reference has a subnormal (f32 and bf16 share that range; seeds
  // 267 and 475 of the generator's strided_axis family: 1.8e-43 and 8.3e-40 came out as 0).
  if (kind == OutputKind::Probabilities && element != ElementKind::F16)
    tolerance.atolFloor = std::max(tolerance.atolFloor, 0x1p-126);
  return tolerance;
}

std::string softmax::runner::describeMismatch(const Mismatch &mismatch) {
  std::string text = "[";
  for (size_t i = 0; i < mismatch.index.size(); ++i)
    text += (i ? ", " : "") + std::to_string(mismatch.index[i]);
  text += "]";
  char buffer[128];
  if (mismatch.padding) {
    std::snprintf(buffer, sizeof(buffer), " padding after the row overwritten with %.9g",
                  mismatch.got);
  } else if (mismatch.unwritten) {
    std::snprintf(buffer, sizeof(buffer), " unwritten (still the poison pattern), want %.9g",
                  mismatch.want);
  } else {
    std::snprintf(buffer, sizeof(buffer), " got %.9g want %.9g (diff %.3g)", mismatch.got,
                  mismatch.want, std::fabs(mismatch.got - mismatch.want));
  }
  return text + buffer;
}

namespace {

/// The multi-index of element `column` of row `row` in a tensor of `shape`.
std::vector<int64_t> indexOf(const std::vector<int64_t> &shape, int64_t row, int64_t column) {
  std::vector<int64_t> index(shape.size(), 0);
  if (shape.empty())
    return index;
  index.back() = column;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    index[d] = row % shape[d];
    row /= shape[d];
  }
  return index;
}

/// The part of a comparison one block of rows produces; merged in block order.
struct Partial {
  CompareResult result;
};

} // namespace

CompareResult softmax::runner::compareOutput(ElementKind element, const std::vector<int64_t> &shape,
                                             const void *data, int64_t rowStride,
                                             const double *reference, OutputKind kind,
                                             int maxReported, bool rowsAreDistributions,
                                             int64_t axis,
                                             llvm::ArrayRef<const double *> alternatives,
                                             const double *logitScale) {
  CompareResult total;
  total.tolerance = getTolerance(element, kind);
  int64_t width = shape.empty() ? 1 : shape.back();
  int64_t elements = 1;
  for (int64_t dim : shape)
    elements *= dim;
  total.elements = elements;
  if (elements == 0)
    return total;
  int64_t rows = elements / width;
  int64_t stride = rowStride > 0 ? rowStride : width;
  size_t bytes = getElementBytes(element);
  const auto *base = static_cast<const uint8_t *>(data);
  const Tolerance tol = total.tolerance;
  bool measureRowSums = kind == OutputKind::Probabilities && reference && rowsAreDistributions;

  // A softmax over another axis than the last: the tolerance's scale is that of each element's
  // slice along the axis (its distribution), max |ref| over its finite elements, not of the
  // memory row, which crosses slices (a row of 2 elements of two columns of 57857 values each
  // judged their f32 rounding against their own 3e-5, not the column's largest probability).
  std::vector<double> sliceScale;
  int64_t sliceInner = 1, sliceAxis = 1;
  int64_t rank = static_cast<int64_t>(shape.size());
  if (reference && !rowsAreDistributions && axis >= 0 && axis < rank - 1) {
    for (int64_t d = axis + 1; d < rank; ++d)
      sliceInner *= shape[d];
    sliceAxis = shape[axis];
    int64_t outer = elements / (sliceAxis * sliceInner);
    sliceScale.assign(outer * sliceInner, 0.0);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < sliceAxis; ++c)
        for (int64_t i = 0; i < sliceInner; ++i) {
          double v = reference[(o * sliceAxis + c) * sliceInner + i];
          double &scale = sliceScale[o * sliceInner + i];
          if (std::isfinite(v))
            scale = std::max(scale, std::fabs(v));
        }
  }
  auto scaleOf = [&](double maxMagnitude) {
    return kind == OutputKind::Probabilities ? maxMagnitude : std::max(1.0, maxMagnitude);
  };

  int64_t rowsPerBlock = std::max<int64_t>(1, (int64_t(1) << 20) / std::max<int64_t>(1, width));
  int64_t blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
  std::vector<Partial> partials(blocks);

  parallelForBlocks(rows, rowsPerBlock, [&](int64_t block, int64_t rowBegin, int64_t rowEnd) {
    CompareResult &part = partials[block].result;
    std::vector<double> got(std::max(width, stride - width));
    auto note = [&](Mismatch mismatch) {
      if (static_cast<int>(part.first.size()) < maxReported)
        part.first.push_back(std::move(mismatch));
    };
    for (int64_t row = rowBegin; row < rowEnd; ++row) {
      const uint8_t *rowData = base + static_cast<size_t>(row * stride) * bytes;
      // Padding between rows: must still hold the poison pattern.
      for (int64_t j = width; j < stride; ++j) {
        if (!isPoison(element, rowData + j * bytes)) {
          ++part.paddingTouched;
          double value;
          decodeElements(element, rowData + j * bytes, 1, &value);
          note({indexOf(shape, row, j), value, 0, false, true});
        }
      }
      decodeElements(element, rowData, width, got.data());
      const double *want = reference ? reference + row * width : nullptr;

      // The row's scale for the absolute tolerance.
      double rowMax = 0;
      if (want)
        for (int64_t j = 0; j < width; ++j)
          if (std::isfinite(want[j]))
            rowMax = std::max(rowMax, std::fabs(want[j]));
      double rowScale = scaleOf(rowMax);
      double atol = tol.atolFloor + tol.atolRow * rowScale;

      bool rowHasNaN = false, rowUnwritten = false;
      double sum = 0, refSum = 0;
      for (int64_t j = 0; j < width; ++j) {
        if (isPoison(element, rowData + j * bytes)) {
          ++part.unwritten;
          rowUnwritten = true;
          note({indexOf(shape, row, j), got[j], want ? want[j] : 0, true, false});
          continue;
        }
        if (!want)
          continue;
        double out = got[j], ref = want[j];
        sum += out;
        refSum += ref;
        if (!sliceScale.empty()) {
          int64_t flat = row * width + j;
          int64_t slice = flat / (sliceAxis * sliceInner) * sliceInner + flat % sliceInner;
          rowScale = scaleOf(sliceScale[slice]);
          atol = tol.atolFloor + tol.atolRow * rowScale;
        }
        // `conditioning`: the logits' share of the tolerance (logitScale), relative for
        // probabilities, absolute for log-probabilities.
        auto within = [&](double expected, double conditioning = 0) {
          if (std::isnan(expected) || std::isnan(out))
            return std::isnan(expected) && std::isnan(out);
          if (std::isinf(expected) || std::isinf(out))
            return out == expected;
          double relative = tol.rtol, absolute = atol;
          (kind == OutputKind::Probabilities ? relative : absolute) += conditioning;
          return std::fabs(out - expected) <= absolute + relative * std::fabs(expected);
        };
        bool ok = within(ref);
        if (std::isnan(ref) || std::isnan(out)) {
          rowHasNaN = true;
        } else if (!std::isinf(ref) && !std::isinf(out)) {
          double diff = std::fabs(out - ref);
          part.maxAbsError = std::max(part.maxAbsError, diff);
          // Relative error where the relative term matters (not tiny probabilities).
          if (ref != 0 && std::fabs(ref) >= 1e-3 * rowScale)
            part.maxRelError = std::max(part.maxRelError, diff / std::fabs(ref));
        }
        if (!ok && want &&
            llvm::any_of(alternatives, [&](const double *alternative) {
              return alternative && within(alternative[row * width + j]);
            })) {
          ++part.acceptedByAlternative;
          ok = true;
        }
        if (!ok && want && logitScale && kind != OutputKind::Values) {
          double conditioning = kLogitConditioning * logitScale[row * width + j];
          if (within(ref, conditioning) ||
              llvm::any_of(alternatives, [&](const double *alternative) {
                return alternative && within(alternative[row * width + j], conditioning);
              })) {
            ++part.acceptedByLogitConditioning;
            ok = true;
          }
        }
        if (!ok) {
          ++part.mismatches;
          note({indexOf(shape, row, j), out, ref, false, false});
        }
      }
      // Row sums: rows that are neither fully masked (reference sum 0) nor NaN.
      if (measureRowSums && !rowHasNaN && !rowUnwritten && refSum > 0.5) {
        part.rowSumError = std::max(part.rowSumError, std::fabs(sum - 1.0));
        ++part.rowsSummed;
      }
    }
  });

  for (Partial &partial : partials) {
    CompareResult &part = partial.result;
    total.mismatches += part.mismatches;
    total.unwritten += part.unwritten;
    total.paddingTouched += part.paddingTouched;
    total.maxAbsError = std::max(total.maxAbsError, part.maxAbsError);
    total.maxRelError = std::max(total.maxRelError, part.maxRelError);
    total.rowSumError = std::max(total.rowSumError, part.rowSumError);
    total.rowsSummed += part.rowsSummed;
    total.acceptedByAlternative += part.acceptedByAlternative;
    total.acceptedByLogitConditioning += part.acceptedByLogitConditioning;
    for (Mismatch &mismatch : part.first)
      if (static_cast<int>(total.first.size()) < maxReported)
        total.first.push_back(std::move(mismatch));
  }
  if (total.rowsSummed == 0)
    total.rowSumError = -1;
  return total;
}
