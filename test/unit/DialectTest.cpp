//===- DialectTest.cpp - Building and verifying ops through the C++ API ---===//

#include "softmax/Dialect/Softmax/IR/Softmax.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::softmax;

namespace {

class DialectTest : public ::testing::Test {
protected:
  DialectTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // Collect diagnostics instead of printing them, so tests can assert on the message.
    context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      diagnostics += diag.str();
      diagnostics += "\n";
    });
  }

  /// A function taking `argTypes` whose body the test fills through `builder`.
  func::FuncOp makeFunc(TypeRange argTypes) {
    module = ModuleOp::create(loc);
    OpBuilder b(module->getBodyRegion());
    auto fn = func::FuncOp::create(b, loc, "f", b.getFunctionType(argTypes, {}));
    builder.setInsertionPointToStart(fn.addEntryBlock());
    return fn;
  }

  MLIRContext context;
  Location loc = UnknownLoc::get(&context);
  OpBuilder builder{&context};
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;
};

TEST_F(DialectTest, BuildsAVerifiedChain) {
  auto f32 = RankedTensorType::get({4, 128}, builder.getF32Type());
  auto lengths = RankedTensorType::get({4}, builder.getI32Type());
  auto bf16 = RankedTensorType::get({4, 128}, builder.getBF16Type());
  func::FuncOp fn = makeFunc({f32, lengths});
  Value x = fn.getArgument(0);

  auto scaled = ScaleOp::create(builder, loc, x, 0.125);
  auto masked = MaskOp::create(builder, loc, f32, scaled, MaskKind::padding, fn.getArgument(1),
                               /*axis=*/-1, /*offset=*/0,
                               APFloat(-std::numeric_limits<double>::infinity()));
  auto probs = SoftmaxOp::create(builder, loc, masked);
  auto out = CastOp::create(builder, loc, bf16, probs);
  func::ReturnOp::create(builder, loc);

  EXPECT_TRUE(succeeded(verify(*module))) << diagnostics;
  EXPECT_EQ(probs.getNormalizedAxis(), 1);
  EXPECT_EQ(probs.getMaskedRows(), MaskedRows::zero);
  EXPECT_EQ(out.getType().getElementType(), builder.getBF16Type());
  EXPECT_EQ(scaled.getFactorAttr().getValueAsDouble(), 0.125);
}

TEST_F(DialectTest, RejectsAnAxisOutOfRange) {
  auto type = RankedTensorType::get({2, 3}, builder.getF32Type());
  func::FuncOp fn = makeFunc({type});
  SoftmaxOp::create(builder, loc, type, fn.getArgument(0), /*axis=*/2, MaskedRows::zero);
  func::ReturnOp::create(builder, loc);

  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_NE(diagnostics.find("axis 2 is out of range for a tensor of rank 2"), std::string::npos)
      << diagnostics;
}

TEST_F(DialectTest, RejectsABiasThatDoesNotBroadcast) {
  auto input = RankedTensorType::get({4, 8}, builder.getF16Type());
  auto bias = RankedTensorType::get({5}, builder.getF16Type());
  func::FuncOp fn = makeFunc({input, bias});
  AddBiasOp::create(builder, loc, fn.getArgument(0), fn.getArgument(1));
  func::ReturnOp::create(builder, loc);

  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_NE(diagnostics.find("bias of shape 5 does not broadcast to the input shape 4x8"),
            std::string::npos)
      << diagnostics;
}

TEST_F(DialectTest, ScaleByOneFolds) {
  auto type = RankedTensorType::get({ShapedType::kDynamic, 16}, builder.getF32Type());
  func::FuncOp fn = makeFunc({type});
  auto scale = ScaleOp::create(builder, loc, fn.getArgument(0), 1.0);
  SmallVector<OpFoldResult> results;
  ASSERT_TRUE(succeeded(scale->fold(results)));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(dyn_cast<Value>(results.front()), fn.getArgument(0));
}

} // namespace
