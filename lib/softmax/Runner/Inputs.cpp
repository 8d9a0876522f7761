//===- Inputs.cpp - Reproducible inputs for the runner --------------------===//

#include "softmax/Runner/Inputs.h"

#include "softmax/Runner/Parallel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace softmax::runner;

std::vector<std::string> SpecialCases::names() const {
  std::vector<std::string> list;
  if (negInfRows)
    list.push_back("neg-inf-rows");
  if (posInf)
    list.push_back("pos-inf");
  if (nan)
    list.push_back("nan");
  if (large)
    list.push_back("large");
  if (constantRows)
    list.push_back("constant-rows");
  return list;
}

bool softmax::runner::parseSpecialCases(const std::string &text, SpecialCases &cases,
                                        std::string &error) {
  cases = SpecialCases();
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(text).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part == "none")
      continue;
    if (part == "all") {
      cases = {true, true, true, true, true};
    } else if (part == "neg-inf-rows") {
      cases.negInfRows = true;
    } else if (part == "pos-inf") {
      cases.posInf = true;
    } else if (part == "nan") {
      cases.nan = true;
    } else if (part == "large") {
      cases.large = true;
    } else if (part == "constant-rows") {
      cases.constantRows = true;
    } else {
      error = "unknown --special case '" + part.str() +
              "' (known: neg-inf-rows, pos-inf, nan, large, constant-rows, all, none)";
      return false;
    }
  }
  return true;
}

namespace {

/// SplitMix64: turns (seed, argument, block) into independent engine seeds.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr int64_t kBlock = int64_t(1) << 16; // elements per random stream

/// The largest magnitude the "large" case uses in a type: 1e30, or half the largest finite
/// value where that is smaller (f16: 65504), so that it stays finite after rounding.
double largeValueFor(ElementKind kind) {
  if (kind == ElementKind::F16)
    return 32768.0;
  return 1e30;
}

void fillFloat(std::vector<double> &values, ElementKind kind, const InputOptions &options,
               uint64_t argSeed) {
  parallelForBlocks(static_cast<int64_t>(values.size()), kBlock,
                    [&](int64_t block, int64_t begin, int64_t end) {
                      std::mt19937_64 engine(mix(argSeed ^ mix(static_cast<uint64_t>(block))));
                      if (options.distribution == Distribution::Normal) {
                        std::normal_distribution<double> dist(0.0, options.scale);
                        for (int64_t i = begin; i < end; ++i)
                          values[i] = roundToKind(kind, dist(engine));
                      } else {
                        std::uniform_real_distribution<double> dist(-options.scale, options.scale);
                        for (int64_t i = begin; i < end; ++i)
                          values[i] = roundToKind(kind, dist(engine));
                      }
                    });
}

void fillIntegers(std::vector<double> &values, int64_t maxValue, uint64_t argSeed) {
  parallelForBlocks(
      static_cast<int64_t>(values.size()), kBlock, [&](int64_t block, int64_t begin, int64_t end) {
        std::mt19937_64 engine(mix(argSeed ^ mix(static_cast<uint64_t>(block))));
        std::uniform_int_distribution<int64_t> dist(0, std::max<int64_t>(0, maxValue));
        for (int64_t i = begin; i < end; ++i) {
          int64_t value = dist(engine);
          if (i % 16 == 0)
            value = 0; // a fully padded row
          else if (i % 16 == 1)
            value = maxValue; // a row with no padding
          values[i] = static_cast<double>(value);
        }
      });
}

void fillMask(std::vector<double> &values, double density, uint64_t argSeed) {
  parallelForBlocks(static_cast<int64_t>(values.size()), kBlock,
                    [&](int64_t block, int64_t begin, int64_t end) {
                      std::mt19937_64 engine(mix(argSeed ^ mix(static_cast<uint64_t>(block))));
                      std::bernoulli_distribution keep(std::clamp(density, 0.0, 1.0));
                      for (int64_t i = begin; i < end; ++i)
                        values[i] = keep(engine) ? 1.0 : 0.0;
                    });
}

/// Applies the special cases to the rows of `values` (a float tensor with rows of `width`).
void applySpecials(std::vector<double> &values, int64_t width, ElementKind kind,
                   const SpecialCases &special, const std::string &argName,
                   std::vector<std::string> &notes) {
  std::vector<std::string> names = special.names();
  int64_t count = static_cast<int64_t>(names.size());
  if (count == 0 || width <= 0 || values.empty())
    return;
  int64_t rows = static_cast<int64_t>(values.size()) / width;
  const double inf = std::numeric_limits<double>::infinity();
  const double large = largeValueFor(kind);

  // Case c goes to the rows r with r % (2 * count) == 2c + 1 when there are enough rows (the
  // even rows stay ordinary), else to row c alone.
  bool spread = rows >= 2 * count;
  for (int64_t c = 0; c < count; ++c) {
    const std::string &name = names[c];
    if (spread)
      notes.push_back(name + ": " + argName + " rows r with r % " + std::to_string(2 * count) +
                      " == " + std::to_string(2 * c + 1));
    else if (c < rows)
      notes.push_back(name + ": " + argName + " row " + std::to_string(c));
    else
      notes.push_back(name + ": not applied (" + argName + " has only " + std::to_string(rows) +
                      " rows)");
  }
  parallelForBlocks(
      rows, std::max<int64_t>(1, kBlock / width), [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          int64_t c = spread ? ((r % (2 * count)) % 2 == 1 ? (r % (2 * count)) / 2 : -1)
                             : (r < count ? r : -1);
          if (c < 0)
            continue;
          double *row = values.data() + r * width;
          const std::string &name = names[c];
          if (name == "neg-inf-rows") {
            std::fill(row, row + width, -inf);
          } else if (name == "pos-inf") {
            row[(r * 7919) % width] = inf;
          } else if (name == "nan") {
            row[(r * 104729 + 3) % width] = std::numeric_limits<double>::quiet_NaN();
          } else if (name == "large") {
            for (int64_t j = 0; j < width; j += 8)
              row[j] = -large;
            row[(r * 31 + 5) % width] = large;
          } else if (name == "constant-rows") {
            std::fill(row, row + width, row[0]);
          }
          for (int64_t j = 0; j < width; ++j)
            row[j] = roundToKind(kind, row[j]);
        }
      });
}

} // namespace

uint64_t softmax::runner::getArgumentSeed(uint64_t seed, size_t index) {
  return mix(seed * 1000003ull + index);
}

int64_t softmax::runner::resolveLengthsMax(const std::vector<ArgSpec> &inputs,
                                           const InputOptions &options) {
  if (options.lengthsMax >= 0)
    return options.lengthsMax;
  for (const ArgSpec &spec : inputs)
    if (spec.isTensor && isFloatKind(spec.element))
      return spec.getRowWidth();
  return 1;
}

double softmax::runner::getScalarInput(const ArgSpec &spec, const InputOptions &options) {
  double value = options.scalar;
  if (!isFloatKind(spec.element))
    value = static_cast<double>(std::llround(value));
  return roundToKind(spec.element, value);
}

std::vector<std::vector<double>> softmax::runner::generateInputs(const std::vector<ArgSpec> &inputs,
                                                                 const InputOptions &options,
                                                                 std::vector<std::string> &notes) {
  // The first float tensor gets the special cases and gives the default length bound.
  int firstFloat = -1;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].isTensor && isFloatKind(inputs[i].element)) {
      firstFloat = static_cast<int>(i);
      break;
    }
  int64_t lengthsMax = resolveLengthsMax(inputs, options);

  std::vector<std::vector<double>> values(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ArgSpec &spec = inputs[i];
    uint64_t argSeed = getArgumentSeed(options.seed, i);
    if (!spec.isTensor) {
      values[i] = {getScalarInput(spec, options)};
      continue;
    }
    values[i].resize(static_cast<size_t>(std::max<int64_t>(0, spec.getNumElements())));
    if (isFloatKind(spec.element)) {
      fillFloat(values[i], spec.element, options, argSeed);
      if (static_cast<int>(i) == firstFloat)
        applySpecials(values[i], spec.getRowWidth(), spec.element, options.special, spec.name,
                      notes);
    } else if (spec.element == ElementKind::I1) {
      fillMask(values[i], options.maskDensity, argSeed);
    } else {
      fillIntegers(values[i], lengthsMax, argSeed);
    }
  }
  return values;
}
