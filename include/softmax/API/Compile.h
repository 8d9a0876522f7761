//===- Compile.h - The C++ API: compile a softmax program --------*- C++ -*-===//
//
// compile() runs the --softmax-to-nvvm pipeline (the same builder as softmax-opt) on a program
// and returns an in-memory Executable (Executable.h). Executables are cached in memory, keyed on
// the program's text and the options: compiling the same program again returns the same
// executable without running the pipeline.
//
// Errors are llvm::Error values carrying the compiler's diagnostics as softmax-opt would print
// them (location, message, source line, notes); nothing is printed.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_API_COMPILE_H
#define SOFTMAX_API_COMPILE_H

#include "softmax/API/Executable.h"
#include "softmax/API/Options.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <memory>

namespace softmax::api {

/// Compiles MLIR text (a module of func.func ops on softmax-dialect ops, or linalg with
/// `options.raise`). `bufferName` names the source in diagnostics. Thread-safe.
llvm::Expected<std::shared_ptr<const Executable>> compile(llvm::StringRef source,
                                                          const CompileOptions &options = {},
                                                          llvm::StringRef bufferName = "<source>");

/// Compiles `module`, which is left unchanged: it is printed (with its locations, so that
/// diagnostics point at the caller's source) and compiled in a context of the API's own, so the
/// caller's context needs none of the lowering's dialects or interfaces.
llvm::Expected<std::shared_ptr<const Executable>> compile(mlir::ModuleOp module,
                                                          const CompileOptions &options = {});

/// The compile cache: how many executables it holds, and emptying it (executables still
/// referenced elsewhere stay alive).
size_t getCompileCacheSize();
void clearCompileCache();

} // namespace softmax::api

#endif // SOFTMAX_API_COMPILE_H
