//===- CompareTest.cpp - The runner's comparison with the reference --------===//

#include "softmax/Runner/Compare.h"

#include <gtest/gtest.h>

#include <vector>

using namespace softmax::runner;

namespace {

/// One f32 row of probabilities: `got` against `reference`, with `alternatives` when given.
CompareResult compareRow(const std::vector<float> &got, const std::vector<double> &reference,
                         std::vector<const std::vector<double> *> alternatives) {
  std::vector<const double *> data;
  for (const std::vector<double> *alternative : alternatives)
    data.push_back(alternative->data());
  return compareOutput(ElementKind::F32, {1, static_cast<int64_t>(got.size())}, got.data(),
                       /*rowStride=*/0, reference.data(), OutputKind::Probabilities,
                       /*maxReported=*/8, /*rowsAreDistributions=*/true, /*axis=*/-1, data);
}

TEST(CompareTest, AnElementOffTheReferenceButOnTheF32EvaluationPasses) {
  // Seed 959 of the generator in miniature: the f64 reference and the f32 evaluation of the same
  // program differ by far more than f32's tolerance; a kernel on the f32 evaluation passes when
  // it is given, and is counted.
  std::vector<double> reference = {0.472196668, 0.527803332};
  std::vector<double> f32Evaluation = {0.471709937, 0.528290063};
  std::vector<float> kernel = {0.471709907f, 0.528290033f};
  CompareResult alone = compareRow(kernel, reference, {});
  EXPECT_EQ(alone.mismatches, 2);
  CompareResult both = compareRow(kernel, reference, {&f32Evaluation});
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
  CompareResult result = compareRow(wrong, reference, {&f32Evaluation});
  EXPECT_EQ(result.mismatches, 2);
  EXPECT_EQ(result.acceptedByAlternative, 0);
  EXPECT_FALSE(result.passed());
}

TEST(CompareTest, EachElementMayMatchADifferentAlternative) {
  // Near ties rounded the other way move some logits and not others, so one element can match
  // the f32 evaluation and its neighbour the flipped one: each passes on its own.
  std::vector<double> reference = {0.25, 0.75};
  std::vector<double> f32Evaluation = {0.2501, 0.75};
  std::vector<double> nearTiesFlipped = {0.25, 0.7499};
  std::vector<float> kernel = {0.2501f, 0.7499f};
  EXPECT_EQ(compareRow(kernel, reference, {&f32Evaluation}).mismatches, 1);
  EXPECT_EQ(compareRow(kernel, reference, {&nearTiesFlipped}).mismatches, 1);
  CompareResult both = compareRow(kernel, reference, {&f32Evaluation, &nearTiesFlipped});
  EXPECT_EQ(both.mismatches, 0);
  EXPECT_EQ(both.acceptedByAlternative, 2);
}

TEST(CompareTest, AColumnSoftmaxIsJudgedOnItsColumnsScale) {
  // A softmax over axis 0 of [3, 2]: each column is a distribution; a memory row holds one
  // element of each. Row 0's small probabilities (3e-5, off by 5e-6 relative, as an f32 sum of
  // a long column is) pass against their column's largest probability (~1), which the
  // absolute term of the tolerance scales with; judged on their row's scale (3e-5) they fail.
  std::vector<double> reference = {3e-5, 3e-5, 0.99994, 0.99994, 3e-5, 3e-5};
  std::vector<float> kernel(reference.begin(), reference.end());
  kernel[0] = kernel[1] = float(3e-5 * (1 + 5e-6));
  CompareResult asRows = compareOutput(ElementKind::F32, {3, 2}, kernel.data(), 0,
                                       reference.data(), OutputKind::Probabilities, 8,
                                       /*rowsAreDistributions=*/true);
  EXPECT_EQ(asRows.mismatches, 2);
  CompareResult asColumns = compareOutput(ElementKind::F32, {3, 2}, kernel.data(), 0,
                                          reference.data(), OutputKind::Probabilities, 8,
                                          /*rowsAreDistributions=*/false, /*axis=*/0);
  EXPECT_EQ(asColumns.mismatches, 0);
  // Off by more than the column's absolute term (1e-6 of its largest probability): a mismatch.
  kernel[0] = float(3e-5 + 5e-6);
  EXPECT_EQ(compareOutput(ElementKind::F32, {3, 2}, kernel.data(), 0, reference.data(),
                          OutputKind::Probabilities, 8, false, 0)
                .mismatches,
            1);
}

TEST(CompareTest, ProbabilitiesBelowTheFlushThresholdMayBeZero) {
  // The kernels' exp flushes results below 2^-126 to zero: a reference subnormal comes out 0.
  // (A row of tiny values, so that the row's scale does not cover it anyway.)
  std::vector<double> reference = {1.78e-43, 1e-40};
  std::vector<float> kernel = {0.0f, 1e-40f};
  EXPECT_EQ(compareRow(kernel, reference, {}).mismatches, 0);
  // Not above it.
  reference = {2e-38, 1e-40};
  EXPECT_EQ(compareRow(kernel, reference, {}).mismatches, 1);
}

} // namespace
