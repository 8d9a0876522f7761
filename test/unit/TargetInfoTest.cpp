//===- TargetInfoTest.cpp - the strided_axis kernels' register budgets ----===//
//
// The budgets of TargetInfo.h at the points ptxas calibrated them on (the generator's programs
// that spilled below them, docs/fuzzing.md). The lit tests assemble whole kernels; these pin the
// extras whose kernels no lit program exercises at the moment, so that dropping one is noticed
// (scripts/mutate.py: axis-log-softmax-budget, axis-tier-budget-of-a-static-c).
//
//===----------------------------------------------------------------------===//

#include "softmax/Target/TargetInfo.h"

#include <gtest/gtest.h>

using namespace mlir::softmax;

// The four-index path: 9 chunks of 4 in blocks of 512 as a log_softmax spilled 8 bytes at 112
// and none at 120 (generated seeds 240 and 376 of the strided_axis family): 8 more than the
// softmax's.
TEST(TargetInfo, StridedAxisLogSoftmaxTakesEightMore) {
  EXPECT_EQ(getStridedAxisRegisters(4, 9, /*logSoftmax=*/false, /*hasPrologue=*/false,
                                    /*lean=*/false),
            108);
  EXPECT_EQ(getStridedAxisRegisters(4, 9, /*logSoftmax=*/true, /*hasPrologue=*/false,
                                    /*lean=*/false),
            116);
  // After a prologue, 8 more again (generator seed 548).
  EXPECT_EQ(getStridedAxisRegisters(4, 9, /*logSoftmax=*/true, /*hasPrologue=*/true,
                                    /*lean=*/false),
            124);
}

// Packed tiers of a dynamic C past 64 values keep a register for each chunk's test of C (128
// values spilled 26-60 bytes at 104 and up to 8 at 112); a static C's plan has no such test.
TEST(TargetInfo, PackedAxisTierOfADynamicCTakesARegisterAChunk) {
  EXPECT_EQ(getPackedStridedAxisRegisters(8, 32, 8, 16, /*hasPrologue=*/false,
                                          /*dynamicAxis=*/false),
            112);
  EXPECT_EQ(getPackedStridedAxisRegisters(8, 32, 8, 16, /*hasPrologue=*/false,
                                          /*dynamicAxis=*/true),
            128);
  // 64 values or fewer: no extra either way.
  EXPECT_EQ(getPackedStridedAxisRegisters(8, 32, 8, 8, false, true),
            getPackedStridedAxisRegisters(8, 32, 8, 8, false, false));
}
