//===- CompareTest.cpp - The runner's comparison with the reference --------===//

#include "softmax/Runner/Compare.h"

#include <gtest/gtest.h>

#include <vector>

using namespace softmax::runner;

namespace {

/// One f32 row of probabilities: `got` against `reference`, with `alternative` when given.
CompareResult compareRow(const std::vector<float> &got, const std::vector<double> &reference,
                         const std::vector<double> *alternative) {
  return compareOutput(ElementKind::F32, {1, static_cast<int64_t>(got.size())}, got.data(),
                       /*rowStride=*/0, reference.data(), OutputKind::Probabilities,
                       /*maxReported=*/8, /*rowsAreDistributions=*/true,
                       alternative ? alternative->data() : nullptr);
}

TEST(CompareTest, AnElementOffTheReferenceButOnTheF32EvaluationPasses) {
  // Seed 959 of the generator in miniature: the f64 reference and the f32 evaluation of the same
  // program differ by far more than f32's tolerance; a kernel on the f32 evaluation passes when
  // it is given, and is counted.
  std::vector<double> reference = {0.472196668, 0.527803332};
  std::vector<double> f32Evaluation = {0.471709937, 0.528290063};
  std::vector<float> kernel = {0.471709907f, 0.528290033f};
  CompareResult alone = compareRow(kernel, reference, nullptr);
  EXPECT_EQ(alone.mismatches, 2);
  CompareResult both = compareRow(kernel, reference, &f32Evaluation);
  EXPECT_EQ(both.mismatches, 0);
  EXPECT_EQ(both.acceptedByAlternative, 2);
  EXPECT_TRUE(both.passed());
  // The errors are still measured against the float64 reference.
  EXPECT_NEAR(both.maxAbsError, 0.000487, 1e-6);
}

TEST(CompareTest, AnElementOffBothIsAMismatch) {
  std::vector<double> reference = {0.472196668, 0.527803332};
  std::vector<double> f32Evaluation = {0.471709937, 0.528290063};
  std::vector<float> wrong = {0.46f, 0.54f};
  CompareResult result = compareRow(wrong, reference, &f32Evaluation);
  EXPECT_EQ(result.mismatches, 2);
  EXPECT_EQ(result.acceptedByAlternative, 0);
  EXPECT_FALSE(result.passed());
}

} // namespace
