//===- RunnerOptionsTest.cpp - softmax-run's settings without a command line ===//

#include "softmax/Runner/RunnerOptions.h"

#include "gtest/gtest.h"

using namespace softmax::runner;

namespace {

std::string verify(RunnerOptions options) {
  llvm::Error err = verifyRunnerOptions(options);
  return err ? llvm::toString(std::move(err)) : "ok";
}

TEST(RunnerOptionsTest, TheDefaultsAreValid) {
  RunnerOptions options;
  EXPECT_EQ(verify(options), "ok");
  options.special = "nan,large";
  ASSERT_FALSE(verifyRunnerOptions(options));
  EXPECT_EQ(options.inputs.special.names(), (std::vector<std::string>{"nan", "large"}));
}

TEST(RunnerOptionsTest, RejectsWhatTheToolRejects) {
  RunnerOptions options;
  options.pipeline.chip = "sm_99";
  EXPECT_EQ(verify(options), "pipeline options: unknown chip 'sm_99' (known: sm_80, sm_86, "
                             "sm_89, sm_90, sm_90a)");
  options = RunnerOptions();
  options.special = "bogus";
  EXPECT_NE(verify(options).find("unknown --special case 'bogus'"), std::string::npos);
  options = RunnerOptions();
  options.rowStride = -1;
  EXPECT_EQ(verify(options), "--row-stride must be >= 0");
  options = RunnerOptions();
  options.reps = 0;
  EXPECT_EQ(verify(options), "--reps must be >= 1 and --warmup >= 0");
  options = RunnerOptions();
  options.inputs.maskDensity = 1.5;
  EXPECT_EQ(verify(options), "--mask-density must be in [0, 1]");
  options = RunnerOptions();
  options.inputSource = InputSource::Device;
  EXPECT_NE(verify(options).find("--inputs=device needs --no-check"), std::string::npos);
  options.check = false;
  EXPECT_EQ(verify(options), "ok");
  options.special = "nan";
  EXPECT_EQ(verify(options), "--inputs=device cannot apply --special (use --inputs=host)");
  options = RunnerOptions();
  options.jitWithoutGPU = options.emulateDevice = true;
  EXPECT_NE(verify(options).find("--jit-without-gpu and --emulate-device cannot be combined"),
            std::string::npos);
}

} // namespace
