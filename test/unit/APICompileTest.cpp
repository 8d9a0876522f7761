//===- APICompileTest.cpp - The C++ API: compile, kernels, errors, cache --===//
//
// No GPU needed: everything here is compile time.
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Compile.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace softmax::api;

namespace {

constexpr const char *kStatic = R"mlir(
func.func @probs(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = softmax.softmax %x : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
)mlir";

constexpr const char *kTemperature = R"mlir(
func.func @sample(%x: tensor<8x?xbf16>, %inv_t: f32) -> tensor<8x?xbf16> {
  %s = softmax.scale %x by %inv_t : tensor<8x?xbf16>, f32
  %y = softmax.softmax %s : tensor<8x?xbf16>
  return %y : tensor<8x?xbf16>
}
)mlir";

std::shared_ptr<const Executable> compileOrFail(llvm::StringRef source,
                                                const CompileOptions &options = {}) {
  llvm::Expected<std::shared_ptr<const Executable>> executable = compile(source, options);
  if (!executable) {
    ADD_FAILURE() << llvm::toString(executable.takeError());
    return nullptr;
  }
  return *executable;
}

std::string errorOf(llvm::StringRef source, const CompileOptions &options = {}) {
  llvm::Expected<std::shared_ptr<const Executable>> executable = compile(source, options);
  if (executable)
    return "(compiled)";
  return llvm::toString(executable.takeError());
}

TEST(APICompile, StaticProgramHasOneKernelAndItsRules) {
  std::shared_ptr<const Executable> exe = compileOrFail(kStatic);
  ASSERT_TRUE(exe);
  ASSERT_EQ(exe->getFunctions().size(), 1u);
  const FunctionInfo &f = exe->getFunctions()[0];
  EXPECT_EQ(f.name, "probs");
  ASSERT_EQ(f.arguments.size(), 2u); // the input, then the result as an output buffer
  EXPECT_TRUE(f.arguments[0].isTensor);
  EXPECT_FALSE(f.arguments[0].isOutput);
  EXPECT_TRUE(f.arguments[1].isOutput);
  EXPECT_EQ(f.arguments[0].type, ScalarType::F32);
  EXPECT_EQ(f.arguments[0].shape, (std::vector<int64_t>{64, 1024}));
  EXPECT_EQ(f.workspaceBytes, "0");

  // The plan's fast kernel, then its general one (RowKernel.h: rows on vector boundaries take
  // the fast one).
  ASSERT_EQ(exe->getKernels().size(), 2u);
  const KernelInfo &kernel = exe->getKernels()[0];
  EXPECT_TRUE(llvm::StringRef(kernel.name).starts_with("probs_0_"));
  EXPECT_EQ(exe->getKernels()[1].name, kernel.name + "_general");
  EXPECT_GT(kernel.block[0], 0);
  // Each kernel is a module of its own, compiled when first needed: its PTX defines it by that
  // name, and the program's PTX is the kernels', each after its marker.
  EXPECT_FALSE(exe->isKernelCompiled(0));
  llvm::Expected<llvm::StringRef> image = exe->getKernelImage(0);
  ASSERT_TRUE(!!image) << llvm::toString(image.takeError());
  EXPECT_TRUE(exe->isKernelCompiled(0));
  EXPECT_FALSE(exe->isKernelCompiled(1)) << "only the kernel asked for";
  EXPECT_NE(image->find(".entry " + kernel.name + "("), llvm::StringRef::npos);
  EXPECT_EQ(image->find(".entry " + kernel.name + "_general("), llvm::StringRef::npos);
  llvm::Expected<llvm::StringRef> ptx = exe->getPTX();
  ASSERT_TRUE(!!ptx) << llvm::toString(ptx.takeError());
  EXPECT_TRUE(exe->isKernelCompiled(1));
  EXPECT_TRUE(ptx->starts_with("// gpu.binary @" + kernel.name + "\n")) << ptx->str();
  EXPECT_NE(ptx->find("// gpu.binary @" + kernel.name + "_general\n"), llvm::StringRef::npos);
  EXPECT_NE(ptx->find(".entry " + kernel.name + "_general("), llvm::StringRef::npos);
  EXPECT_NE(ptx->find(*image), llvm::StringRef::npos);
  EXPECT_FALSE(!!exe->getKernelImage(2)) << "two kernels";

  // A static program has no width dispatch: one guard, the fast variant's, over the arguments'
  // addresses, offsets and strides; the same constant rules either way.
  ASSERT_EQ(f.launches.size(), 2u);
  const LaunchRule &rule = f.launches[0];
  EXPECT_EQ(rule.kernel, 0u);
  EXPECT_EQ(f.launches[1].kernel, 1u);
  ASSERT_EQ(rule.guards.size(), 1u);
  EXPECT_NE(rule.guards[0].find("(address(arg0) % 16) == 0"), std::string::npos) << rule.guards[0];
  EXPECT_NE(rule.guards[0].find("offset(arg1)"), std::string::npos) << rule.guards[0];
  EXPECT_NE(rule.guards[0].find("stride(arg0, 0)"), std::string::npos) << rule.guards[0];
  EXPECT_EQ(f.launches[1].guards, std::vector<std::string>{"!(" + rule.guards[0] + ")"});
  EXPECT_EQ(rule.block[0], std::to_string(kernel.block[0]));
  EXPECT_EQ(rule.grid[1], "1");
  EXPECT_EQ(f.launches[1].grid[0], rule.grid[0]);

  // Aligned rows launch the fast kernel; an output 4 bytes off a vector boundary the general.
  float *aligned = reinterpret_cast<float *>(uintptr_t(1) << 20);
  auto planFor = [&](float *out) {
    return exe->plan("probs", {Argument::tensor(aligned, {64, 1024}),
                               Argument::tensor(out, {64, 1024})});
  };
  llvm::Expected<std::vector<Launch>> launches = planFor(aligned + 1024 * 64);
  ASSERT_TRUE(!!launches) << llvm::toString(launches.takeError());
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ((*launches)[0].kernel, 0u);
  EXPECT_EQ(std::to_string((*launches)[0].grid[0]), rule.grid[0]);
  EXPECT_EQ((*launches)[0].block[0], static_cast<uint64_t>(kernel.block[0]));
  llvm::Expected<std::vector<Launch>> misaligned = planFor(aligned + 1024 * 64 + 1);
  ASSERT_TRUE(!!misaligned) << llvm::toString(misaligned.takeError());
  ASSERT_EQ(misaligned->size(), 1u);
  EXPECT_EQ((*misaligned)[0].kernel, 1u);
}

/// A softmax over a non-last axis (the strided_axis kernels): the C++ API's launcher interprets
/// its host code (the [outer, C, mid, last] views, the grid, the vector kernel's guard).
TEST(APICompile, NonLastAxisLaunchesTheStridedAxisKernels) {
  std::shared_ptr<const Executable> exe =
      compileOrFail(R"mlir(func.func @columns(%x: tensor<8x33x1024xf32>) -> tensor<8x33x1024xf32> {
  %y = softmax.softmax %x axis = 1 : tensor<8x33x1024xf32>
  return %y : tensor<8x33x1024xf32>
})mlir");
  ASSERT_TRUE(exe);
  ASSERT_EQ(exe->getKernels().size(), 2u);
  EXPECT_EQ(exe->getKernels()[0].name, "columns_0_strided_axis");
  EXPECT_EQ(exe->getKernels()[1].name, "columns_0_strided_axis_scalar");
  float *aligned = reinterpret_cast<float *>(uintptr_t(1) << 20);
  auto planFor = [&](float *out) {
    return exe->plan("columns", {Argument::tensor(aligned, {8, 33, 1024}),
                                 Argument::tensor(out, {8, 33, 1024})});
  };
  // 64 lanes x 4 columns a block (the plan of C = 33): 8 outer indices x 1024 / 256 blocks.
  llvm::Expected<std::vector<Launch>> launches = planFor(aligned + 8 * 33 * 1024);
  ASSERT_TRUE(!!launches) << llvm::toString(launches.takeError());
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ((*launches)[0].kernel, 0u);
  EXPECT_EQ((*launches)[0].grid[0], 32u);
  EXPECT_EQ((*launches)[0].block[0], 256u);
  llvm::Expected<std::vector<Launch>> misaligned = planFor(aligned + 8 * 33 * 1024 + 1);
  ASSERT_TRUE(!!misaligned) << llvm::toString(misaligned.takeError());
  ASSERT_EQ(misaligned->size(), 1u);
  EXPECT_EQ((*misaligned)[0].kernel, 1u);
}

/// "KERNEL grid G block B[ cluster Q]" of the one launch `function` makes for `args` (or the
/// error, or the number of launches when it is not one).
std::string describeOnlyLaunch(const Executable &exe, llvm::StringRef function,
                               std::vector<Argument> args) {
  llvm::Expected<std::vector<Launch>> launches = exe.plan(function, args);
  if (!launches)
    return llvm::toString(launches.takeError());
  if (launches->size() != 1)
    return "launches: " + std::to_string(launches->size());
  const Launch &launch = (*launches)[0];
  std::string text = exe.getKernels()[launch.kernel].name + " grid " +
                     std::to_string(launch.grid[0]) + " block " + std::to_string(launch.block[0]);
  if (launch.cluster[0] > 0)
    text += " cluster " + std::to_string(launch.cluster[0]);
  return text;
}

/// A dynamic C: the host launches the first tier whose capacity covers C where the vectors
/// apply, else the general plan's vector kernel (wider C) or scalar kernel (misaligned).
TEST(APICompile, DynamicAxisLaunchesItsTier) {
  std::shared_ptr<const Executable> exe =
      compileOrFail(R"mlir(func.func @columns(%x: tensor<?x?x1024xbf16>) -> tensor<?x?x1024xbf16> {
  %y = softmax.softmax %x axis = 1 : tensor<?x?x1024xbf16>
  return %y : tensor<?x?x1024xbf16>
})mlir");
  ASSERT_TRUE(exe);
  uint16_t *aligned = reinterpret_cast<uint16_t *>(uintptr_t(1) << 20);
  auto launched = [&](int64_t c, int64_t outputOffset) {
    int64_t elements = 2 * c * 1024;
    return describeOnlyLaunch(
        *exe, "columns",
        {Argument::tensor(aligned, {2, c, 1024}),
         Argument::tensor(aligned + elements + outputOffset, {2, c, 1024})});
  };
  // C <= 8, then C <= 16: 128 lanes (the columns there are) x 8 columns a block, 2 outer
  // indices.
  EXPECT_EQ(launched(1, 0), "columns_0_strided_axis_c8 grid 2 block 128");
  EXPECT_EQ(launched(8, 0), "columns_0_strided_axis_c8 grid 2 block 128");
  EXPECT_EQ(launched(9, 0), "columns_0_strided_axis_c16 grid 2 block 128");
  EXPECT_EQ(launched(16, 0), "columns_0_strided_axis_c16 grid 2 block 128");
  EXPECT_EQ(launched(17, 0), "columns_0_strided_axis_c32 grid 2 block 256");
  EXPECT_EQ(launched(512, 0), "columns_0_strided_axis_c512 grid 32 block 256");
  EXPECT_EQ(launched(513, 0), "columns_0_strided_axis_c1024 grid 64 block 256");
  EXPECT_EQ(launched(4096, 0), "columns_0_strided_axis_c4096 grid 128 block 512");
  // Past 4096 (sm_90): the tiers over clusters of 4 and 8 blocks of C = 2048's plan (2 lanes x
  // 128 rows: 16 columns a block).
  EXPECT_EQ(launched(4097, 0), "columns_0_strided_axis_c8192 grid 512 block 256 cluster 4");
  EXPECT_EQ(launched(16384, 0), "columns_0_strided_axis_c16384 grid 1024 block 256 cluster 8");
  // Wider than the largest tier: the general plan (4 lanes x 64 rows: 32 columns a block).
  EXPECT_EQ(launched(16385, 0), "columns_0_strided_axis grid 64 block 256");
  // An output off the vector boundary: the general plan's scalar kernel at any C.
  EXPECT_EQ(launched(16, 1), "columns_0_strided_axis_scalar grid 64 block 256");
}

/// A hand-written strided_axis plan over a cluster: the API launches the vector kernel with
/// `cluster` blocks a plan block, in clusters of that many; the scalar kernel (an output off
/// the vector boundary) one block a column, without a cluster.
TEST(APICompile, AxisClusterPlanLaunchesClusters) {
  std::shared_ptr<const Executable> exe =
      compileOrFail(R"mlir(func.func @columns(%x: tensor<2x1000x1024xf32>) -> tensor<2x1000x1024xf32> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 2>]} : tensor<2x1000x1024xf32> -> tensor<2x1000x1024xf32>
  return %y : tensor<2x1000x1024xf32>
})mlir");
  ASSERT_TRUE(exe);
  float *aligned = reinterpret_cast<float *>(uintptr_t(1) << 20);
  int64_t elements = 2 * 1000 * 1024;
  auto launched = [&](int64_t outputOffset) {
    return describeOnlyLaunch(
        *exe, "columns",
        {Argument::tensor(aligned, {2, 1000, 1024}),
         Argument::tensor(aligned + elements + outputOffset, {2, 1000, 1024})});
  };
  // 32 columns a block: 32 column blocks x 2 outer indices x 2 blocks a cluster.
  EXPECT_EQ(launched(0), "columns_0_strided_axis grid 128 block 256 cluster 2");
  EXPECT_EQ(launched(1), "columns_0_strided_axis_scalar grid 64 block 256");
}

TEST(APICompile, ScalarArgumentsAndDynamicRules) {
  std::shared_ptr<const Executable> exe = compileOrFail(kTemperature);
  ASSERT_TRUE(exe);
  const FunctionInfo *f = exe->lookupFunction("sample");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->arguments.size(), 3u);
  EXPECT_FALSE(f->arguments[1].isTensor);
  EXPECT_EQ(f->arguments[1].type, ScalarType::F32);
  EXPECT_EQ(f->arguments[0].shape, (std::vector<int64_t>{8, kDynamic}));
  EXPECT_EQ(f->arguments[0].type, ScalarType::BF16);
  EXPECT_TRUE(f->arguments[2].isOutput);
  // Every kernel takes the temperature as an f32 parameter, and every launch is guarded by
  // the dynamic width.
  for (const KernelInfo &kernel : exe->getKernels())
    EXPECT_TRUE(llvm::any_of(kernel.params, [](const KernelParam &p) {
      return p.type == ScalarType::F32;
    })) << kernel.name;
  ASSERT_FALSE(f->launches.empty());
  for (const LaunchRule &rule : f->launches) {
    ASSERT_FALSE(rule.guards.empty());
    EXPECT_NE(rule.guards[0].find("arg0.size[1]"), std::string::npos) << rule.guards[0];
  }
  EXPECT_EQ(exe->lookupFunction("nope"), nullptr);
}

/// The parameters the API packs are those the lowered kernels declare: same count, same sizes.
TEST(APICompile, KernelParamsMatchTheLoweredKernelSignature) {
  std::shared_ptr<const Executable> exe = compileOrFail(kTemperature);
  ASSERT_TRUE(exe);

  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kTemperature, &context);
  ASSERT_TRUE(module);
  mlir::PassManager pm(&context);
  mlir::softmax::buildSoftmaxToGPUPipeline(pm, mlir::softmax::SoftmaxToNVVMOptions());
  pm.addNestedPass<mlir::gpu::GPUModuleOp>(mlir::createConvertGpuOpsToNVVMOps());
  ASSERT_TRUE(mlir::succeeded(pm.run(*module)));

  unsigned checked = 0;
  module->walk([&](mlir::LLVM::LLVMFuncOp func) {
    auto kernel = llvm::find_if(exe->getKernels(),
                                [&](const KernelInfo &k) { return k.name == func.getName(); });
    if (kernel == exe->getKernels().end())
      return;
    ++checked;
    llvm::ArrayRef<mlir::Type> params = func.getFunctionType().getParams();
    ASSERT_EQ(params.size(), kernel->params.size()) << kernel->name;
    for (auto [type, param] : llvm::zip(params, kernel->params)) {
      unsigned bytes =
          llvm::isa<mlir::LLVM::LLVMPointerType>(type) ? 8 : (type.getIntOrFloatBitWidth() + 7) / 8;
      EXPECT_EQ(bytes, getByteSize(param.type)) << kernel->name << ": " << param.name;
    }
  });
  EXPECT_EQ(checked, exe->getKernels().size());
}

TEST(APICompile, ParseErrorsCarryTheDiagnostic) {
  std::string message = errorOf("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = ");
  EXPECT_NE(message.find("<source>:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("error:"), std::string::npos) << message;
}

TEST(APICompile, PipelineErrorsCarryTheDiagnosticAndLocation) {
  std::string message =
      errorOf(R"mlir(func.func @masked_axis(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = 0, fill = -1.0e4>] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
})mlir");
  EXPECT_NE(message.find("<source>:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("is not supported over a non-last axis"), std::string::npos) << message;
}

TEST(APICompile, InvalidOptionsAreErrors) {
  CompileOptions options;
  options.chip = "sm_10";
  std::string message = errorOf(kStatic, options);
  EXPECT_NE(message.find("invalid compile options: unknown chip 'sm_10'"), std::string::npos)
      << message;
  options = CompileOptions();
  options.format = "elf";
  EXPECT_NE(errorOf(kStatic, options).find("format must be"), std::string::npos);
}

TEST(APICompile, ProgramWithoutFunctionsIsAnError) {
  EXPECT_NE(errorOf("module {}").find("no function to call"), std::string::npos);
}

TEST(APICompile, SecondCompileReturnsTheCachedExecutable) {
  clearCompileCache();
  EXPECT_EQ(getCompileCacheSize(), 0u);
  std::shared_ptr<const Executable> first = compileOrFail(kStatic);
  std::shared_ptr<const Executable> second = compileOrFail(kStatic);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(getCompileCacheSize(), 1u);

  // The options are part of the key.
  CompileOptions options;
  options.optLevel = 2;
  std::shared_ptr<const Executable> other = compileOrFail(kStatic, options);
  ASSERT_TRUE(other);
  EXPECT_NE(other.get(), first.get());
  EXPECT_EQ(other->getOptions().optLevel, 2);
  EXPECT_EQ(getCompileCacheSize(), 2u);

  // Clearing drops the cache's references only.
  clearCompileCache();
  EXPECT_EQ(getCompileCacheSize(), 0u);
  EXPECT_EQ(first->getFunctions()[0].name, "probs");
  std::shared_ptr<const Executable> third = compileOrFail(kStatic);
  ASSERT_TRUE(third);
  EXPECT_NE(third.get(), first.get());
}

TEST(APICompile, FailedCompilesAreNotCached) {
  clearCompileCache();
  EXPECT_FALSE(errorOf("func.func @f(").empty());
  EXPECT_EQ(getCompileCacheSize(), 0u);
}

TEST(APICompile, ModuleOpInputIsLeftUnchanged) {
  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kStatic, &context, "probs.mlir");
  ASSERT_TRUE(module);
  std::string before;
  llvm::raw_string_ostream(before) << *module;
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(*module);
  ASSERT_TRUE(!!exe) << llvm::toString(exe.takeError());
  EXPECT_EQ((*exe)->getFunctions()[0].name, "probs");
  std::string after;
  llvm::raw_string_ostream(after) << *module;
  EXPECT_EQ(before, after);
}

TEST(APICompile, ModuleOpErrorsPointAtTheCallersLocations) {
  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      R"mlir(func.func @f(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = 0, fill = -1.0e4>] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
})mlir",
      &context, "user.mlir");
  ASSERT_TRUE(module);
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(*module);
  ASSERT_FALSE(!!exe);
  std::string message = llvm::toString(exe.takeError());
  EXPECT_NE(message.find("user.mlir:2:"), std::string::npos) << message;
}

TEST(APICompile, CubinFormatKeepsTheCubin) {
  CompileOptions options;
  options.format = "bin";
  std::shared_ptr<const Executable> exe = compileOrFail(kStatic, options);
  ASSERT_TRUE(exe);
  llvm::Expected<llvm::StringRef> image = exe->getKernelImage(0);
  if (!image) {
    std::string message = llvm::toString(image.takeError());
    if (message.find("ptxas") != std::string::npos)
      GTEST_SKIP() << "no ptxas: " << message;
    FAIL() << message;
  }
  EXPECT_TRUE(image->starts_with("\x7f"
                                 "ELF"))
      << "a cubin is an ELF file";
  llvm::Expected<llvm::StringRef> ptx = exe->getPTX();
  ASSERT_TRUE(!!ptx) << llvm::toString(ptx.takeError());
  EXPECT_TRUE(ptx->empty());
}

/// The kernels a call launches, and no others, are compiled on the first call; with lazyKernels
/// off, every kernel before compile() returns.
TEST(APICompile, KernelsAreCompiledWhenFirstNeeded) {
  CompileOptions options;
  options.cacheDir = "off";
  clearCompileCache();
  std::shared_ptr<const Executable> exe = compileOrFail(kTemperature, options);
  ASSERT_TRUE(exe);
  size_t kernels = exe->getKernels().size();
  ASSERT_GT(kernels, 8u) << "a dynamic width: a kernel per tier and variant";
  for (unsigned k = 0; k < kernels; ++k)
    EXPECT_FALSE(exe->isKernelCompiled(k)) << k;

  // prepare() compiles what a call of 8 x 3000 launches, then needs the driver.
  std::vector<Argument> args = {Argument::tensor(nullptr, {8, 3000}), Argument::scalar(2.0),
                                Argument::tensor(nullptr, {8, 3000})};
  llvm::Expected<std::vector<Launch>> launches = exe->plan("sample", args);
  ASSERT_TRUE(!!launches) << llvm::toString(launches.takeError());
  ASSERT_EQ(launches->size(), 1u);
  unsigned launched = (*launches)[0].kernel;
  CompileCacheStats before = getCompileCacheStats();
  llvm::Error prepared = exe->prepare("sample", args);
  bool hasGPU = !prepared;
  llvm::consumeError(std::move(prepared));
  EXPECT_EQ(getCompileCacheStats().kernelCompiles - before.kernelCompiles, 1u);
  for (unsigned k = 0; k < kernels; ++k)
    EXPECT_EQ(exe->isKernelCompiled(k), k == launched) << k << (hasGPU ? " (GPU)" : "");
  // A bad call compiles nothing.
  auto fails = [](llvm::Error error) {
    bool failed = static_cast<bool>(error);
    llvm::consumeError(std::move(error));
    return failed;
  };
  EXPECT_TRUE(fails(exe->prepare("sample", {args[0]})));
  EXPECT_TRUE(fails(exe->prepare("nope", args)));
  EXPECT_EQ(getCompileCacheStats().kernelCompiles - before.kernelCompiles, 1u);

  // lazyKernels off: every kernel before compile() returns, also for an executable that the
  // cache already holds (the option is not in the key), here with one kernel compiled.
  CompileOptions eager = options;
  eager.lazyKernels = false;
  before = getCompileCacheStats();
  std::shared_ptr<const Executable> all = compileOrFail(kTemperature, eager);
  ASSERT_TRUE(all);
  EXPECT_EQ(all.get(), exe.get());
  EXPECT_EQ(getCompileCacheStats().memoryHits - before.memoryHits, 1u);
  EXPECT_EQ(getCompileCacheStats().kernelCompiles - before.kernelCompiles, kernels - 1);
  for (unsigned k = 0; k < kernels; ++k)
    EXPECT_TRUE(all->isKernelCompiled(k)) << k;
}

/// A kernel that does not compile (here: a cubin without ptxas) fails where it is needed, with
/// the compiler's diagnostics, every time, without compiling again; with lazyKernels off it
/// fails compile().
TEST(APICompile, AKernelThatDoesNotCompileFailsItsCalls) {
  std::string savedPath = std::getenv("PATH") ? std::getenv("PATH") : "";
  std::vector<std::pair<std::string, std::string>> savedToolkit;
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name))
      savedToolkit.emplace_back(name, value);
  setenv("PATH", "/nonexistent", 1);
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    setenv(name, "/nonexistent", 1);
  CompileOptions options;
  options.format = "bin";
  options.cacheDir = "off";
  clearCompileCache();
  std::shared_ptr<const Executable> exe = compileOrFail(kStatic, options);
  CompileCacheStats before = getCompileCacheStats();
  std::string first, second;
  if (exe) {
    llvm::Expected<llvm::StringRef> image = exe->getKernelImage(0);
    first = image ? "(compiled)" : llvm::toString(image.takeError());
    image = exe->getKernelImage(0);
    second = image ? "(compiled)" : llvm::toString(image.takeError());
  }
  uint64_t compiles = getCompileCacheStats().kernelCompiles - before.kernelCompiles;
  CompileOptions eager = options;
  eager.lazyKernels = false;
  clearCompileCache();
  std::string eagerError = errorOf(kStatic, eager);
  setenv("PATH", savedPath.c_str(), 1);
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    unsetenv(name);
  for (const auto &[name, value] : savedToolkit)
    setenv(name.c_str(), value.c_str(), 1);

  ASSERT_TRUE(exe);
  EXPECT_NE(first.find("kernel probs_0_"), std::string::npos) << first;
  EXPECT_NE(first.find("did not compile"), std::string::npos) << first;
  EXPECT_NE(first.find("ptxas"), std::string::npos) << first;
  EXPECT_EQ(second, first);
  EXPECT_EQ(compiles, 1u) << "the failure is kept, not compiled again";
  EXPECT_FALSE(exe->isKernelCompiled(0));
  EXPECT_NE(eagerError.find("did not compile"), std::string::npos) << eagerError;
}

TEST(APICompile, EveryPublicFunctionIsCallable) {
  std::shared_ptr<const Executable> exe = compileOrFail(R"mlir(
func.func @a(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = softmax.softmax %x : tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
func.func @b(%x: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %y = softmax.log_softmax %x : tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}
func.func private @hidden(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = softmax.softmax %x : tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
func.func @helper(%t: f32) -> f32 {
  return %t : f32
}
)mlir");
  ASSERT_TRUE(exe);
  std::vector<std::string> names;
  for (const FunctionInfo &f : exe->getFunctions())
    names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(exe->lookupFunction("b"));
  const LaunchRule &rule = exe->lookupFunction("b")->launches.at(0);
  EXPECT_TRUE(llvm::StringRef(exe->getKernels()[rule.kernel].name).starts_with("b_0_"));
  EXPECT_EQ(exe->lookupFunction("b")->arguments[0].type, ScalarType::F16);
}

} // namespace

// linalg from other front ends compiles with `raise` (docs/raising.md).
TEST(APICompile, RaisesLinalgSoftmax) {
  const char *source = R"mlir(
func.func @forward(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = tensor.empty() : tensor<4x64xf32>
  %1 = linalg.softmax dimension(1) ins(%x : tensor<4x64xf32>) outs(%0 : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %1 : tensor<4x64xf32>
}
)mlir";
  CompileOptions options;
  options.raise = true;
  llvm::Expected<std::shared_ptr<const Executable>> compiled = compile(source, options);
  ASSERT_TRUE(static_cast<bool>(compiled)) << llvm::toString(compiled.takeError());
  // One plan: its fast kernel and its general one.
  ASSERT_EQ((*compiled)->getKernels().size(), 2u);
  EXPECT_EQ((*compiled)->getKernels()[1].name, (*compiled)->getKernels()[0].name + "_general");
}

TEST(APICompile, RaisesTheTorchMlirExample) {
  auto buffer = llvm::MemoryBuffer::getFile(SOFTMAX_SOURCE_DIR "/examples/linalg_softmax_torch_mlir.mlir");
  ASSERT_TRUE(static_cast<bool>(buffer));
  CompileOptions options;
  options.raise = true;
  llvm::Expected<std::shared_ptr<const Executable>> compiled =
      compile((*buffer)->getBuffer(), options);
  ASSERT_TRUE(static_cast<bool>(compiled)) << llvm::toString(compiled.takeError());
}

// Verification after each pass is off in release builds unless asked for; the tests ask
// (SOFTMAX_VERIFY_PASSES=1 in lit.cfg.py). Either way the result is the same.
TEST(APICompile, VerifyPassesDefaultsFromTheEnvironment) {
  const char *saved = std::getenv("SOFTMAX_VERIFY_PASSES");
  std::string savedValue = saved ? saved : "";
  setenv("SOFTMAX_VERIFY_PASSES", "0", 1);
  EXPECT_FALSE(CompileOptions().verifyPasses);
  setenv("SOFTMAX_VERIFY_PASSES", "1", 1);
  EXPECT_TRUE(CompileOptions().verifyPasses);
  if (saved)
    setenv("SOFTMAX_VERIFY_PASSES", savedValue.c_str(), 1);
  else
    unsetenv("SOFTMAX_VERIFY_PASSES");

  CompileOptions verified, unverified;
  verified.verifyPasses = true;
  verified.cacheDir = unverified.cacheDir = "off";
  unverified.verifyPasses = false;
  clearCompileCache();
  llvm::Expected<std::shared_ptr<const Executable>> a = compile(kStatic, verified);
  ASSERT_TRUE(!!a) << llvm::toString(a.takeError());
  clearCompileCache();
  llvm::Expected<std::shared_ptr<const Executable>> b = compile(kStatic, unverified);
  ASSERT_TRUE(!!b) << llvm::toString(b.takeError());
  EXPECT_NE(a->get(), b->get());
  llvm::Expected<llvm::StringRef> ptxA = (*a)->getPTX(), ptxB = (*b)->getPTX();
  ASSERT_TRUE(ptxA && ptxB);
  EXPECT_EQ(*ptxA, *ptxB);
}
