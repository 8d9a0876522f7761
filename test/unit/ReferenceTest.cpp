//===- ReferenceTest.cpp - The float64 reference and its rounding ---------===//
//
// Hand-computed values for each op of the reference evaluator, the fused op against its unfused
// chain on random data, and the f32 / f16 / bf16 conversions (ties to even, overflow, NaN,
// subnormals) against llvm::APFloat.
//
//===----------------------------------------------------------------------===//

#include "softmax/Reference/Evaluator.h"
#include "softmax/Reference/FloatFormats.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::softmax::reference;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

HostValue tensorOf(std::vector<int64_t> shape, std::vector<double> data) {
  return HostValue::ofTensor(HostTensor(std::move(shape), std::move(data)));
}

/// Element-wise comparison where NaN equals NaN and -inf equals -inf; `ulps` allows that many
/// units in the last place of a double (0: bitwise equal values).
void expectValues(const std::vector<double> &actual, const std::vector<double> &expected,
                  double relTolerance = 0.0) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    double a = actual[i], e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << "element " << i << ": " << a << ", expected NaN";
    } else if (std::isinf(e) || relTolerance == 0.0) {
      EXPECT_EQ(a, e) << "element " << i;
    } else {
      EXPECT_NEAR(a, e, relTolerance * std::max(1.0, std::fabs(e))) << "element " << i;
    }
  }
}

/// Bitwise equality of two double vectors, NaN equal to NaN.
void expectSameValues(const std::vector<double> &a, const std::vector<double> &b) {
  ASSERT_EQ(a.size(), b.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    bool same = (std::isnan(a[i]) && std::isnan(b[i])) || a[i] == b[i];
    if (!same && ++mismatches <= 5)
      ADD_FAILURE() << "element " << i << ": " << a[i] << " vs " << b[i];
  }
  EXPECT_EQ(mismatches, 0u);
}

class ReferenceTest : public ::testing::Test {
protected:
  ReferenceTest() {
    DialectRegistry registry;
    softmax::registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` (one or more func.func) and returns the function named `name`.
  func::FuncOp parse(const std::string &source, StringRef name = "f") {
    modules.push_back(parseSourceString<ModuleOp>(source, &context, "test.mlir"));
    OwningOpRef<ModuleOp> &module = modules.back();
    if (!module)
      return nullptr;
    return module->lookupSymbol<func::FuncOp>(name);
  }

  /// Evaluates function `name` of `source` on `args`; fails the test on an error.
  std::vector<HostValue> run(const std::string &source, const std::vector<HostValue> &args,
                             StringRef name = "f") {
    func::FuncOp fn = parse(source, name);
    EXPECT_TRUE(fn) << "did not parse:\n" << source;
    if (!fn)
      return {};
    std::string error;
    FailureOr<std::vector<HostValue>> results = evaluate(fn, args, error);
    EXPECT_TRUE(succeeded(results)) << error;
    if (failed(results))
      return {};
    return *results;
  }

  /// The data of the only result of run().
  std::vector<double> run1(const std::string &source, const std::vector<HostValue> &args) {
    std::vector<HostValue> results = run(source, args);
    EXPECT_EQ(results.size(), 1u);
    if (results.size() != 1)
      return {};
    EXPECT_TRUE(results[0].isTensor);
    return results[0].tensor.data;
  }

  /// The error message of evaluating `source` on `args` (which must fail).
  std::string runError(const std::string &source, const std::vector<HostValue> &args) {
    func::FuncOp fn = parse(source);
    EXPECT_TRUE(fn);
    if (!fn)
      return {};
    std::string error;
    FailureOr<std::vector<HostValue>> results = evaluate(fn, args, error);
    EXPECT_TRUE(failed(results)) << "expected an error";
    return error;
  }

  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, SoftmaxOfZeroAndLog2) {
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = softmax.softmax %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
                               {tensorOf({2}, {0.0, std::log(2.0)})});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_DOUBLE_EQ(y[0], 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(y[1], 2.0 / 3.0);
}

TEST_F(ReferenceTest, LogSoftmax) {
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = softmax.log_softmax %x : tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })",
                               {tensorOf({2, 2}, {0.0, std::log(2.0), 5.0, 5.0})});
  ASSERT_EQ(y.size(), 4u);
  EXPECT_DOUBLE_EQ(y[0], std::log(1.0 / 3.0));
  EXPECT_DOUBLE_EQ(y[1], std::log(2.0 / 3.0));
  // Equal elements: log(1/2) exactly as computed from (x - max) - log(2).
  EXPECT_EQ(y[2], -std::log(2.0));
  EXPECT_EQ(y[3], -std::log(2.0));
}

TEST_F(ReferenceTest, LargeInputsDoNotOverflow) {
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = softmax.softmax %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
                               {tensorOf({2}, {1.0e30, 1.0e30})});
  expectValues(y, {0.5, 0.5});
}

// Rows: all -inf (fully masked), NaN, +inf, partly -inf, all finite, NaN among -inf; @f
// reduces them along the last axis, @g the same rows as columns (axis 0).
const char *kSpecialRows = R"(
    func.func @f(%x: tensor<6x3xf32>) -> (tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>) {
      %a = softmax.softmax %x : tensor<6x3xf32>
      %b = softmax.softmax %x masked_rows = nan : tensor<6x3xf32>
      %c = softmax.log_softmax %x : tensor<6x3xf32>
      %d = softmax.log_softmax %x masked_rows = nan : tensor<6x3xf32>
      return %a, %b, %c, %d : tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>
    }
    func.func @g(%x: tensor<3x6xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>) {
      %a = softmax.softmax %x axis = 0 : tensor<3x6xf32>
      %b = softmax.softmax %x axis = 0 masked_rows = nan : tensor<3x6xf32>
      %c = softmax.log_softmax %x axis = -2 : tensor<3x6xf32>
      %d = softmax.log_softmax %x axis = 0 masked_rows = nan : tensor<3x6xf32>
      return %a, %b, %c, %d : tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>
    })";

/// The transpose of a rows x cols matrix.
std::vector<double> transpose(const std::vector<double> &m, int rows, int cols) {
  std::vector<double> t(m.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      t[j * rows + i] = m[i * cols + j];
  return t;
}

TEST_F(ReferenceTest, FullyMaskedAndSpecialRows) {
  const std::vector<double> x = {-kInf, -kInf, -kInf, //
                                 1.0,   kNaN,  -kInf, //
                                 kInf,  0.0,   -kInf, //
                                 0.0,   -kInf, 0.0,   //
                                 0.0,   0.0,   0.0,   //
                                 -kInf, kNaN,  -kInf};
  const double third = 1.0 / 3.0, half = 0.5, l2 = -std::log(2.0), l3 = -std::log(3.0);
  const double n = kNaN;
  for (bool columns : {false, true}) {
    SCOPED_TRACE(columns ? "axis 0" : "last axis");
    std::vector<HostValue> r = columns
                                   ? run(kSpecialRows, {tensorOf({3, 6}, transpose(x, 6, 3))}, "g")
                                   : run(kSpecialRows, {tensorOf({6, 3}, x)}, "f");
    ASSERT_EQ(r.size(), 4u);
    if (columns)
      for (HostValue &v : r)
        v.tensor.data = transpose(v.tensor.data, 3, 6);
    // masked_rows = zero: softmax 0, log_softmax -inf for the fully masked row.
    expectValues(r[0].tensor.data, {0, 0, 0, n, n, n, n, n, n, half, 0, half, //
                                    third, third, third, n, n, n});
    expectValues(r[2].tensor.data,
                 {-kInf, -kInf, -kInf, n, n, n, n, n, n, l2, -kInf, l2, //
                  l3, l3, l3, n, n, n},
                 1e-15);
    // masked_rows = nan: NaN for that row; other rows as before.
    expectValues(r[1].tensor.data, {n, n, n, n, n, n, n, n, n, half, 0, half, //
                                    third, third, third, n, n, n});
    expectValues(r[3].tensor.data,
                 {n, n, n, n, n, n, n, n, n, l2, -kInf, l2, //
                  l3, l3, l3, n, n, n},
                 1e-15);
  }
}

TEST_F(ReferenceTest, NonLastAxis) {
  // Axis 0 of a 2x2 matrix: column-wise.
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = softmax.softmax %x axis = 0 : tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })",
                               {tensorOf({2, 2}, {0.0, 7.0, std::log(2.0), 7.0})});
  ASSERT_EQ(y.size(), 4u);
  EXPECT_DOUBLE_EQ(y[0], 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(y[2], 2.0 / 3.0);
  EXPECT_EQ(y[1], 0.5);
  EXPECT_EQ(y[3], 0.5);

  // Axis -2 of a 2x3x2 tensor (a dynamic middle dimension): compare with a direct loop.
  std::vector<double> data = {0, 1, 2, 3, 4, 5, -1, -kInf, 0.5, -kInf, 2, -kInf};
  std::vector<double> z = run1(R"(
    func.func @f(%x: tensor<2x?x2xf32>) -> tensor<2x?x2xf32> {
      %y = softmax.softmax %x axis = -2 : tensor<2x?x2xf32>
      return %y : tensor<2x?x2xf32>
    })",
                               {tensorOf({2, 3, 2}, data)});
  std::vector<double> expected(12);
  for (int b = 0; b < 2; ++b)
    for (int c = 0; c < 2; ++c) {
      double m = -kInf, s = 0;
      for (int j = 0; j < 3; ++j)
        m = std::max(m, data[b * 6 + j * 2 + c]);
      for (int j = 0; j < 3; ++j)
        s += std::exp(data[b * 6 + j * 2 + c] - m);
      for (int j = 0; j < 3; ++j)
        expected[b * 6 + j * 2 + c] = m == -kInf ? 0.0 : std::exp(data[b * 6 + j * 2 + c] - m) / s;
    }
  expectValues(z, expected);
}

//===----------------------------------------------------------------------===//
// scale, add_bias
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, ScaleByConstantAndByOperand) {
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<3xf32>, %k: f32) -> (tensor<3xf32>, tensor<3xf32>) {
      %a = softmax.scale %x by 1.250000e-01 : tensor<3xf32>
      %b = softmax.scale %x by %k : tensor<3xf32>, f32
      return %a, %b : tensor<3xf32>, tensor<3xf32>
    })",
                                 {tensorOf({3}, {1.0, -8.0, 3.0}), HostValue::ofScalar(0.75)});
  ASSERT_EQ(r.size(), 2u);
  expectValues(r[0].tensor.data, {0.125, -1.0, 0.375});
  expectValues(r[1].tensor.data, {0.75, -6.0, 2.25});
}

TEST_F(ReferenceTest, BiasBroadcasts) {
  std::vector<HostValue> r =
      run(R"(
    func.func @f(%x: tensor<2x3xf32>, %col: tensor<3xbf16>, %row: tensor<2x1xf32>, %s: tensor<f16>)
        -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
      %a = softmax.add_bias %x, %col : tensor<2x3xf32>, tensor<3xbf16>
      %b = softmax.add_bias %x, %row : tensor<2x3xf32>, tensor<2x1xf32>
      %c = softmax.add_bias %x, %s : tensor<2x3xf32>, tensor<f16>
      return %a, %b, %c : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
    })",
          {tensorOf({2, 3}, {0, 1, 2, 10, 20, 30}), tensorOf({3}, {100, 200, 300}),
           tensorOf({2, 1}, {-1, -2}), tensorOf({}, {0.5})});
  ASSERT_EQ(r.size(), 3u);
  expectValues(r[0].tensor.data, {100, 201, 302, 110, 220, 330}); // per column
  expectValues(r[1].tensor.data, {-1, 0, 1, 8, 18, 28});          // per row
  expectValues(r[2].tensor.data, {0.5, 1.5, 2.5, 10.5, 20.5, 30.5});
}

TEST_F(ReferenceTest, BiasIsNotRoundedFirst) {
  // x (f32) + bias (f32): the sum stays in double until the result rounds.
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<1xf32>, %b: tensor<1xf32>) -> tensor<1xf32> {
      %a = softmax.add_bias %x, %b : tensor<1xf32>, tensor<1xf32>
      return %a : tensor<1xf32>
    })",
                                 {tensorOf({1}, {1.0}), tensorOf({1}, {std::ldexp(1.0, -30)})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].tensor.data[0], 1.0 + std::ldexp(1.0, -30));
  // The runner's rounding of the result to f32 then gives 1.
  func::FuncOp fn = modules.back()->lookupSymbol<func::FuncOp>("f");
  roundResultsToStorage(fn, r);
  EXPECT_EQ(r[0].tensor.data[0], 1.0);
}

//===----------------------------------------------------------------------===//
// mask
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, PaddingWithAnEmptyRow) {
  // Lengths 2, 0 (a fully masked row), 4, 7 (longer than the row) and -1.
  std::vector<HostValue> r =
      run(R"(
    func.func @f(%x: tensor<5x4xf32>, %len: tensor<5xi32>) -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>) {
      %m = softmax.mask %x, padding %len : tensor<5x4xf32>, tensor<5xi32>
      %p = softmax.softmax %m : tensor<5x4xf32>
      %q = softmax.log_softmax %m masked_rows = nan : tensor<5x4xf32>
      return %m, %p, %q : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>
    })",
          {HostValue::ofTensor(HostTensor::filled({5, 4}, 1.0)), tensorOf({5}, {2, 0, 4, 7, -1})});
  ASSERT_EQ(r.size(), 3u);
  const double n = -kInf, q = 0.25, l2 = -std::log(2.0), l4 = -std::log(4.0);
  expectValues(r[0].tensor.data, {1, 1, n, n, n, n, n, n, 1, 1, 1, 1, 1, 1, 1, 1, n, n, n, n});
  expectValues(r[1].tensor.data, {0.5, 0.5, 0, 0, 0, 0, 0, 0, q, q, q, q, q, q, q, q, 0, 0, 0, 0});
  expectValues(r[2].tensor.data, {l2, l2, n,  n,  kNaN, kNaN, kNaN, kNaN, l4, l4, l4, l4, //
                                  l4, l4, l4, l4, kNaN, kNaN, kNaN, kNaN},
               1e-15);
}

TEST_F(ReferenceTest, PaddingBroadcastsToTheRowShape) {
  // [B, H, S] scores with one length per sequence ([B, 1]), and lengths along a non-last axis:
  // the softmax over axis 0 of a 3x2 matrix, with one length per column.
  std::vector<HostValue> r =
      run(R"(
    func.func @f(%x: tensor<2x2x3xf32>, %len: tensor<2x1xi64>, %y: tensor<3x2xf32>, %cl: tensor<2xi32>)
        -> (tensor<2x2x3xf32>, tensor<3x2xf32>) {
      %a = softmax.mask %x, padding %len : tensor<2x2x3xf32>, tensor<2x1xi64>
      %b = softmax.mask %y, padding %cl axis = 0 fill = -1.000000e+04 : tensor<3x2xf32>, tensor<2xi32>
      return %a, %b : tensor<2x2x3xf32>, tensor<3x2xf32>
    })",
          {HostValue::ofTensor(HostTensor::filled({2, 2, 3}, 0.0)), tensorOf({2, 1}, {1, 3}),
           HostValue::ofTensor(HostTensor::filled({3, 2}, 0.0)), tensorOf({2}, {1, 2})});
  ASSERT_EQ(r.size(), 2u);
  const double n = -kInf, f = -1.0e4;
  expectValues(r[0].tensor.data, {0, n, n, 0, n, n, 0, 0, 0, 0, 0, 0});
  expectValues(r[1].tensor.data, {0, 0, f, 0, f, f});
}

TEST_F(ReferenceTest, CausalWithOffsets) {
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
      %a = softmax.mask %x, causal : tensor<2x3x3xf32>
      %b = softmax.mask %x, causal offset = -1 : tensor<2x3x3xf32>
      %c = softmax.mask %x, causal offset = 1 fill = -5.000000e+00 : tensor<2x3x3xf32>
      %m = softmax.mask %x, causal offset = -1 : tensor<2x3x3xf32>
      %p = softmax.softmax %m : tensor<2x3x3xf32>
      return %a, %b, %c, %p : tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
    })",
                                 {HostValue::ofTensor(HostTensor::filled({2, 3, 3}, 2.0))});
  ASSERT_EQ(r.size(), 4u);
  const double n = -kInf, f = -5.0;
  auto twice = [](std::vector<double> v) {
    std::vector<double> w(v);
    w.insert(w.end(), v.begin(), v.end());
    return w;
  };
  expectValues(r[0].tensor.data, twice({2, n, n, 2, 2, n, 2, 2, 2}));
  expectValues(r[1].tensor.data, twice({n, n, n, 2, n, n, 2, 2, n}));
  expectValues(r[2].tensor.data, twice({2, 2, f, 2, 2, 2, 2, 2, 2}));
  // Row 0 is fully masked with offset -1: zeros under the default policy.
  expectValues(r[3].tensor.data, twice({0, 0, 0, 1, 0, 0, 0.5, 0.5, 0}));
}

TEST_F(ReferenceTest, CausalOnANonLastAxis) {
  // Axis 1 of [2, 3, 2]: query i = index of dim 0, column j = index of dim 1; element [i, j, k]
  // is removed when j > i + offset, for every k.
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
      %a = softmax.mask %x, causal offset = 1 axis = 1 : tensor<2x3x2xf32>
      return %a : tensor<2x3x2xf32>
    })",
                               {HostValue::ofTensor(HostTensor::filled({2, 3, 2}, 1.0))});
  const double n = -kInf;
  expectValues(y, {1, 1, 1, 1, n, n, /*i=1:*/ 1, 1, 1, 1, 1, 1});
}

TEST_F(ReferenceTest, TensorMaskBroadcasts) {
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<2x3xf16>, %cols: tensor<1x3xi1>, %rows: tensor<2x1xi1>) -> (tensor<2x3xf16>, tensor<2x3xf16>) {
      %a = softmax.mask %x, tensor %cols fill = -1.000000e+04 : tensor<2x3xf16>, tensor<1x3xi1>
      %b = softmax.mask %x, tensor %rows : tensor<2x3xf16>, tensor<2x1xi1>
      return %a, %b : tensor<2x3xf16>, tensor<2x3xf16>
    })",
                                 {tensorOf({2, 3}, {1, 2, 3, 4, 5, 6}), tensorOf({1, 3}, {1, 0, 1}),
                                  tensorOf({2, 1}, {0, 1})});
  ASSERT_EQ(r.size(), 2u);
  const double n = -kInf;
  expectValues(r[0].tensor.data, {1, -1.0e4, 3, 4, -1.0e4, 6});
  expectValues(r[1].tensor.data, {n, n, n, 4, 5, 6});
}

TEST_F(ReferenceTest, ConstantMaskAndScalar) {
  std::vector<double> y = run1(R"(
    func.func @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %m = arith.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
      %k = arith.constant 2.0 : f32
      %s = softmax.scale %x by %k : tensor<2x2xf32>, f32
      %a = softmax.mask %s, tensor %m : tensor<2x2xf32>, tensor<2x2xi1>
      return %a : tensor<2x2xf32>
    })",
                               {tensorOf({2, 2}, {1, 2, 3, 4})});
  expectValues(y, {2, -kInf, -kInf, 8});
}

//===----------------------------------------------------------------------===//
// cast, results, aliasing
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, CastRoundsAndIntermediatesDoNot) {
  // 1 + 2^-9 is exact in f32 and rounds to 1 in bf16 (below half an ulp); x * 9 stays in double.
  const double x = 1.0 + std::ldexp(1.0, -9);
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<1xf32>) -> (tensor<1xbf16>, tensor<1xf32>) {
      %a = softmax.cast %x : tensor<1xf32> to tensor<1xbf16>
      %s = softmax.scale %x by 3.000000e+00 : tensor<1xf32>
      %t = softmax.scale %s by 3.000000e+00 : tensor<1xf32>
      return %a, %t : tensor<1xbf16>, tensor<1xf32>
    })",
                                 {tensorOf({1}, {x})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].tensor.data[0], 1.0);
  EXPECT_EQ(r[1].tensor.data[0], 9.0 * x);
}

TEST_F(ReferenceTest, InputsAreNotOverwritten) {
  // %x is read by two ops, returned, and used twice by one op: every read sees the argument.
  std::vector<HostValue> args = {tensorOf({2}, {1.0, 2.0})};
  std::vector<HostValue> r = run(R"(
    func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
      %a = softmax.scale %x by 2.000000e+00 : tensor<2xf32>
      %b = softmax.add_bias %x, %x : tensor<2xf32>, tensor<2xf32>
      return %x, %a, %b, %x : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
    })",
                                 args);
  ASSERT_EQ(r.size(), 4u);
  expectValues(r[0].tensor.data, {1, 2});
  expectValues(r[1].tensor.data, {2, 4});
  expectValues(r[2].tensor.data, {2, 4});
  expectValues(r[3].tensor.data, {1, 2});
  expectValues(args[0].tensor.data, {1, 2});
}

TEST_F(ReferenceTest, ConsumingTheArgumentsGivesTheSameResults) {
  func::FuncOp fn = parse(R"(
    func.func @f(%x: tensor<2x3xf32>, %k: f32) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %s = softmax.scale %x by %k : tensor<2x3xf32>, f32
      %y = softmax.softmax %s : tensor<2x3xf32>
      return %y, %x : tensor<2x3xf32>, tensor<2x3xf32>
    })");
  ASSERT_TRUE(fn);
  std::vector<HostValue> args = {tensorOf({2, 3}, {1, 2, 3, -1, -2, -kInf}),
                                 HostValue::ofScalar(0.5)};
  std::string error;
  FailureOr<std::vector<HostValue>> copied = evaluate(fn, args, error);
  ASSERT_TRUE(succeeded(copied)) << error;
  std::vector<HostValue> handedOver = args;
  FailureOr<std::vector<HostValue>> consumed = evaluateConsuming(fn, std::move(handedOver), error);
  ASSERT_TRUE(succeeded(consumed)) << error;
  ASSERT_EQ(consumed->size(), 2u);
  expectSameValues((*consumed)[0].tensor.data, (*copied)[0].tensor.data);
  expectValues((*consumed)[1].tensor.data, args[0].tensor.data);
}

//===----------------------------------------------------------------------===//
// softmax.fused against its unfused chain
//===----------------------------------------------------------------------===//

/// Random data of `shape`, each value rounded to `format`, with a few special values.
HostValue randomTensor(std::mt19937 &rng, std::vector<int64_t> shape, FloatFormat format,
                       double scale) {
  HostTensor t = HostTensor::filled(std::move(shape), 0.0);
  std::normal_distribution<double> normal(0.0, scale);
  for (double &v : t.data)
    v = roundTo(normal(rng), format);
  return HostValue::ofTensor(std::move(t));
}

HostValue randomInts(std::mt19937 &rng, std::vector<int64_t> shape, int lo, int hi) {
  HostTensor t = HostTensor::filled(std::move(shape), 0.0);
  std::uniform_int_distribution<int> dist(lo, hi);
  for (double &v : t.data)
    v = dist(rng);
  return HostValue::ofTensor(std::move(t));
}

// The chain cast -> scale -> scale by -> bias -> padding -> causal -> tensor mask -> round to
// f16 -> NORM -> cast, unfused (@unfused) and as one softmax.fused (@fused). NORM is replaced.
const char *kFusedTemplate = R"(
  func.func @unfused(%x: tensor<4x6x33xbf16>, %k: f32, %bias: tensor<4x1x33xf32>,
                     %len: tensor<4x6xi32>, %keep: tensor<1x33xi1>) -> tensor<4x6x33xbf16> {
    %0 = softmax.cast %x : tensor<4x6x33xbf16> to tensor<4x6x33xf32>
    %1 = softmax.scale %0 by 1.250000e-01 : tensor<4x6x33xf32>
    %2 = softmax.scale %1 by %k : tensor<4x6x33xf32>, f32
    %3 = softmax.add_bias %2, %bias : tensor<4x6x33xf32>, tensor<4x1x33xf32>
    %4 = softmax.mask %3, padding %len : tensor<4x6x33xf32>, tensor<4x6xi32>
    %5 = softmax.mask %4, causal offset = 20 : tensor<4x6x33xf32>
    %6 = softmax.mask %5, tensor %keep fill = -1.000000e+04 : tensor<4x6x33xf32>, tensor<1x33xi1>
    %7 = softmax.cast %6 : tensor<4x6x33xf32> to tensor<4x6x33xf16>
    UNFUSED_NORM
    return %9 : tensor<4x6x33xbf16>
  }
  func.func @fused(%x: tensor<4x6x33xbf16>, %k: f32, %bias: tensor<4x1x33xf32>,
                   %len: tensor<4x6xi32>, %keep: tensor<1x33xi1>) -> tensor<4x6x33xbf16> {
    %y = softmax.fused FUSED_NORM %x (%k, %bias, %len, %keep : f32, tensor<4x1x33xf32>, tensor<4x6xi32>, tensor<1x33xi1>)
           axis = 2
           prologue [#softmax.scale<1.250000e-01>, #softmax.scale_by<0>, #softmax.bias<1>,
                     #softmax.mask<padding, operand = 2, fill = 0xFFF0000000000000>,
                     #softmax.mask<causal, offset = 20, fill = 0xFFF0000000000000>,
                     #softmax.mask<tensor, operand = 3, fill = -1.000000e+04>,
                     #softmax.round<f16>] MASKED_ROWS
           : tensor<4x6x33xbf16> -> tensor<4x6x33xbf16>
    return %y : tensor<4x6x33xbf16>
  }
)";

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

TEST_F(ReferenceTest, FusedEqualsUnfusedChain) {
  struct Variant {
    const char *fusedNorm, *maskedRows, *unfusedNorm;
  };
  const Variant variants[] = {
      {"softmax", "", R"(%8 = softmax.softmax %7 : tensor<4x6x33xf16>
    %9 = softmax.cast %8 : tensor<4x6x33xf16> to tensor<4x6x33xbf16>)"},
      {"log_softmax", "masked_rows = nan",
       R"(%8 = softmax.log_softmax %7 masked_rows = nan : tensor<4x6x33xf16>
    %9 = softmax.cast %8 : tensor<4x6x33xf16> to tensor<4x6x33xbf16>)"},
      {"none", "", R"(%9 = softmax.cast %7 : tensor<4x6x33xf16> to tensor<4x6x33xbf16>)"},
  };
  std::mt19937 rng(1234);
  for (const Variant &v : variants) {
    SCOPED_TRACE(v.fusedNorm);
    std::string source = replaceAll(kFusedTemplate, "UNFUSED_NORM", v.unfusedNorm);
    source = replaceAll(source, "FUSED_NORM", v.fusedNorm);
    source = replaceAll(source, "MASKED_ROWS", v.maskedRows);
    // Lengths from -1 to 35 make some rows empty (fully masked) and some whole.
    std::vector<HostValue> args = {randomTensor(rng, {4, 6, 33}, FloatFormat::BF16, 30.0),
                                   HostValue::ofScalar(0.75),
                                   randomTensor(rng, {4, 1, 33}, FloatFormat::F32, 2.0),
                                   randomInts(rng, {4, 6}, -1, 35), randomInts(rng, {1, 33}, 0, 1)};
    // Make sure the keep-mask keeps something and the test sees fully masked rows.
    args[4].tensor.data[0] = 1;
    args[3].tensor.data[0] = 0;
    std::vector<HostValue> unfused = run(source, args, "unfused");
    std::vector<HostValue> fused = run(source, args, "fused");
    ASSERT_EQ(unfused.size(), 1u);
    ASSERT_EQ(fused.size(), 1u);
    expectSameValues(fused[0].tensor.data, unfused[0].tensor.data);
    // The fused result is already stored as bf16: rounding to the result type changes nothing.
    std::vector<double> stored = fused[0].tensor.data;
    roundAllTo(stored.data(), static_cast<int64_t>(stored.size()), FloatFormat::BF16);
    expectSameValues(stored, fused[0].tensor.data);
  }
}

TEST_F(ReferenceTest, FusedOnAMiddleAxisEqualsUnfusedChain) {
  // Axis 1 of [5, 7, 4]: causal with the query along dim 0, lengths over the row shape [5, 4],
  // a bias per column index [7, 1], a mask per (batch, last) [5, 1, 4]; f32 in, f16 out.
  const char *source = R"(
    func.func @unfused(%x: tensor<5x7x4xf32>, %bias: tensor<7x1xf16>, %len: tensor<5x4xi64>,
                       %keep: tensor<5x1x4xi1>) -> tensor<5x7x4xf16> {
      %0 = softmax.add_bias %x, %bias : tensor<5x7x4xf32>, tensor<7x1xf16>
      %1 = softmax.scale %0 by -2.500000e-01 : tensor<5x7x4xf32>
      %2 = softmax.mask %1, causal offset = 1 axis = 1 : tensor<5x7x4xf32>
      %3 = softmax.mask %2, padding %len axis = 1 : tensor<5x7x4xf32>, tensor<5x4xi64>
      %4 = softmax.mask %3, tensor %keep axis = 1 fill = -3.000000e+00 : tensor<5x7x4xf32>, tensor<5x1x4xi1>
      %5 = softmax.log_softmax %4 axis = 1 masked_rows = nan : tensor<5x7x4xf32>
      %6 = softmax.cast %5 : tensor<5x7x4xf32> to tensor<5x7x4xf16>
      return %6 : tensor<5x7x4xf16>
    }
    func.func @fused(%x: tensor<5x7x4xf32>, %bias: tensor<7x1xf16>, %len: tensor<5x4xi64>,
                     %keep: tensor<5x1x4xi1>) -> tensor<5x7x4xf16> {
      %y = softmax.fused log_softmax %x (%keep, %len, %bias : tensor<5x1x4xi1>, tensor<5x4xi64>, tensor<7x1xf16>)
             axis = -2
             prologue [#softmax.bias<2>, #softmax.scale<-2.500000e-01>,
                       #softmax.mask<causal, offset = 1, fill = 0xFFF0000000000000>,
                       #softmax.mask<padding, operand = 1, fill = 0xFFF0000000000000>,
                       #softmax.mask<tensor, operand = 0, fill = -3.000000e+00>]
             masked_rows = nan
             : tensor<5x7x4xf32> -> tensor<5x7x4xf16>
      return %y : tensor<5x7x4xf16>
    })";
  std::mt19937 rng(99);
  std::vector<HostValue> args = {randomTensor(rng, {5, 7, 4}, FloatFormat::F32, 10.0),
                                 randomTensor(rng, {7, 1}, FloatFormat::F16, 3.0),
                                 randomInts(rng, {5, 4}, 0, 8), randomInts(rng, {5, 1, 4}, 0, 1)};
  std::vector<HostValue> unfused = run(source, args, "unfused");
  std::vector<HostValue> fused = run(source, args, "fused");
  ASSERT_EQ(unfused.size(), 1u);
  ASSERT_EQ(fused.size(), 1u);
  expectSameValues(fused[0].tensor.data, unfused[0].tensor.data);
  // Not trivially equal: some values are finite, some rows fully masked (NaN by the policy).
  size_t finite = 0, nans = 0;
  for (double v : fused[0].tensor.data) {
    finite += std::isfinite(v);
    nans += std::isnan(v);
  }
  EXPECT_GT(finite, 20u);
  EXPECT_GT(nans, 0u);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(ReferenceTest, UnknownOpIsAnError) {
  std::string error = runError(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %e = tensor.empty() : tensor<2xf32>
      return %e : tensor<2xf32>
    })",
                               {tensorOf({2}, {1, 2})});
  EXPECT_NE(error.find("'tensor.empty'"), std::string::npos) << error;
  EXPECT_NE(error.find("test.mlir\":3:"), std::string::npos) << error;
}

TEST_F(ReferenceTest, ShapeErrors) {
  const char *source = R"(
    func.func @f(%x: tensor<?x3xf32>, %b: tensor<?xf32>) -> tensor<?x3xf32> {
      %y = softmax.add_bias %x, %b : tensor<?x3xf32>, tensor<?xf32>
      return %y : tensor<?x3xf32>
    })";
  // A dynamic bias size that does not broadcast.
  std::string error =
      runError(source, {tensorOf({2, 3}, {0, 0, 0, 0, 0, 0}), tensorOf({2}, {1, 2})});
  EXPECT_NE(error.find("'softmax.add_bias'"), std::string::npos) << error;
  EXPECT_NE(error.find("does not broadcast"), std::string::npos) << error;
  // A static dimension that the argument contradicts.
  error = runError(source, {tensorOf({3, 2}, {0, 0, 0, 0, 0, 0}), tensorOf({3}, {1, 2, 3})});
  EXPECT_NE(error.find("argument #0"), std::string::npos) << error;
  // Too few arguments; a scalar for a tensor.
  error = runError(source, {tensorOf({1, 3}, {0, 0, 0})});
  EXPECT_NE(error.find("expects 2 arguments"), std::string::npos) << error;
  error = runError(source, {tensorOf({1, 3}, {0, 0, 0}), HostValue::ofScalar(1.0)});
  EXPECT_NE(error.find("argument #1 must be a tensor"), std::string::npos) << error;
  // A dynamic size that broadcasts evaluates.
  std::vector<double> y = run1(source, {tensorOf({1, 3}, {0, 0, 0}), tensorOf({1}, {4})});
  expectValues(y, {4, 4, 4});
}

//===----------------------------------------------------------------------===//
// Float formats
//===----------------------------------------------------------------------===//

uint32_t apfloatBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool losesInfo = false;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint32_t>(f.bitcastToAPInt().getZExtValue());
}

TEST(FloatFormatsTest, TiesToEven) {
  // bf16 has 7 mantissa bits: 1 + 2^-8 is half-way between 1 and 1 + 2^-7.
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1.0, -8), FloatFormat::BF16), 1.0);
  EXPECT_EQ(roundTo(1.0 + 3 * std::ldexp(1.0, -8), FloatFormat::BF16), 1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), FloatFormat::BF16),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(doubleToBF16Bits(1.0), 0x3F80);
  EXPECT_EQ(doubleToBF16Bits(-2.0), 0xC000);
  // f16 spacing at 2048 is 2.
  EXPECT_EQ(roundTo(2049.0, FloatFormat::F16), 2048.0);
  EXPECT_EQ(roundTo(2051.0, FloatFormat::F16), 2052.0);
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1.0, -11), FloatFormat::F16), 1.0);
  EXPECT_EQ(roundTo(1.0 + 3 * std::ldexp(1.0, -11), FloatFormat::F16), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(doubleToF16Bits(1.0), 0x3C00);
  // f32: 1 + 2^-24 ties to 1, 1 + 3 * 2^-24 to 1 + 2^-22.
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1.0, -24), FloatFormat::F32), 1.0);
  EXPECT_EQ(roundTo(1.0 + 3 * std::ldexp(1.0, -24), FloatFormat::F32), 1.0 + std::ldexp(1.0, -22));
  // Directly from the double, not through f32: 1 + 2^-8 + 2^-30 rounds up in bf16, while
  // rounding it to f32 first (1 + 2^-8, a tie) and then to bf16 would give 1.
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30), FloatFormat::BF16),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(roundTo(0.1, FloatFormat::F64), 0.1);
}

TEST(FloatFormatsTest, OverflowToInfinity) {
  EXPECT_EQ(roundTo(65504.0, FloatFormat::F16), 65504.0);
  EXPECT_EQ(roundTo(65519.99, FloatFormat::F16), 65504.0);
  EXPECT_EQ(roundTo(65520.0, FloatFormat::F16), kInf); // the tie goes to the even "2^16"
  EXPECT_EQ(roundTo(-65520.0, FloatFormat::F16), -kInf);
  EXPECT_EQ(doubleToF16Bits(1e10), 0x7C00);
  const double bf16Max = std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
  EXPECT_EQ(roundTo(bf16Max, FloatFormat::BF16), bf16Max);
  EXPECT_EQ(roundTo(std::ldexp(2.0 - std::ldexp(1.0, -8), 127), FloatFormat::BF16), kInf);
  EXPECT_EQ(
      roundTo(std::ldexp(2.0 - std::ldexp(1.0, -8) - std::ldexp(1.0, -30), 127), FloatFormat::BF16),
      bf16Max); // just below the half-way point to 2^128
  const double f32Max = std::numeric_limits<float>::max();
  EXPECT_EQ(roundTo(f32Max, FloatFormat::F32), f32Max);
  EXPECT_EQ(roundTo(std::ldexp(2.0 - std::ldexp(1.0, -24), 127), FloatFormat::F32), kInf);
  EXPECT_EQ(roundTo(-1e300, FloatFormat::F32), -kInf);
  EXPECT_EQ(roundTo(kInf, FloatFormat::BF16), kInf);
  EXPECT_EQ(doubleToF32Bits(-kInf), 0xFF800000u);
  EXPECT_EQ(doubleToBF16Bits(kInf), 0x7F80);
}

TEST(FloatFormatsTest, NaNStaysNaN) {
  EXPECT_EQ(doubleToF16Bits(kNaN), 0x7E00);
  EXPECT_EQ(doubleToF16Bits(-kNaN), 0xFE00);
  EXPECT_EQ(doubleToBF16Bits(kNaN), 0x7FC0);
  EXPECT_EQ(doubleToF32Bits(kNaN), 0x7FC00000u);
  // A signalling NaN whose payload sits in the low bits only still gives a NaN (made quiet).
  uint64_t snanBits = 0x7FF0000000000001ull;
  double snan;
  std::memcpy(&snan, &snanBits, sizeof(snan));
  EXPECT_TRUE(std::isnan(roundTo(snan, FloatFormat::F16)));
  EXPECT_TRUE(std::isnan(roundTo(snan, FloatFormat::BF16)));
  EXPECT_TRUE(std::isnan(roundTo(snan, FloatFormat::F32)));
  EXPECT_TRUE(std::isnan(f16BitsToDouble(0x7C01)));
  EXPECT_TRUE(std::isnan(bf16BitsToDouble(0xFF81)));
}

TEST(FloatFormatsTest, Subnormals) {
  // f16: smallest subnormal 2^-24, largest 1023 * 2^-24, smallest normal 2^-14.
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1.0, -25)), 0x0000); // tie to even (zero)
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1.0000001, -25)), 0x0001);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(3.0, -25)), 0x0002); // 1.5 * 2^-24: tie to even (2)
  EXPECT_EQ(doubleToF16Bits(-std::ldexp(1.0, -26)), 0x8000);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1023.0, -24)), 0x03FF);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1023.5, -24)), 0x0400); // rounds up to the smallest normal
  EXPECT_EQ(f16BitsToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(f16BitsToDouble(0x03FF), std::ldexp(1023.0, -24));
  EXPECT_EQ(f16BitsToDouble(0x8200), -std::ldexp(1.0, -15));
  // bf16 and f32 share the exponent range: smallest subnormals 2^-133 and 2^-149.
  EXPECT_EQ(doubleToBF16Bits(std::ldexp(1.0, -133)), 0x0001);
  EXPECT_EQ(doubleToBF16Bits(std::ldexp(1.0, -134)), 0x0000);
  EXPECT_EQ(bf16BitsToDouble(0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(doubleToF32Bits(std::ldexp(1.0, -149)), 0x00000001u);
  EXPECT_EQ(doubleToF32Bits(std::ldexp(1.0, -150)), 0x00000000u);
  EXPECT_EQ(doubleToF32Bits(std::ldexp(1.5, -149)), 0x00000002u);
  EXPECT_EQ(f32BitsToDouble(0x00000003u), std::ldexp(3.0, -149));
  // Double subnormals and signed zeros.
  EXPECT_EQ(doubleToF32Bits(std::numeric_limits<double>::denorm_min()), 0u);
  EXPECT_EQ(doubleToF16Bits(-0.0), 0x8000);
  EXPECT_TRUE(std::signbit(roundTo(-0.0, FloatFormat::BF16)));
}

TEST(FloatFormatsTest, EveryHalfPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    double h = f16BitsToDouble(b), bf = bf16BitsToDouble(b);
    if (std::isnan(h))
      EXPECT_TRUE(std::isnan(roundTo(h, FloatFormat::F16)));
    else
      ASSERT_EQ(doubleToF16Bits(h), b) << "f16 " << std::hex << bits;
    if (std::isnan(bf))
      EXPECT_TRUE(std::isnan(roundTo(bf, FloatFormat::BF16)));
    else
      ASSERT_EQ(doubleToBF16Bits(bf), b) << "bf16 " << std::hex << bits;
    // Decoding agrees with APFloat.
    if (!std::isnan(h)) {
      ASSERT_EQ(h,
                llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits)).convertToDouble());
      ASSERT_EQ(bf,
                llvm::APFloat(llvm::APFloat::BFloat(), llvm::APInt(16, bits)).convertToDouble());
    }
  }
}

TEST(FloatFormatsTest, AgreesWithAPFloatAndTheHardwareOnRandomDoubles) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> exponent(-160, 140);
  std::uniform_int_distribution<uint64_t> mantissa(0, (uint64_t(1) << 52) - 1);
  for (int i = 0; i < 200000; ++i) {
    // Random sign and exponent over the ranges where the formats overflow, underflow and round;
    // every fourth value sits on or next to a tie of the narrow formats.
    uint64_t m = mantissa(rng);
    if (i % 4 == 0)
      m = (m & ~((uint64_t(1) << 45) - 1)) | (uint64_t(1) << 44) | (i % 8 == 0 ? 0 : 1);
    double v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -52), exponent(rng));
    if (rng() & 1)
      v = -v;
    ASSERT_EQ(doubleToF16Bits(v), apfloatBits(v, llvm::APFloat::IEEEhalf())) << v;
    ASSERT_EQ(doubleToBF16Bits(v), apfloatBits(v, llvm::APFloat::BFloat())) << v;
    ASSERT_EQ(doubleToF32Bits(v), apfloatBits(v, llvm::APFloat::IEEEsingle())) << v;
    float hw = static_cast<float>(v); // the host's conversion, round to nearest even
    uint32_t hwBits;
    std::memcpy(&hwBits, &hw, sizeof(hwBits));
    ASSERT_EQ(doubleToF32Bits(v), hwBits) << v;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// f32 intermediates (EvaluateOptions), the runner's second admissible result
//===----------------------------------------------------------------------===//

namespace {
TEST_F(ReferenceTest, F32IntermediatesRoundEachPrologueStep) {
  // Logits -30000 + 0.3 and -30000: 0.3 apart in double, 0.30078125 in f32 (which holds
  // -29999.7 to 2^-9), as the kernels' f32 arithmetic has them; the softmax shows the difference
  // (2e-4), for a separate op and for a fused step alike.
  const char *separate = R"mlir(
func.func @f(%x: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %y = softmax.add_bias %x, %b : tensor<2xf32>, tensor<2xf32>
  %z = softmax.softmax %y : tensor<2xf32>
  return %z : tensor<2xf32>
}
)mlir";
  const char *fused = R"mlir(
func.func @f(%x: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %y = softmax.fused softmax %x (%b : tensor<2xf32>) axis = 0 prologue [#softmax.bias<0>] : tensor<2xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}
)mlir";
  for (const char *source : {separate, fused}) {
    func::FuncOp fn = parse(source);
    ASSERT_TRUE(fn) << source;
    std::vector<HostValue> args = {tensorOf({2}, {-30000.0, -30000.0}),
                                   tensorOf({2}, {0.3, 0.0})};
    std::string error;
    FailureOr<std::vector<HostValue>> f64 = evaluate(fn, args, error);
    ASSERT_TRUE(succeeded(f64)) << error;
    FailureOr<std::vector<HostValue>> f32 =
        evaluate(fn, args, error, EvaluateOptions{/*f32Intermediates=*/true});
    ASSERT_TRUE(succeeded(f32)) << error;
    double y64 = (*f64)[0].tensor.data[0], y32 = (*f32)[0].tensor.data[0];
    EXPECT_NEAR(y64, 1.0 / (1.0 + std::exp(-0.3)), 1e-7) << source;
    EXPECT_NEAR(y32, 1.0 / (1.0 + std::exp(-0.30078125)), 1e-7) << source;
    EXPECT_GT(y32 - y64, 1e-4) << source;
  }
}

TEST(RoundFlippingNearTieTest, OnlyNearTiesOf16BitFormatsRoundTheOtherWay) {
  // f16 has 10 stored bits: 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10.
  double tie = 1.0 + std::ldexp(1.0, -11);
  EXPECT_EQ(roundTo(tie, FloatFormat::F16), 1.0);
  EXPECT_EQ(roundFlippingNearTie(tie, FloatFormat::F16), 1.0 + std::ldexp(1.0, -10));
  // Within the window (2^-21 relative) above the midpoint: nearest is up, the flip down.
  double above = tie + std::ldexp(1.0, -23);
  EXPECT_EQ(roundTo(above, FloatFormat::F16), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(roundFlippingNearTie(above, FloatFormat::F16), 1.0);
  EXPECT_EQ(roundFlippingNearTie(-above, FloatFormat::F16), -1.0);
  // Outside it: rounds to nearest.
  double far = tie + std::ldexp(1.0, -19);
  EXPECT_EQ(roundFlippingNearTie(far, FloatFormat::F16), 1.0 + std::ldexp(1.0, -10));
  // bf16 (7 stored bits): the midpoint of 1 and 1 + 2^-7.
  EXPECT_EQ(roundFlippingNearTie(1.0 + std::ldexp(1.0, -8), FloatFormat::BF16),
            1.0 + std::ldexp(1.0, -7));
  // f32 and non-finite values round as roundTo does.
  EXPECT_EQ(roundFlippingNearTie(1.0 + std::ldexp(1.0, -24), FloatFormat::F32), 1.0);
  EXPECT_TRUE(std::isinf(roundFlippingNearTie(INFINITY, FloatFormat::F16)));
}

TEST_F(ReferenceTest, NearTiesFlippedAtRoundStepsAndCasts) {
  // Seed 1498 in miniature: a scaled logit exactly halfway between two f16 values, rounded to
  // f16 by a round step (fused) or a cast (separate ops). The kernel's f32 arithmetic may land on
  // either side of it; flipNearTies gives the other neighbour than the float64 reference's.
  const char *fused = R"mlir(
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = softmax.fused log_softmax %x axis = 0 prologue [#softmax.scale<5.000000e-01>, #softmax.round<f16>] : tensor<2xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}
)mlir";
  const char *separate = R"mlir(
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = softmax.scale %x by 5.000000e-01 : tensor<2xf32>
  %h = softmax.cast %s : tensor<2xf32> to tensor<2xf16>
  %y = softmax.log_softmax %h : tensor<2xf16>
  %z = softmax.cast %y : tensor<2xf16> to tensor<2xf32>
  return %z : tensor<2xf32>
}
)mlir";
  double x0 = 2.0 * (1.0 + std::ldexp(1.0, -11));
  for (const char *source : {fused, separate}) {
    func::FuncOp fn = parse(source);
    ASSERT_TRUE(fn) << source;
    std::vector<HostValue> args = {tensorOf({2}, {x0, 0.0})};
    std::string error;
    FailureOr<std::vector<HostValue>> nearest = evaluate(fn, args, error);
    ASSERT_TRUE(succeeded(nearest)) << error;
    EvaluateOptions options;
    options.flipNearTies = true;
    FailureOr<std::vector<HostValue>> flipped = evaluate(fn, args, error, options);
    ASSERT_TRUE(succeeded(flipped)) << error;
    // log_softmax([z, 0])[1] = -log(1 + e^z): z = 1 to nearest, 1 + 2^-10 flipped.
    double z1 = 1.0 + std::ldexp(1.0, -10);
    EXPECT_NEAR((*nearest)[0].tensor.data[1], -std::log1p(std::exp(1.0)), 2e-3) << source;
    EXPECT_NEAR((*flipped)[0].tensor.data[1], -std::log1p(std::exp(z1)), 2e-3) << source;
    EXPECT_GT((*nearest)[0].tensor.data[1] - (*flipped)[0].tensor.data[1], 5e-4) << source;
  }
}
TEST_F(ReferenceTest, LogitScaleGivesEachElementItsMagnitudePlusTheSlices) {
  // |z_i| + M: M the largest |z_j| among the finite logits within 104 of the slice's maximum
  // (a fill of -1e9 does not count, a masked -inf gives 0), over the last axis and another, and
  // through casts that would overflow f16 (nothing rounds).
  const char *source = R"mlir(
func.func @f(%x: tensor<2x4xf32>) -> (tensor<2x4xf16>, tensor<2x4xf32>) {
  %s = softmax.scale %x by 1.000000e+01 : tensor<2x4xf32>
  %p = softmax.softmax %s : tensor<2x4xf32>
  %h = softmax.cast %p : tensor<2x4xf32> to tensor<2x4xf16>
  %q = softmax.fused log_softmax %x axis = 0 prologue [#softmax.scale<1.000000e+01>] : tensor<2x4xf32> -> tensor<2x4xf32>
  return %h, %q : tensor<2x4xf16>, tensor<2x4xf32>
}
)mlir";
  func::FuncOp fn = parse(source);
  ASSERT_TRUE(fn);
  double ninf = -std::numeric_limits<double>::infinity();
  std::vector<HostValue> args = {
      tensorOf({2, 4}, {10000.0, -0.3, -1e8, ninf, ninf, ninf, ninf, ninf})};
  std::string error;
  EvaluateOptions options;
  options.logitScale = true;
  FailureOr<std::vector<HostValue>> scales = evaluate(fn, args, error, options);
  ASSERT_TRUE(succeeded(scales)) << error;
  // Rows: logits [1e5, -3, -1e9, -inf] -> M = 1e5; a fully masked row -> 0.
  EXPECT_EQ((*scales)[0].tensor.data,
            (std::vector<double>{2e5, 1e5 + 3, 1e9 + 1e5, 0, 0, 0, 0, 0}));
  // Columns (axis 0): [1e5, -inf] -> 2e5 and 0; [-3, -inf] -> 6; [-1e9, -inf] -> 2e9; [-inf,
  // -inf] -> 0.
  EXPECT_EQ((*scales)[1].tensor.data, (std::vector<double>{2e5, 6, 2e9, 0, 0, 0, 0, 0}));
}
} // namespace
