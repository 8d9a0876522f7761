//===- softmax-opt.cpp - The softmax compiler's opt driver ----------------===//
//
// MlirOptMain over a selective registry: the softmax dialect, the upstream dialects its
// pipeline produces, the project's passes and pipelines, and the upstream passes a user needs
// to drive the lowering by hand.
//
//===----------------------------------------------------------------------===//

#include "softmax/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::softmax::registerDialects(registry);
  mlir::softmax::registerPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Softmax compiler driver\n", registry));
}
