//===- RunnerOptionsTest.cpp - softmax-run's settings without a command line ===//

#include "softmax/Runner/RunnerOptions.h"

#include "softmax/Runner/Report.h"
#include "softmax/Runner/Run.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

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

TEST(RunnerOptionsTest, TheLauncherIsTheAPIUnlessTheHostCodeIsCalled) {
  RunnerOptions options;
  ASSERT_EQ(verify(options), "ok");
  ASSERT_FALSE(verifyRunnerOptions(options));
  EXPECT_EQ(options.launcher, LauncherKind::API);
  options = RunnerOptions();
  options.jitWithoutGPU = true;
  ASSERT_FALSE(verifyRunnerOptions(options));
  EXPECT_EQ(options.launcher, LauncherKind::HostCode);
  options.launcher = LauncherKind::API;
  EXPECT_NE(verify(options).find("--jit-without-gpu calls the generated host code"),
            std::string::npos);
  options = RunnerOptions();
  options.launcher = LauncherKind::HostCode;
  options.pipeline.cacheDir = "/tmp/x";
  EXPECT_EQ(verify(options), "--cache-dir is the C++ API's compile cache: it needs --launcher=api");
}

/// runProgram is softmax-run without its command line: a driver fills a RunnerOptions.
TEST(RunnerOptionsTest, RunProgramWithoutACommandLine) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("run-program", "mlir", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "func.func @f(%x: tensor<?x100xf32>) -> tensor<?x100xf32> {\n"
          "  %y = softmax.softmax %x : tensor<?x100xf32>\n"
          "  return %y : tensor<?x100xf32>\n}\n";
  }
  RunnerOptions options;
  options.inputFile = path.str().str();
  options.shapes = {"3x100"};
  options.compileOnly = true;
  options.pipeline.cacheDir = "off";
  EXPECT_EQ(runProgram(options), kExitPass);
  // The reference's own results as the device's: the check must pass.
  options.compileOnly = false;
  options.emulateDevice = true;
  EXPECT_EQ(runProgram(options), kExitPass);
  // A usage error is an exit code, not a crash or an exit().
  options.shapes = {"3x99"};
  EXPECT_EQ(runProgram(options), kExitUsage);
  options.inputFile = path.str().str() + ".missing";
  EXPECT_EQ(runProgram(options), kExitUsage);
  llvm::sys::fs::remove(path);
}

} // namespace
