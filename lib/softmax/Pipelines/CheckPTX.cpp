//===- CheckPTX.cpp - Reject PTX with unresolved externs ------------------===//

#include "softmax/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::softmax {
#define GEN_PASS_DEF_CHECKPTXPASS
#include "softmax/Pipelines/Passes.h.inc"
} // namespace mlir::softmax

using namespace mlir;

namespace {

struct CheckPTXPass : softmax::impl::CheckPTXPassBase<CheckPTXPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string collected;
    WalkResult result = getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        StringRef ptx = object.getObject().getValue();
        // `.extern .func (...) name(` declares a function that nothing in the module defines.
        llvm::Regex externFunc(R"(\.extern[ \t]+\.func[^(]*(\([^)]*\))?[ \t]*([A-Za-z_$][A-Za-z0-9_$]*))");
        SmallVector<StringRef> match;
        if (externFunc.match(ptx, &match)) {
          binary.emitError() << "the PTX of '" << binary.getSymName()
                             << "' calls the unresolved external function '" << match[2]
                             << "' (libdevice not linked?); it would fail to load on the GPU";
          return WalkResult::interrupt();
        }
        collected += "// gpu.binary @" + binary.getSymName().str() + "\n";
        collected += ptx.str();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (ptxFile.empty())
      return;
    if (ptxFile == "-") {
      llvm::errs() << collected;
      return;
    }
    std::error_code error;
    llvm::raw_fd_ostream file(ptxFile, error, llvm::sys::fs::OF_Text);
    if (error) {
      getOperation().emitError() << "cannot write PTX to '" << ptxFile << "': " << error.message();
      return signalPassFailure();
    }
    file << collected;
  }
};

} // namespace
