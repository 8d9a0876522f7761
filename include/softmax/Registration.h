//===- Registration.h - What the project's tools register -------*- C++ -*-===//
//
// A selective registry shared by softmax-opt, softmax-run, the tests and embedders (installed as
// SoftmaxCompiler::Registration, docs/embedding.md): the softmax dialect, the upstream dialects
// and interfaces its lowering produces, and the passes (the project's and the upstream ones a
// user needs to run the pipeline step by step). The C API (include/softmax-c/Softmax.h) compiles
// through the C++ API (softmax/API/Compile.h), which registers these itself.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_REGISTRATION_H
#define SOFTMAX_REGISTRATION_H

namespace mlir {
class DialectRegistry;
namespace softmax {

/// Dialects, external models and translations needed to parse, lower and serialize softmax
/// programs down to PTX and LLVM IR.
void registerDialects(DialectRegistry &registry);

/// The project's passes and pipelines, and the upstream passes of the lowering.
void registerPasses();

} // namespace softmax
} // namespace mlir

#endif // SOFTMAX_REGISTRATION_H
