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
                       /*maxReported=*/8, /*rowsAreDistributions=*/true, data);
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

} // namespace
