//===- Jit.cpp - The host code of a compiled program, JIT-compiled --------===//

#include "softmax/Runner/Compile.h"

#include "softmax/Runner/Progress.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

namespace softmax::runner {

llvm::Expected<std::unique_ptr<ExecutionEngine>> createEngine(ModuleOp compiled) {
  Phase phase("JIT-compiling the host code and loading the kernels");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engineOrError = ExecutionEngine::create(compiled, engineOptions);
  if (!engineOrError)
    return engineOrError.takeError();
  std::unique_ptr<ExecutionEngine> engine = std::move(*engineOrError);
  engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    ::softmax::runtime::registerSymbols([&](llvm::StringRef name, void *address) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    });
    return symbols;
  });
  engine->initialize();
  return std::move(engine);
}

} // namespace softmax::runner
