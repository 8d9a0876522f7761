//===- softmax-fuzz.cpp - Fuzz target: text to PTX in process -------------===//
//
// The libFuzzer entry point for the whole compiler (docs/fuzzing.md): the bytes are a .mlir
// program, which is parsed and verified in a context with the project's selective registry,
// then compiled by --softmax-to-nvvm (sm_90, PTX) in process, up to and including PTX
// generation. A linalg program goes through softmax-raise first, as the runner's front door
// does.
//
// Diagnostics are expected (most inputs are malformed) and swallowed: a finding is a crash, a
// sanitizer report, a fatal error that exits, a hang (-timeout) or runaway memory
// (-rss_limit_mb / -malloc_limit_mb), never a rejected program.
//
// Built with -fsanitize=fuzzer in the instrumented configuration (scripts/fuzz.sh); in the
// main build it links DummySoftmaxFuzzer.cpp instead, a main that runs the files named on its
// command line once each, so the target keeps compiling and replays reproducers without
// libFuzzer.
//
//===----------------------------------------------------------------------===//

#include "softmax/Dialect/Softmax/Transforms/Passes.h"
#include "softmax/Pipelines/Pipelines.h"
#include "softmax/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

namespace {

/// Whether `module` holds linalg ops, which the pipeline reads only after softmax-raise.
bool hasLinalg(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return isa<linalg::LinalgDialect>(op->getDialect()) ? WalkResult::interrupt()
                                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `text` holds one of the known crashes of MLIR 22's linalg parsers, which mlir-opt
/// dies on too (docs/fuzzing.md, test/Fuzz/Open/upstream-*.mlir); not ours to find again.
/// - linalg.broadcast and linalg.reduce store a null attribute when `dimensions =` is not
///   followed by an array of integers.
/// - The structured ops (linalg.generic, linalg.add, ...) accept `<attr>` properties before
///   `ins(` and read any attribute there as a dictionary: `linalg.exp <1> ins(...)` reads
///   through a TypeAttr's or IntegerAttr's storage.
bool hitsKnownUpstreamCrash(StringRef text) {
  for (size_t at = text.find("dimensions"); at != StringRef::npos;
       at = text.find("dimensions", at + 1)) {
    StringRef rest = text.drop_front(at + strlen("dimensions")).ltrim();
    if (!rest.consume_front("="))
      continue; // `dimensions(...)` and the like go through other parsers
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      return true;
    // An array that is not a list of integers (garbage or the end of the text after the `[`)
    // takes the same path: the CI fuzz run of 2026-12-06 found `dimensions = [` followed by
    // stray bytes (test/Fuzz/Open/upstream-linalg-broadcast-dimensions-list.mlir).
    for (;;) {
      rest = rest.ltrim();
      if (rest.consume_front("]"))
        break;
      rest.consume_front("-");
      size_t digits = rest.find_if_not(llvm::isDigit);
      if (digits == 0 || rest.empty())
        return true;
      rest = rest.drop_front(std::min(digits, rest.size())).ltrim();
      if (rest.consume_front("]"))
        break;
      if (!rest.consume_front(","))
        return true;
    }
  }
  for (size_t at = text.find("linalg."); at != StringRef::npos;
       at = text.find("linalg.", at + 1)) {
    // The op name, then the generic op's attribute dictionary if there is one.
    auto inName = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; };
    StringRef rest = text.drop_front(at + strlen("linalg.")).drop_while(inName).ltrim();
    if (rest.starts_with("{")) {
      int depth = 0;
      rest = rest.drop_while([&](char c) {
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        return depth > 0;
      });
      rest = rest.drop_front(rest.empty() ? 0 : 1).ltrim();
    }
    if (rest.consume_front("<") && !rest.ltrim().starts_with("{"))
      return true;
  }
  return false;
}

} // namespace

extern "C" LLVM_ATTRIBUTE_USED int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One registry for the process (building it is not what is under test); one context per
  // input, single-threaded, so that nothing carries over from one input to the next.
  static DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry();
    softmax::registerDialects(*registry);
    return registry;
  }();
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });

  // Inputs that crash upstream MLIR's own parsers are skipped (hitsKnownUpstreamCrash says
  // which), so that the run goes on finding crashes of this project's code.
  StringRef text(reinterpret_cast<const char *>(data), size);
  if (hitsKnownUpstreamCrash(text))
    return 0;

  // A copy of the bytes: the lexer wants a NUL-terminated buffer, which libFuzzer's data is not.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz-input"),
      llvm::SMLoc());
  // parseSourceFile verifies the module it returns.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;

  softmax::SoftmaxToNVVMOptions options;
  PassManager pm(&context);
  if (hasLinalg(*module))
    pm.addNestedPass<func::FuncOp>(softmax::createRaisePass());
  softmax::buildSoftmaxToNVVMPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
