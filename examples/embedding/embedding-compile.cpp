//===- embedding-compile.cpp - The C++ pipeline on a parsed module --------===//
//
// embedding-compile <file.mlir> [chip]: parses a softmax-dialect program, compiles it with
// buildSoftmaxToNVVMPipeline and prints the kernels it launches, then their PTX.
//
//===----------------------------------------------------------------------===//

#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: embedding-compile <file.mlir> [chip]\n";
    return 2;
  }
  DialectRegistry registry;
  softmax::registerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  softmax::SoftmaxToNVVMOptions options;
  if (argc == 3)
    options.chip = argv[2];
  if (llvm::Error error = softmax::verifySoftmaxToNVVMOptions(options)) {
    llvm::errs() << "embedding-compile: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  PassManager pm(&context);
  softmax::buildSoftmaxToNVVMPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  module->walk([](gpu::LaunchFuncOp launch) {
    llvm::outs() << "kernel " << launch.getKernelName().getValue() << "\n";
  });
  module->walk([](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      llvm::outs() << cast<gpu::ObjectAttr>(object).getObject().getValue();
  });
  return 0;
}
