//===- Compile.h - The C++ API: compile a softmax program --------*- C++ -*-===//
//
// compile() runs the --softmax-to-nvvm pipeline (the same builder as softmax-opt) on a program
// and returns an in-memory Executable (Executable.h): the first half at once, each kernel's
// half when a call first launches the kernel (CompileOptions::lazyKernels). Executables are cached twice, under a key
// computed before parsing (the program's text, the options that decide the result, the LLVM and
// project versions and the build, and ptxas for cubins): in memory, the most recently used
// kCompileCacheCapacity of them, and on disk in a directory of entries named by their key
// (CompileOptions::cacheDir), which a later process reads instead of compiling. docs/api.md has
// the details.
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
#include <cstdint>
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

/// The in-memory compile cache: how many executables it holds, and emptying it (executables
/// still referenced elsewhere stay alive; the disk cache is left alone).
size_t getCompileCacheSize();
void clearCompileCache();

/// How many executables the in-memory cache keeps by default; beyond it the least recently used
/// one is dropped. An executable is mostly its kernels' sources (MLIR bytecode) and the PTX or
/// cubin of those compiled so far: tens of KB a kernel.
constexpr size_t kCompileCacheCapacity = 64;
size_t getCompileCacheCapacity();
/// Sets the capacity (0 keeps nothing in memory), evicting what no longer fits.
void setCompileCacheCapacity(size_t capacity);

/// What compile() did since the process started, for tests and tuning: each call counts once,
/// as a hit in memory, a hit on disk or a miss (a compile, successful or not).
struct CompileCacheStats {
  uint64_t memoryHits = 0;
  uint64_t diskHits = 0;
  uint64_t misses = 0;
  /// Disk entries that were present but not used: unreadable, truncated, of another format
  /// version, for another key, or failing their checksum. Each is also a miss and is rewritten.
  uint64_t diskRejected = 0;
  uint64_t diskWrites = 0;
  /// Entries that could not be written (a read-only or missing directory, a full disk): the
  /// compile still succeeds.
  uint64_t diskWriteFailures = 0;
  /// Kernels compiled to PTX or cubin (on a first launch, or by compile() with lazyKernels
  /// off), successfully or not; kernels read from their disk entries instead; and those entries
  /// written, or not written.
  uint64_t kernelCompiles = 0;
  uint64_t kernelDiskHits = 0;
  uint64_t kernelDiskWrites = 0;
  uint64_t kernelDiskWriteFailures = 0;
};
CompileCacheStats getCompileCacheStats();

} // namespace softmax::api

#endif // SOFTMAX_API_COMPILE_H
