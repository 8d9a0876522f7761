//===- APIDispatchTest.cpp - The C++ API: dispatch, launch rules, arguments -===//
//
// No GPU needed: Executable::plan evaluates the launch rules for the sizes of a call.
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Compile.h"
#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace softmax::api;

namespace {

/// A dynamic width with plans chosen by softmax-select-strategy (every tier of the chip).
constexpr const char *kDynamic = R"mlir(
func.func @dyn(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %y = softmax.softmax %x : tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
)mlir";

/// An intermediate tensor that is not returned needs workspace.
constexpr const char *kTwoSteps = R"mlir(
func.func @two(%x: tensor<4x?x64xf32>, %t: f32) -> tensor<4x?x64xf32> {
  %a = softmax.softmax %x : tensor<4x?x64xf32>
  %b = softmax.scale %a by %t : tensor<4x?x64xf32>, f32
  %c = softmax.softmax %b : tensor<4x?x64xf32>
  return %c : tensor<4x?x64xf32>
}
)mlir";

struct Tier {
  int64_t maxWidth;
  bool holdsWholeRow;
};

/// The plans softmax-select-strategy gives the one softmax of `source`, in dispatch order.
std::vector<Tier> tiersOf(llvm::StringRef source) {
  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  mlir::PassManager pm(&context);
  pm.addNestedPass<mlir::func::FuncOp>(mlir::softmax::createFusePass());
  pm.addNestedPass<mlir::func::FuncOp>(mlir::softmax::createSelectStrategyPass());
  std::vector<Tier> tiers;
  if (!module || mlir::failed(pm.run(*module)))
    return tiers;
  module->walk([&](mlir::softmax::FusedOp op) {
    for (auto plan : op.getStrategiesAttr().getAsRange<mlir::softmax::StrategyAttr>())
      tiers.push_back({plan.getDispatchWidth(), plan.holdsWholeRow()});
  });
  return tiers;
}

std::shared_ptr<const Executable> compileOrFail(llvm::StringRef source) {
  llvm::Expected<std::shared_ptr<const Executable>> executable = compile(source);
  if (!executable) {
    ADD_FAILURE() << llvm::toString(executable.takeError());
    return nullptr;
  }
  return *executable;
}

/// The kernel names one call of @dyn launches for `rows` x `width`, on tensors at `in` and
/// `out` (null by default: the two overlap).
std::vector<std::string> kernelsFor(const Executable &exe, int64_t rows, int64_t width,
                                    void *in = nullptr, void *out = nullptr) {
  llvm::Expected<std::vector<Launch>> launches = exe.plan(
      "dyn", {Argument::tensor(in, {rows, width}), Argument::tensor(out, {rows, width})});
  std::vector<std::string> names;
  if (!launches) {
    ADD_FAILURE() << llvm::toString(launches.takeError());
    return names;
  }
  for (const Launch &launch : *launches)
    names.push_back(exe.getKernels()[launch.kernel].name);
  return names;
}

/// The tier (plan index) of a kernel of @dyn: its name ends in _<i>, _<i>_full or
/// _<i>_general, or for row_split _<i>_partial, _<i>_combine or _<i>_normalize.
int64_t tierOf(llvm::StringRef name) {
  for (llvm::StringRef suffix : {"_general", "_full", "_partial", "_combine", "_normalize"})
    if (name.consume_back(suffix))
      break;
  int64_t tier = -1;
  if (name.substr(name.rfind('_') + 1).getAsInteger(10, tier))
    return -1;
  return tier;
}

TEST(APIDispatch, EachWidthIsServedByItsTier) {
  std::vector<Tier> tiers = tiersOf(kDynamic);
  ASSERT_GE(tiers.size(), 3u) << "a dynamic width should get several tiers";
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  // Each plan's kernels: its fast one where it has one (RowKernel.h), its Full one where it
  // has one, then its general one.
  std::vector<int64_t> kernelsOfTier(tiers.size(), 0);
  for (const KernelInfo &kernel : exe->getKernels()) {
    int64_t tier = tierOf(kernel.name);
    ASSERT_TRUE(tier >= 0 && tier < static_cast<int64_t>(tiers.size())) << kernel.name;
    ++kernelsOfTier[tier];
  }
  for (int64_t count : kernelsOfTier)
    EXPECT_TRUE(count >= 1 && count <= 3) << count;
  // Tier i serves widths up to its maximum, the next one from one above.
  auto tiersFor = [&](int64_t rows, int64_t width, void *in = nullptr, void *out = nullptr) {
    std::vector<int64_t> served;
    for (const std::string &name : kernelsFor(*exe, rows, width, in, out))
      served.push_back(tierOf(name));
    return served;
  };
  // Consecutive plans of one maximum width are one tier's alternatives (softmax.fused): the
  // first runs rows of whole 16-byte vectors, as the width at the top of the tier is; the last
  // the rest, as an odd width just above the previous tier is.
  for (size_t i = 0; i < tiers.size(); ++i) {
    int64_t tier = static_cast<int64_t>(i);
    if (!tiers[i].holdsWholeRow && i + 1 < tiers.size()) {
      // row_split, the last tier's row-count alternative: its three launches where the rows
      // are fewer than the multiprocessors and the tensors apart (16-byte aligned, not
      // overlapping), else the last tier (overlapping null tensors, 200 rows).
      void *in = reinterpret_cast<void *>(uintptr_t(1) << 32);
      void *out = reinterpret_cast<void *>(uintptr_t(1) << 36);
      EXPECT_EQ(tiersFor(3, 1000003, in, out), (std::vector<int64_t>{tier, tier, tier}));
      EXPECT_EQ(tiersFor(200, 1000003, in, out), std::vector<int64_t>{tier + 1});
      EXPECT_EQ(tiersFor(3, 1000003), std::vector<int64_t>{tier + 1});
      continue;
    }
    if (!tiers[i].holdsWholeRow) {
      EXPECT_EQ(tiersFor(3, 1000003), std::vector<int64_t>{tier});
      break;
    }
    size_t last = i;
    while (last + 1 < tiers.size() && tiers[last + 1].holdsWholeRow &&
           tiers[last + 1].maxWidth == tiers[i].maxWidth)
      ++last;
    int64_t low = i == 0 ? 1 : tiers[i - 1].maxWidth + 1;
    EXPECT_EQ(tiersFor(3, low), std::vector<int64_t>{static_cast<int64_t>(last)}) << low;
    EXPECT_EQ(tiersFor(3, tiers[i].maxWidth), std::vector<int64_t>{tier}) << tiers[i].maxWidth;
    i = last;
  }
  // An empty tensor launches nothing (a grid of 0 blocks would be a launch error).
  EXPECT_TRUE(kernelsFor(*exe, 0, 128).empty());
  EXPECT_TRUE(kernelsFor(*exe, 16, 0).empty());
}

TEST(APIDispatch, FullKernelForRowsAsWideAsTheSpan) {
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  // f16: the 16384-column tier (512 threads of 32 values) has a Full kernel for rows of
  // exactly 16384 columns; rows of 16376 (whole vectors, the same tier) take its fast kernel.
  // The 4096-column tier (one vector a thread, capped in its fast kernel) has one too, as its
  // fast kernel takes its lanes from the launch; the 3072-column tier of vectors of 4 below it
  // (fixed lanes) has none.
  std::vector<std::string> full = kernelsFor(*exe, 8, 16384);
  ASSERT_EQ(full.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(full[0]).ends_with("_full")) << full[0];
  std::vector<std::string> fast = kernelsFor(*exe, 8, 16376);
  ASSERT_EQ(fast.size(), 1u);
  EXPECT_EQ(fast[0] + "_full", full[0]);
  std::vector<std::string> elastic = kernelsFor(*exe, 8, 4096);
  ASSERT_EQ(elastic.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(elastic[0]).ends_with("_full")) << elastic[0];
  std::vector<std::string> narrower = kernelsFor(*exe, 8, 3072);
  ASSERT_EQ(narrower.size(), 1u);
  EXPECT_FALSE(llvm::StringRef(narrower[0]).ends_with("_full")) << narrower[0];
  for (const KernelInfo &kernel : exe->getKernels())
    EXPECT_FALSE(kernel.name == narrower[0] + "_full") << kernel.name;
}

TEST(APIDispatch, ElasticLanesAreTheWarpsARowFills) {
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  // f16 rows of 3600 columns run in the 4096-column tier (512 lanes of one vector of 8) on
  // the 450 lanes they fill, rounded up to whole warps: 480, one row a block; rows of 3000
  // in the 3072-column tier of vectors of 4 below it, on its fixed 192 lanes; rows of 600 in
  // the 1024-column tier (128 lanes x 2 rows) on 96 lanes x 2. The Full kernel of the
  // 16384-column tier runs its plan's block.
  auto blockOf = [&](int64_t width) {
    llvm::Expected<std::vector<Launch>> launches =
        exe->plan("dyn", {Argument::tensor(nullptr, {64, width}),
                          Argument::tensor(nullptr, {64, width})});
    EXPECT_TRUE(!!launches) << llvm::toString(launches.takeError());
    return launches && launches->size() == 1
               ? std::make_pair((*launches)[0].block[0], (*launches)[0].block[1])
               : std::make_pair(uint64_t(0), uint64_t(0));
  };
  EXPECT_EQ(blockOf(3600), std::make_pair(uint64_t(480), uint64_t(1)));
  EXPECT_EQ(blockOf(3000), std::make_pair(uint64_t(192), uint64_t(1)));
  EXPECT_EQ(blockOf(4096), std::make_pair(uint64_t(512), uint64_t(1)));
  EXPECT_EQ(blockOf(600), std::make_pair(uint64_t(96), uint64_t(2)));
  EXPECT_EQ(blockOf(16384), std::make_pair(uint64_t(512), uint64_t(1)));
  // 9000 columns: the 12288-column tier of 512 lanes of 24 values, on 384.
  EXPECT_EQ(blockOf(9000), std::make_pair(uint64_t(384), uint64_t(1)));
}

TEST(APIDispatch, FastKernelForWholeAlignedRows) {
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  // f16 rows of 4088 (vectors of 8): whole vectors take the fast kernel (4096, the span, its
  // Full one); rows of 4092 (the same tier, whole vectors of 4) and a row stride of 4100 the
  // fast kernel of the tier's
  // alternative on vectors of 4; rows of 4094 and a stride of 4098 (whole vectors of neither)
  // the alternative's general kernel.
  auto launched = [&](std::vector<Argument> args) {
    llvm::Expected<std::vector<Launch>> launches = exe->plan("dyn", args);
    if (!launches) {
      ADD_FAILURE() << llvm::toString(launches.takeError());
      return std::string();
    }
    return launches->size() == 1 ? exe->getKernels()[(*launches)[0].kernel].name : "";
  };
  char *base = reinterpret_cast<char *>(uintptr_t(1) << 20);
  std::string fast = launched({Argument::tensor(base, {8, 4088}), Argument::tensor(base, {8, 4088})});
  EXPECT_FALSE(llvm::StringRef(fast).ends_with("_general")) << fast;
  llvm::StringRef prefix = llvm::StringRef(fast).drop_back(fast.size() - fast.rfind('_') - 1);
  std::string alternative = prefix.str() + std::to_string(tierOf(fast) + 1);
  std::string narrow =
      launched({Argument::tensor(base, {8, 4092}), Argument::tensor(base, {8, 4092})});
  EXPECT_EQ(narrow, alternative);
  int64_t strides[] = {4100, 1};
  std::string strided = launched({Argument::tensor(base, {8, 4096}, strides),
                                  Argument::tensor(base, {8, 4096})});
  EXPECT_EQ(strided, alternative);
  std::string odd =
      launched({Argument::tensor(base, {8, 4094}), Argument::tensor(base, {8, 4094})});
  EXPECT_EQ(odd, alternative + "_general");
  int64_t oddStrides[] = {4098, 1};
  std::string oddStrided = launched({Argument::tensor(base, {8, 4096}, oddStrides),
                                     Argument::tensor(base, {8, 4096})});
  EXPECT_EQ(oddStrided, alternative + "_general");
}

TEST(APIDispatch, LaunchesFollowTheKernelsBlockAndGrowWithRows) {
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  for (int64_t width : {32, 1000, 4096, 20000, 100000}) {
    uint64_t previous = 0;
    for (int64_t rows : {1, 1000, 100000}) {
      llvm::Expected<std::vector<Launch>> launches =
          exe->plan("dyn", {Argument::tensor(nullptr, {rows, width}),
                            Argument::tensor(nullptr, {rows, width})});
      ASSERT_TRUE(!!launches) << llvm::toString(launches.takeError());
      ASSERT_EQ(launches->size(), 1u);
      const Launch &launch = (*launches)[0];
      const KernelInfo &kernel = exe->getKernels()[launch.kernel];
      // A kernel of elastic lanes (no known block) takes whole warps a row.
      if (kernel.block[0] != 0)
        EXPECT_EQ(launch.block[0], static_cast<uint64_t>(kernel.block[0])) << kernel.name;
      else
        EXPECT_EQ(launch.block[0] % 32, 0u) << kernel.name;
      EXPECT_LE(launch.block[0] * launch.block[1], 1024u) << kernel.name;
      EXPECT_EQ(launch.grid[1], 1u);
      EXPECT_GE(launch.grid[0], previous) << kernel.name;
      previous = launch.grid[0];
      // Only the row_shared plan (the row as f32) and the row_staged one (the row as stored,
      // f16 here, after its header; over a cluster, a slice a block) ask for dynamic shared
      // memory, and then at least the row (the cluster's blocks together).
      uint64_t blocks = std::max<uint64_t>(1, launch.cluster[0]);
      if (llvm::StringRef(kernel.name).contains("row_shared"))
        EXPECT_GE(launch.sharedBytes, 4u * width) << kernel.name;
      else if (llvm::StringRef(kernel.name).contains("row_staged"))
        EXPECT_GE(blocks * launch.sharedBytes, 2u * width + 272u) << kernel.name;
      else
        EXPECT_EQ(launch.sharedBytes, 0u) << kernel.name;
    }
  }
}

TEST(APIDispatch, RulesArePrintedOverTheArguments) {
  std::shared_ptr<const Executable> exe = compileOrFail(kDynamic);
  ASSERT_TRUE(exe);
  const FunctionInfo &f = exe->getFunctions()[0];
  // One launch a kernel, but two of the row_staged kernel over a cluster: without a cluster for
  // rows one block holds, as a cluster else (LowerToGPU.cpp).
  size_t stagedClusterLaunches = llvm::count_if(f.launches, [&](const LaunchRule &rule) {
    return !rule.cluster[0].empty() &&
           llvm::StringRef(exe->getKernels()[rule.kernel].name).contains("row_staged");
  });
  EXPECT_EQ(stagedClusterLaunches, 1u);
  ASSERT_EQ(f.launches.size(), exe->getKernels().size() + stagedClusterLaunches);
  // The first tier (f16 rows of up to 8 columns, one vector a lane: it has a fast kernel): the
  // non-empty check, then width <= its maximum, then the fast kernel's condition.
  std::vector<Tier> tiers = tiersOf(kDynamic);
  const std::vector<std::string> &guards = f.launches[0].guards;
  ASSERT_EQ(guards.size(), 3u);
  EXPECT_EQ(guards[1], "arg0.size[1] <= " + std::to_string(tiers[0].maxWidth));
  EXPECT_NE(guards[2].find("address(arg0)"), std::string::npos) << guards[2];
  // The last tier runs when no earlier one matched (one width test a tier, whatever its
  // alternatives); its general kernel when its fast one does not apply.
  size_t widthTests = 0;
  for (size_t i = 0; i + 1 < tiers.size(); ++i)
    widthTests += !(i + 1 < tiers.size() && tiers[i + 1].holdsWholeRow &&
                    tiers[i + 1].maxWidth == tiers[i].maxWidth);
  const std::vector<std::string> &last = f.launches.back().guards;
  ASSERT_EQ(last.size(), widthTests + 2);
  EXPECT_EQ(last[widthTests - 1].rfind("!(arg0.size[1] <= ", 0), 0u) << last[widthTests - 1];
  // The tier before the last is row_split, the last's row-count alternative: its guard is the
  // row count and the split's conditions, not a width.
  EXPECT_NE(last[widthTests].find("arg0.size[0]"), std::string::npos) << last[widthTests];
  EXPECT_EQ(last.back().rfind("!(", 0), 0u);
  EXPECT_NE(last.back().find("address(arg0)"), std::string::npos) << last.back();
}

TEST(APIDispatch, WorkspaceForIntermediateTensors) {
  std::shared_ptr<const Executable> exe = compileOrFail(kTwoSteps);
  ASSERT_TRUE(exe);
  const FunctionInfo &f = exe->getFunctions()[0];
  EXPECT_EQ(f.workspaceBytes, "align(4 * arg0.size[1] * 64 * 4, 256)");
  std::vector<Argument> args = {Argument::tensor(nullptr, {4, 10, 64}), Argument::scalar(0.5),
                                Argument::tensor(nullptr, {4, 10, 64})};
  llvm::Expected<uint64_t> bytes = exe->getWorkspaceSize("two", args);
  ASSERT_TRUE(!!bytes) << llvm::toString(bytes.takeError());
  EXPECT_EQ(*bytes, 10240u); // 4 * 10 * 64 floats, already a multiple of 256
  args[0] = args[2] = Argument::tensor(nullptr, {4, 1, 64});
  EXPECT_EQ(llvm::cantFail(exe->getWorkspaceSize("two", args)), 1024u);
  llvm::Expected<std::vector<Launch>> launches = exe->plan("two", args);
  ASSERT_TRUE(!!launches) << llvm::toString(launches.takeError());
  EXPECT_EQ(launches->size(), 2u);

  // Without enough workspace run() refuses before touching the GPU.
  llvm::Error error = exe->run("two", args, /*stream=*/nullptr, /*workspace=*/nullptr, 0);
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("@two needs 1024 bytes of workspace"), std::string::npos) << message;
}

TEST(APIDispatch, ArgumentsAreChecked) {
  std::shared_ptr<const Executable> exe = compileOrFail(kTwoSteps);
  ASSERT_TRUE(exe);
  auto planError = [&](std::vector<Argument> args, llvm::StringRef function = "two") {
    llvm::Expected<std::vector<Launch>> launches = exe->plan(function, args);
    if (launches)
      return std::string("(planned)");
    return llvm::toString(launches.takeError());
  };
  Argument x = Argument::tensor(nullptr, {4, 10, 64});
  EXPECT_EQ(planError({x, Argument::scalar(1)}), "@two takes 3 arguments, got 2");
  EXPECT_EQ(planError({x, x, x}), "@two: argument 1 is a scalar, got a tensor");
  EXPECT_EQ(planError({Argument::scalar(1), Argument::scalar(1), x}),
            "@two: argument 0 is a tensor, got a scalar");
  EXPECT_EQ(planError({Argument::tensor(nullptr, {40, 64}), Argument::scalar(1), x}),
            "@two: argument 0 has rank 3, got 2 sizes");
  EXPECT_EQ(planError({Argument::tensor(nullptr, {5, 10, 64}), Argument::scalar(1), x}),
            "@two: argument 0: size 0 is 4 in the program, got 5");
  int64_t strides[] = {1280, 128, 2};
  EXPECT_EQ(planError({Argument::tensor(nullptr, {4, 10, 64}, strides), Argument::scalar(1), x}),
            "@two: argument 0: the innermost stride must be 1, got 2");
  EXPECT_EQ(planError({x, Argument::scalar(1), x}, "three").rfind("no function @three", 0), 0u);
  // Padded rows (a row stride above the width) are fine.
  int64_t padded[] = {1280, 128, 1};
  EXPECT_EQ(planError({Argument::tensor(nullptr, {4, 10, 64}, padded), Argument::integer(2), x}),
            "(planned)");
}

/// A program of one fused op with `plans` (its strategies) on `rows` x `width` elements of `type`
/// ("?" for dynamic sizes).
std::string onePlan(const std::string &rows, const std::string &width, const std::string &type,
                    const std::string &plans) {
  std::string tensor = "tensor<" + rows + "x" + width + "x" + type + ">";
  return "func.func @f(%x: " + tensor + ") -> " + tensor + " {\n  %0 = softmax.fused softmax %x " +
         "axis = 1 prologue [] {strategies = [" + plans + "]} : " + tensor + " -> " + tensor +
         "\n  return %0 : " + tensor + "\n}\n";
}

Launch onlyLaunch(const Executable &exe, int64_t rows, int64_t width) {
  llvm::Expected<std::vector<Launch>> launches = exe.plan(
      "f", {Argument::tensor(nullptr, {rows, width}), Argument::tensor(nullptr, {rows, width})});
  if (!launches) {
    ADD_FAILURE() << llvm::toString(launches.takeError());
    return {};
  }
  EXPECT_EQ(launches->size(), 1u);
  return launches->empty() ? Launch() : launches->front();
}

/// The interpreted rules of a dynamic program give what MLIR's folder makes of the same rules
/// when the sizes are static: the pipelined block count (divui, maxui, minui, ceildivui) and the
/// row_shared shared memory.
TEST(APIDispatch, InterpretedRulesAgreeWithTheFolder) {
  std::string registers =
      "#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 4>";
  std::shared_ptr<const Executable> dynamicRows =
      compileOrFail(onePlan("?", "4096", "bf16", registers));
  ASSERT_TRUE(dynamicRows);
  for (int64_t rows : {1, 4999, 70001, 2000000}) {
    std::shared_ptr<const Executable> fixed =
        compileOrFail(onePlan(std::to_string(rows), "4096", "bf16", registers));
    ASSERT_TRUE(fixed);
    Launch expected = onlyLaunch(*fixed, rows, 4096);
    Launch got = onlyLaunch(*dynamicRows, rows, 4096);
    EXPECT_EQ(got.grid, expected.grid) << rows << " rows";
    EXPECT_EQ(got.block, expected.block) << rows << " rows";
  }

  // A dynamic width needs a last tier for any width; static widths take the first plan that fits.
  std::string shared = "#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, "
                       "chunks = 8>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, "
                       "vector = 4, chunks = 8>";
  std::shared_ptr<const Executable> dynamicWidth = compileOrFail(onePlan("3", "?", "f32", shared));
  ASSERT_TRUE(dynamicWidth);
  for (int64_t width : {16385, 20001, 40000}) {
    std::shared_ptr<const Executable> fixed =
        compileOrFail(onePlan("3", std::to_string(width), "f32", shared));
    ASSERT_TRUE(fixed);
    Launch expected = onlyLaunch(*fixed, 3, width);
    Launch got = onlyLaunch(*dynamicWidth, 3, width);
    EXPECT_GT(expected.sharedBytes, 0u);
    EXPECT_EQ(got.sharedBytes, expected.sharedBytes) << width;
    EXPECT_EQ(got.grid, expected.grid) << width;
  }
}

/// A dynamic C over a non-last axis after a scale by a scalar: the 16-bit tiers past the ones
/// that hold f32 values (C > 1024) hold their values packed, -inf past C as loaded, which
/// needs the factor positive as the kernels read it (AxisKernel.cpp,
/// launchesForPositiveScalars); the launch rules take them for such a factor only, the
/// general plan otherwise.
TEST(APIDispatch, AxisTiersForPositiveScalarsOnly) {
  auto temperature = [](llvm::StringRef scalarType) {
    return ("func.func @temp(%x: tensor<?x?x?xbf16>, %t: " + scalarType +
            ") -> tensor<?x?x?xf32> {\n"
            "  %c = softmax.cast %x : tensor<?x?x?xbf16> to tensor<?x?x?xf32>\n"
            "  %s = softmax.scale %c by %t : tensor<?x?x?xf32>, " +
            scalarType +
            "\n"
            "  %y = softmax.softmax %s axis = 1 : tensor<?x?x?xf32>\n"
            "  return %y : tensor<?x?x?xf32>\n}\n")
        .str();
  };
  auto kernelFor = [](const Executable &exe, int64_t c, double scalar) -> std::string {
    llvm::Expected<std::vector<Launch>> launches =
        exe.plan("temp", {Argument::tensor(nullptr, {2, c, 1024}), Argument::scalar(scalar),
                          Argument::tensor(nullptr, {2, c, 1024})});
    if (!launches) {
      ADD_FAILURE() << llvm::toString(launches.takeError());
      return "";
    }
    EXPECT_EQ(launches->size(), 1u);
    return launches->empty() ? "" : exe.getKernels()[launches->front().kernel].name;
  };
  std::shared_ptr<const Executable> f32 = compileOrFail(temperature("f32"));
  ASSERT_TRUE(f32);
  EXPECT_EQ(kernelFor(*f32, 3000, 0.7), "temp_0_strided_axis_c3072");
  EXPECT_EQ(kernelFor(*f32, 4096, 1e30), "temp_0_strided_axis_c4096");
  EXPECT_EQ(kernelFor(*f32, 3000, -0.7), "temp_0_strided_axis");
  EXPECT_EQ(kernelFor(*f32, 3000, 0.0), "temp_0_strided_axis");
  EXPECT_EQ(kernelFor(*f32, 3000, std::nan("")), "temp_0_strided_axis");
  // A tier of f32 values takes any factor.
  EXPECT_EQ(kernelFor(*f32, 1000, -0.7), "temp_0_strided_axis_c1024");
  // The factor as the kernels read it: an f64 of 1e-50 is zero in f32, an f16 of 1e-10 zero.
  std::shared_ptr<const Executable> f64 = compileOrFail(temperature("f64"));
  ASSERT_TRUE(f64);
  EXPECT_EQ(kernelFor(*f64, 3000, 1e-30), "temp_0_strided_axis_c3072");
  EXPECT_EQ(kernelFor(*f64, 3000, 1e-50), "temp_0_strided_axis");
  std::shared_ptr<const Executable> f16 = compileOrFail(temperature("f16"));
  ASSERT_TRUE(f16);
  EXPECT_EQ(kernelFor(*f16, 3000, 1e-3), "temp_0_strided_axis_c3072");
  EXPECT_EQ(kernelFor(*f16, 3000, 1e-10), "temp_0_strided_axis");
}

} // namespace
