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

TEST(CompareTest, LargeLogitsWidenTheToleranceByTheirConditioning) {
  // Seed 5116 in miniature: logits of magnitude ~900 (a scale by 0.088388 then 10000) computed
  // in f32 move the probabilities by a few 1e-4 relative, far past f32's 2e-6; with the logits'
  // magnitudes (EvaluateOptions::logitScale) the tolerance covers what f32 allows, and no more.
  std::vector<double> reference = {0.3, 0.7};
  std::vector<float> kernel = {float(0.3 * (1 + 2e-4)), float(0.7 * (1 - 2e-4 * 3 / 7))};
  std::vector<double> large = {1800, 1795}, small = {20, 18};
  auto compare = [&](const std::vector<float> &got, const double *scale, OutputKind kind) {
    return compareOutput(ElementKind::F32, {1, 2}, got.data(), 0, reference.data(), kind, 8,
                         true, -1, {}, scale);
  };
  EXPECT_EQ(compare(kernel, nullptr, OutputKind::Probabilities).mismatches, 2);
  CompareResult conditioned = compare(kernel, large.data(), OutputKind::Probabilities);
  EXPECT_EQ(conditioned.mismatches, 0);
  EXPECT_EQ(conditioned.acceptedByLogitConditioning, 2);
  // Logits of ordinary size allow 2e-5 relative, not 2e-4.
  EXPECT_EQ(compare(kernel, small.data(), OutputKind::Probabilities).mismatches, 2);
  // Past the conditioning of large logits (1.7e-3 relative at 1800): a mismatch still.
  std::vector<float> wrong = {float(0.3 * (1 + 6e-3)), float(0.7 * (1 - 6e-3 * 3 / 7))};
  EXPECT_EQ(compare(wrong, large.data(), OutputKind::Probabilities).mismatches, 2);
  // Log-probabilities: the same share, absolute (1.7e-3 at 1800, 1.9e-5 at 20).
  reference = {-1.0, -0.5};
  std::vector<float> logs = {float(-1.0 + 1e-3), float(-0.5 - 1e-3)};
  EXPECT_EQ(compare(logs, nullptr, OutputKind::LogProbabilities).mismatches, 2);
  EXPECT_EQ(compare(logs, large.data(), OutputKind::LogProbabilities).mismatches, 0);
  EXPECT_EQ(compare(logs, small.data(), OutputKind::LogProbabilities).mismatches, 2);
  // Element-wise values have no logits: the scale does not apply.
  EXPECT_EQ(compare(logs, large.data(), OutputKind::Values).mismatches, 2);
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
