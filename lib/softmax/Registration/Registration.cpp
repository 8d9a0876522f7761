//===- Registration.cpp - What the project's tools register ---------------===//

#include "softmax/Registration.h"

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::softmax::registerDialects(DialectRegistry &registry) {
  registry.insert<SoftmaxDialect, arith::ArithDialect, func::FuncDialect, tensor::TensorDialect>();
}

void mlir::softmax::registerPasses() {
  // Upstream clean-ups used in the pipeline and handy on the command line.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();
}
