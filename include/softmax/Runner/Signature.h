//===- Signature.h - The entry function's arguments and results -*- C++ -*-===//
//
// What the runner needs to know about the function it runs: which one it is (--entry), the
// storage type and run-time shape of every argument (--shape fills the dynamic dimensions) and
// result, and what each result holds (probabilities, log-probabilities or plain values), which
// selects the comparison's tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_SIGNATURE_H
#define SOFTMAX_RUNNER_SIGNATURE_H

#include "softmax/Runner/Compare.h"
#include "softmax/Runner/Storage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace softmax::runner {

/// One argument or result of the entry function, as the runner passes it.
struct ArgSpec {
  std::string name;       ///< "arg0", "result0", ...
  std::string typeString; ///< the MLIR type as declared, e.g. "tensor<?x?xf16>"
  bool isTensor = false;  ///< a ranked tensor (else a scalar)
  ElementKind element = ElementKind::F32;
  std::vector<int64_t> shape; ///< run-time shape (tensors); -1 where still unknown

  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  /// The product of the dimensions (1 for rank 0; -1 while a dimension is unknown).
  int64_t getNumElements() const;
  /// The last dimension (the softmax row), 1 for rank 0.
  int64_t getRowWidth() const { return shape.empty() ? 1 : shape.back(); }
  /// "4096x4096xf32", or "f32" for a scalar.
  std::string describe() const;
};

/// The bytes the runner allocates for a tensor `spec` with its rows `rowStride` elements apart
/// (0: packed; the stride applies from rank 2 on, as the runner lays tensors out), or nullopt
/// when that does not fit in int64 (memref descriptors and device pointers are 64-bit).
std::optional<int64_t> getAllocatedBytes(const ArgSpec &spec, int64_t rowStride);

struct Signature {
  std::vector<ArgSpec> inputs;
  std::vector<ArgSpec> outputs;
  std::vector<OutputKind> outputKinds; ///< one per output
  /// One per output: whether its softmax (if any) is over the last axis, so that its rows are
  /// distributions (a softmax over another axis sums to 1 along that axis, not along rows).
  std::vector<bool> outputsOverLastAxis;
  /// One per output: the axis its softmax (if any) normalizes, -1 for none.
  std::vector<int64_t> outputAxes;
};

/// Parses "AxBxC" (positive or zero integers; "" is rank 0). Fails with `error` set.
llvm::FailureOr<std::vector<int64_t>> parseShape(llvm::StringRef text, std::string &error);

/// The entry function: `name` when given, else the only public function with a body.
llvm::FailureOr<mlir::func::FuncOp> findEntry(mlir::ModuleOp module, llvm::StringRef name,
                                              std::string &error);

/// Resolves the shapes of `fn`'s arguments and results. `shapes` holds one full shape per tensor
/// argument that has a dynamic dimension, in argument order; each must agree with the static
/// dimensions of its type. With `allowUnresolved`, missing shapes leave -1 (for --compile-only).
/// Result shapes follow from the argument each result is computed from (every softmax op keeps
/// its input's shape).
llvm::FailureOr<Signature> resolveSignature(mlir::func::FuncOp fn,
                                            llvm::ArrayRef<std::string> shapes,
                                            bool allowUnresolved, std::string &error);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_SIGNATURE_H
