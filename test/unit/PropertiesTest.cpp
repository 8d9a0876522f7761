//===- PropertiesTest.cpp - softmax-run --property's analysis and checks -===//
//
// The checks must catch what they are for (a swapped pair, a row that does not sum to 1) and
// must not flag what the kernels legitimately do (ties, one ulp of rounding); the analysis must
// apply each property only where the program keeps it true.

#include "softmax/Registration.h"
#include "softmax/Runner/Properties.h"
#include "softmax/Runner/Compare.h"
#include "softmax/Runner/Storage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mlir;
using namespace ::softmax::runner;

namespace {

TEST(PropertiesTest, ParsesTheList) {
  PropertySet set;
  std::string error;
  ASSERT_TRUE(parsePropertySet("all", set, error));
  EXPECT_TRUE(set.shift && set.rowSum && set.monotone);
  ASSERT_TRUE(parsePropertySet("row-sum,monotone", set, error));
  EXPECT_FALSE(set.shift);
  EXPECT_TRUE(set.rowSum && set.monotone);
  ASSERT_TRUE(parsePropertySet("none", set, error));
  EXPECT_FALSE(set.any());
  EXPECT_FALSE(parsePropertySet("shift,sums", set, error));
  EXPECT_NE(error.find("'sums'"), std::string::npos) << error;
}

TEST(PropertiesTest, MonotoneCatchesASwappedPair) {
  // Row 1 has the outputs of its logits 0.5 and 2.0 swapped.
  std::vector<double> logits = {0.0, 1.0, 2.0, 0.5, 2.0, 1.0};
  std::vector<double> out = {0.09, 0.24, 0.67, 0.67, 0.09, 0.24};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 2, 3, ElementKind::F32, first), 2);
  EXPECT_NE(first.find("row 1"), std::string::npos) << first;
}

TEST(PropertiesTest, MonotoneAllowsTiesAndOneUlp) {
  // Equal logits may get different outputs only through rounding, which is not an order; an
  // inversion of one bf16 ulp is the kernels' exp2.approx and rounding, not a bug.
  std::vector<double> logits = {1.0, 1.0, 2.0, 3.0};
  double ulp = std::ldexp(1.0, -8);
  std::vector<double> out = {0.25, 0.2, 0.5, 0.5 - 0.5 * ulp};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 4, ElementKind::BF16, first), 0)
      << first;
  // Not for f32, whose allowance is one f32 ulp and 16 of its arithmetic's (2^-23 + 2^-19).
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 4, ElementKind::F32, first), 1);
}

TEST(PropertiesTest, MonotoneAllowsTheF32ArithmeticOfTwoBlocks) {
  // Seed 28 of the generator on the H200: equal logits (after a rounding to bf16) in two blocks
  // of a cluster gave f32 outputs 8 ulps (5.1e-7, relative) apart; 2^-18 apart is beyond.
  std::vector<double> logits = {-2.66379619, -2.65988207};
  std::vector<double> out = {1.78453092e-06, 1.78453001e-06};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first), 0)
      << first;
  out[0] = out[1] * (1 + std::ldexp(1.0, -18));
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first), 1);
}

TEST(PropertiesTest, MonotoneAllowsASubnormalFlushedToZero) {
  // Seed 3181 of the generator (an H100): two bf16 outputs below f32's smallest normal, one
  // flushed to zero by its block's f32 arithmetic and the other not.
  std::vector<double> logits = {-4.09902716, -4.097754};
  std::vector<double> out = {2.75506488e-40, 0.0};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::BF16, first), 0)
      << first;
  // Above it the same inversion is a violation.
  out = {2.75506488e-30, 0.0};
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::BF16, first), 1);
}

TEST(PropertiesTest, MonotoneAllowsTheConditioningOfLargeLogits) {
  // Seed 7160 of the generator (an H100): x scaled by 10 over 60000 f32 columns; two logits
  // 1.2e-7 apart (1.2e-6 after the scale) came out 2.4e-6 relative the wrong way round, past
  // 16 f32 ulps: their exp2 arguments ((z - max) * log2(e), ~ -70) carry f32 errors of that size.
  // Their magnitudes (|z| + M, M the row's largest ~45) allow 5e-5.
  std::vector<double> logits = {-0.644275844, -0.644275725};
  std::vector<double> out = {2.63427793e-22, 2.63427162e-22};
  std::vector<double> scale = {51.4, 51.4};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first), 1);
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first,
                                    scale.data()),
            0);
  // Logits of ordinary size (|z| + M of 3) allow 6e-6 only: 1e-4 the wrong way is a violation.
  out = {2.63427793e-22 * (1 + 1e-4), 2.63427793e-22};
  scale = {3, 3};
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first,
                                    scale.data()),
            1);
  // Log-probabilities: the allowance is absolute (1e-4 from the ulps at -50, 1e-4 more from
  // the logits).
  out = {-50.0 + 1.5e-4, -50.0};
  scale = {51.4, 51.4};
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first), 1);
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first,
                                    scale.data(), /*logarithms=*/true),
            0);
  out = {-50.0 + 1e-3, -50.0};
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 2, ElementKind::F32, first,
                                    scale.data(), /*logarithms=*/true),
            1);
}

TEST(PropertiesTest, RowSumConditioningWeighsEachOutputsLogitScale) {
  // kLogitConditioning * sum_j p_j * scale_j: a fill far below the row's maximum (scale 1e9)
  // holds p = 0 and adds nothing.
  std::vector<double> out = {0.25, 0.75, 0.0};
  std::vector<double> scale = {2000, 1000, 1e9};
  EXPECT_DOUBLE_EQ(rowSumConditioning(out.data(), scale.data(), 3, false),
                   kLogitConditioning * (0.25 * 2000 + 0.75 * 1000));
  std::vector<double> logs = {std::log(0.25), std::log(0.75), -1e9};
  EXPECT_NEAR(rowSumConditioning(logs.data(), scale.data(), 3, true),
              kLogitConditioning * 1250, 1e-12);
}

TEST(PropertiesTest, MonotoneSkipsRowsWithNaN) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> logits = {0.0, nan, 1.0};
  std::vector<double> out = {0.9, 0.0, 0.1};
  std::string first;
  EXPECT_EQ(countMonotoneViolations(logits.data(), out.data(), 1, 3, ElementKind::F32, first), 0);
}

TEST(PropertiesTest, RowSumBoundIsTheStorageRounding) {
  // Half an ulp each, relative: bf16 rows may be 2^-8-ish off, f32 rows about 1e-6.
  EXPECT_GT(rowSumBound(ElementKind::BF16, 4096), std::ldexp(1.0, -8));
  EXPECT_LT(rowSumBound(ElementKind::BF16, 4096), 0.01);
  EXPECT_LT(rowSumBound(ElementKind::F32, 4096), 5e-6);
  // f16 flushes probabilities below its smallest subnormal: wide rows lose up to half of it
  // each.
  EXPECT_GT(rowSumBound(ElementKind::F16, 1 << 20), (1 << 20) * 5.97e-8 / 2);
}

TEST(PropertiesTest, LogProbabilitiesSumThroughTheirExponentials) {
  // A bf16 row of 4096 log-probabilities: each rounded by up to 2^-9 |y|, so the sum of their
  // exponentials may be off by about 2^-7 (1 + ln 4096) = 0.073, more than a row of
  // probabilities (a log_softmax that added log(sum) instead would be off by far more).
  double bound = rowSumBound(ElementKind::BF16, 4096, /*logarithms=*/true);
  EXPECT_GT(bound, rowSumBound(ElementKind::BF16, 4096));
  EXPECT_LT(bound, 0.1);
  EXPECT_LT(rowSumBound(ElementKind::F32, 4096, /*logarithms=*/true), 3e-5);
}

TEST(PropertiesTest, TheShiftGridIsExact) {
  // bf16 (8 significand bits) up to 111: steps of 0.5, so x + 96 is a bf16 value for every x.
  std::vector<double> values = {-100.0, -3.3, 0.26, 7.77, 14.9, 20.0,
                                -std::numeric_limits<double>::infinity()};
  putOnShiftGrid(values, 8, 111.0);
  EXPECT_EQ(values.front(), -kShiftInputBound);
  EXPECT_EQ(values[5], kShiftInputBound);
  EXPECT_TRUE(std::isinf(values.back()));
  for (double value : values) {
    if (!std::isfinite(value))
      continue;
    EXPECT_EQ(roundToKind(ElementKind::BF16, value), value);
    EXPECT_EQ(roundToKind(ElementKind::BF16, value + kShift), value + kShift) << value;
  }
}

class PropertiesAnalysisTest : public ::testing::Test {
protected:
  PropertiesAnalysisTest() {
    DialectRegistry registry;
    mlir::softmax::registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The analysis of the one function of `source`, with a signature of its argument count.
  PropertyAnalysis analyze(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto fn = *module->getOps<func::FuncOp>().begin();
    Signature signature;
    for (Type type : fn.getArgumentTypes()) {
      ArgSpec spec;
      spec.isTensor = isa<RankedTensorType>(type);
      spec.element = ElementKind::F32;
      signature.inputs.push_back(spec);
    }
    return analyzeProperties(fn, signature);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(PropertiesAnalysisTest, ACausalChainKeepsTheShiftNotTheOrder) {
  PropertyAnalysis analysis = analyze(R"mlir(
    func.func @f(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
      %a = softmax.cast %x : tensor<4x64xbf16> to tensor<4x64xf32>
      %s = softmax.scale %a by 0.125 : tensor<4x64xf32>
      %m = softmax.mask %s, causal : tensor<4x64xf32>
      %p = softmax.softmax %m : tensor<4x64xf32>
      %y = softmax.cast %p : tensor<4x64xf32> to tensor<4x64xbf16>
      return %y : tensor<4x64xbf16>
    })mlir");
  ASSERT_EQ(analysis.outputs.size(), 1u);
  EXPECT_EQ(analysis.shiftBlocker, "");
  EXPECT_EQ(analysis.outputs[0].logits, 0);
  EXPECT_EQ(analysis.gridBits, 8); // the bf16 argument
  EXPECT_NE(analysis.outputs[0].monotoneBlocker.find("mask"), std::string::npos);
  EXPECT_EQ(analysis.outputs[0].rowSumBlocker, "");
  EXPECT_EQ(checkFactors(analysis.outputs[0], {{}}, /*forShift=*/true), "");
}

TEST_F(PropertiesAnalysisTest, AFiniteFillBlocksTheShift) {
  PropertyAnalysis analysis = analyze(R"mlir(
    func.func @f(%x: tensor<4x64xf32>, %n: tensor<4xi32>) -> tensor<4x64xf32> {
      %m = softmax.mask %x, padding %n fill = -10000.0 : tensor<4x64xf32>, tensor<4xi32>
      %p = softmax.log_softmax %m : tensor<4x64xf32>
      return %p : tensor<4x64xf32>
    })mlir");
  EXPECT_NE(analysis.shiftBlocker.find("finite fill"), std::string::npos)
      << analysis.shiftBlocker;
  // Log-probabilities keep the row sum: their exponentials sum to 1.
  EXPECT_EQ(analysis.outputs[0].rowSumBlocker, "");
}

TEST_F(PropertiesAnalysisTest, ABiasBlocksTheOrderAndAScaleItsFactor) {
  PropertyAnalysis analysis = analyze(R"mlir(
    func.func @f(%x: tensor<4x64xf32>, %b: tensor<64xf32>, %t: f32) -> tensor<4x64xf32> {
      %a = softmax.add_bias %x, %b : tensor<4x64xf32>, tensor<64xf32>
      %s = softmax.scale %a by %t : tensor<4x64xf32>, f32
      %p = softmax.softmax %s : tensor<4x64xf32>
      return %p : tensor<4x64xf32>
    })mlir");
  const OutputChain &chain = analysis.outputs[0];
  EXPECT_EQ(analysis.shiftBlocker, "");
  EXPECT_EQ(chain.biasArguments, std::vector<int>{1});
  EXPECT_EQ(chain.factorArguments, std::vector<int>{2});
  EXPECT_NE(chain.monotoneBlocker.find("bias"), std::string::npos);
  // The scalar's run-time value decides: a power of two keeps the shift exact, 0.7 does not.
  EXPECT_EQ(checkFactors(chain, {{}, {}, {0.25}}, /*forShift=*/true), "");
  EXPECT_NE(checkFactors(chain, {{}, {}, {0.7}}, /*forShift=*/true), "");
  // With a bias the logits reach 96 + 15 + 15, times the factor when it is above 1.
  EXPECT_EQ(getShiftMagnitude(chain, {{}, {}, {4.0}}), 4 * (96 + 2 * kShiftInputBound));
  // A factor of 1/4 puts the scaled logits on a grid 4 times finer than the bias's: the grid
  // must be that much coarser for their sums to stay exact.
  EXPECT_EQ(getShiftMagnitude(chain, {{}, {}, {0.25}}), 4 * (96 + 2 * kShiftInputBound));
}

TEST_F(PropertiesAnalysisTest, ASoftmaxOverAnotherAxisKeepsOnlyTheShift) {
  PropertyAnalysis analysis = analyze(R"mlir(
    func.func @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %p = softmax.softmax %x axis = 0 : tensor<8x64xf32>
      return %p : tensor<8x64xf32>
    })mlir");
  EXPECT_EQ(analysis.shiftBlocker, "");
  EXPECT_NE(analysis.outputs[0].monotoneBlocker, "");
  EXPECT_NE(analysis.outputs[0].rowSumBlocker, "");
}

TEST_F(PropertiesAnalysisTest, ANegativeScaleReversesTheOrder) {
  PropertyAnalysis analysis = analyze(R"mlir(
    func.func @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %s = softmax.scale %x by -2.0 : tensor<8x64xf32>
      %p = softmax.softmax %s : tensor<8x64xf32>
      return %p : tensor<8x64xf32>
    })mlir");
  const OutputChain &chain = analysis.outputs[0];
  EXPECT_EQ(checkFactors(chain, {{}}, /*forShift=*/true), "");
  EXPECT_NE(checkFactors(chain, {{}}, /*forShift=*/false).find("negative"), std::string::npos);
}

} // namespace
