//===- APIHostProgramTest.cpp - The parameters run() would pass -----------===//
//
// White-box: builds the HostProgram of a lowered function and checks the exact parameter
// values packed for each launch (memref descriptors of views and workspace buffers, scalars
// computed in host code), which a GPU-less machine cannot observe through run().
//
//===----------------------------------------------------------------------===//

#include "HostProgram.h"

#include "softmax/API/Compile.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace softmax::api;

namespace {

/// Two softmaxes over a 3-D tensor with a dynamic middle size; the intermediate lives in the
/// workspace, and the second scale is computed in host code (t * t).
constexpr const char *kProgram = R"mlir(
func.func @two(%x: tensor<4x?x64xf32>, %t: f32) -> tensor<4x?x64xf32> {
  %a = softmax.softmax %x : tensor<4x?x64xf32>
  %t2 = arith.mulf %t, %t : f32
  %b = softmax.scale %a by %t2 : tensor<4x?x64xf32>, f32
  %c = softmax.softmax %b : tensor<4x?x64xf32>
  return %c : tensor<4x?x64xf32>
}
)mlir";

struct Lowered {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringMap<unsigned> kernels;
};

std::unique_ptr<Lowered> lower(llvm::StringRef source) {
  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  auto lowered = std::make_unique<Lowered>();
  lowered->context.appendDialectRegistry(registry);
  lowered->context.disableMultithreading();
  lowered->module = mlir::parseSourceString<mlir::ModuleOp>(source, &lowered->context);
  if (!lowered->module)
    return nullptr;
  mlir::PassManager pm(&lowered->context);
  mlir::softmax::buildSoftmaxToGPUPipeline(pm, mlir::softmax::SoftmaxToNVVMOptions());
  if (mlir::failed(pm.run(*lowered->module)))
    return nullptr;
  lowered->module->walk([&](mlir::gpu::GPUFuncOp func) {
    unsigned index = lowered->kernels.size();
    lowered->kernels[func.getName()] = index;
  });
  return lowered;
}

TEST(APIHostProgram, PacksDescriptorsWorkspaceAndHostScalars) {
  std::unique_ptr<Lowered> lowered = lower(kProgram);
  ASSERT_TRUE(lowered);
  auto func = lowered->module->lookupSymbol<mlir::func::FuncOp>("two");
  ASSERT_TRUE(func);
  FunctionInfo info;
  mlir::FailureOr<HostProgram> program = HostProgram::build(func, lowered->kernels, info);
  ASSERT_TRUE(mlir::succeeded(program));
  info.arguments[2].isOutput = true;

  // x: 4 x 10 x 64 with padded rows (stride 80) at a fake device address.
  const char *x = reinterpret_cast<const char *>(0x10000);
  const char *y = reinterpret_cast<const char *>(0x90000);
  const char *workspace = reinterpret_cast<const char *>(0x400000);
  int64_t xStrides[] = {10 * 80, 80, 1};
  std::vector<Argument> args = {Argument::tensor(x, {4, 10, 64}, xStrides), Argument::scalar(1.5),
                                Argument::tensor(y, {4, 10, 64})};
  std::vector<std::vector<uint64_t>> params;
  uint64_t workspaceBytes = 0;
  llvm::Error error = program->evaluate(
      info, args, workspace, workspaceBytes,
      [&](const HostProgram::LaunchInstr &launch, const Launch &, const HostProgram::Frame &f) {
        llvm::SmallVector<uint64_t> packed;
        packParams(launch, f, packed);
        params.emplace_back(packed.begin(), packed.end());
        return llvm::Error::success();
      });
  ASSERT_FALSE(!!error) << llvm::toString(std::move(error));
  EXPECT_EQ(workspaceBytes, 4u * 10 * 64 * 4);
  ASSERT_EQ(params.size(), 2u);

  auto u = [](const void *p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); };
  // Launch 1: rows of x (collapsed to 40 x 64, row stride 80) into the workspace (40 x 64,
  // contiguous), then the leading sizes 4 and 10.
  std::vector<uint64_t> first = {u(x),         u(x), 0,  40, 64, 80, 1, u(workspace),
                                 u(workspace), 0,    40, 64, 64, 1,  4, 10};
  EXPECT_EQ(params[0], first);
  // Launch 2: the workspace into y, the scale t * t = 2.25 as f32 bits, then the sizes.
  float scale = 2.25f;
  uint32_t scaleBits;
  std::memcpy(&scaleBits, &scale, sizeof(scaleBits));
  std::vector<uint64_t> second = {
      u(workspace), u(workspace), 0, 40, 64, 64, 1, u(y), u(y), 0, 40, 64, 64, 1, scaleBits, 4, 10};
  EXPECT_EQ(params[1], second);
}

TEST(APIHostProgram, UnsupportedHostOpsAreCompileErrorsAtTheOp) {
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(R"mlir(
func.func @f(%x: tensor<4x64xf32>, %t: f32) -> tensor<4x64xf32> {
  %s = math.sqrt %t : f32
  %y = softmax.scale %x by %s : tensor<4x64xf32>, f32
  %p = softmax.softmax %y : tensor<4x64xf32>
  return %p : tensor<4x64xf32>
})mlir");
  ASSERT_FALSE(!!exe);
  std::string message = llvm::toString(exe.takeError());
  EXPECT_NE(message.find("<source>:3:8: error: 'math.sqrt' op is not supported in host code by "
                         "the C++ API"),
            std::string::npos)
      << message;
}

} // namespace
