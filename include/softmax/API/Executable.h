//===- Executable.h - A compiled softmax program, ready to launch -*- C++ -*-===//
//
// What compile() (Compile.h) returns: the kernels' PTX or cubin in memory, and for each host
// function of the program its arguments, the kernels it launches and the rules that decide the
// grid, block, dynamic shared memory and (for dynamic sizes) which kernel serves a call. run()
// applies those rules to the sizes of one call and launches the kernels on the caller's stream:
// no host synchronisation, no stream or memory created per call, so a call can be captured in a
// CUDA graph. docs/api.md has an example and the reasoning.
//
// Nothing here needs MLIR at run time: the rules were read from the host IR at compile time
// (before it was lowered to LLVM) into a small self-contained program (HostProgram.h).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_API_EXECUTABLE_H
#define SOFTMAX_API_EXECUTABLE_H

#include "softmax/API/Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace softmax::api {

/// The type of a scalar argument, a tensor element or a kernel parameter.
enum class ScalarType : uint8_t { I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64 };
llvm::StringRef stringify(ScalarType type);
/// Bytes of one value as a kernel parameter or tensor element (1 for I1).
unsigned getByteSize(ScalarType type);

/// A dynamic size in ArgumentInfo::shape.
constexpr int64_t kDynamic = INT64_MIN;

/// One argument of a host function, in call order: the source function's arguments, then one
/// output buffer per result (destination-passing style).
struct ArgumentInfo {
  bool isTensor = false;
  bool isOutput = false;
  ScalarType type = ScalarType::F32; ///< the element type of a tensor
  std::vector<int64_t> shape;        ///< tensors: the sizes, kDynamic where dynamic
};

/// One parameter of a kernel as the driver receives it (cuLaunchKernel's `kernelParams`).
/// A memref operand becomes 3 + 2 * rank parameters: allocated pointer, aligned pointer, offset,
/// sizes, strides (MLIR's memref descriptor, unpacked).
struct KernelParam {
  std::string name; ///< e.g. "operand 0 (memref<?x?xf32>) aligned pointer", "operand 4 (index)"
  ScalarType type = ScalarType::I64; ///< pointers are I64 (8 bytes)
};

struct KernelInfo {
  std::string name;                         ///< the symbol in the PTX/cubin
  std::array<int64_t, 3> block = {0, 0, 0}; ///< known_block_size (0: not fixed by the kernel)
  int64_t staticSharedBytes = 0;            ///< workgroup buffers declared by the kernel
  int64_t maxRegisters = 0;                 ///< nvvm.maxnreg (0: the compiler's choice)
  std::vector<KernelParam> params;
};

/// One gpu.launch_func of a host function. Every rule is an expression over the function's
/// arguments (`argN` is argument N, `argN.size[d]` its size d), printed from the host IR.
struct LaunchRule {
  unsigned kernel = 0;             ///< index into Executable::getKernels()
  std::vector<std::string> guards; ///< conditions that all hold when this launch runs,
                                   ///< outermost first (the dispatch between tiers)
  std::array<std::string, 3> grid, block, cluster; ///< cluster: "" unless a cluster launch
  std::string sharedBytes;                         ///< dynamic shared memory, "0" if none
};

struct FunctionInfo {
  std::string name;
  std::vector<ArgumentInfo> arguments;
  std::vector<LaunchRule> launches; ///< in program order
  /// Bytes of device workspace one call needs (its intermediate tensors, each 256-byte aligned)
  /// as an expression; "0" when none. Executable::getWorkspaceSize evaluates it.
  std::string workspaceBytes;
};

/// One argument of a call, in ArgumentInfo order. A small value (sizes and strides are held
/// inline, up to kMaxRank dimensions), so argument lists can be built and kept freely.
struct Argument {
  static constexpr unsigned kMaxRank = 8;

  /// A tensor in device memory: `sizes` in elements, `strides` in elements (empty: contiguous
  /// row-major). The innermost stride must be 1. More than kMaxRank sizes make the call fail.
  static Argument tensor(const void *data, llvm::ArrayRef<int64_t> sizes,
                         llvm::ArrayRef<int64_t> strides = {}) {
    Argument a;
    a.isTensor = true;
    a.data = data;
    a.rank = sizes.size();
    a.hasStrides = !strides.empty();
    a.stridesMismatch = a.hasStrides && strides.size() != sizes.size();
    for (unsigned d = 0; d < kMaxRank && d < sizes.size(); ++d) {
      a.sizes[d] = sizes[d];
      a.strides[d] = a.hasStrides && d < strides.size() ? strides[d] : 0;
    }
    return a;
  }
  /// A floating-point scalar (converted to the argument's type).
  static Argument scalar(double value) {
    Argument a;
    a.floatValue = value;
    a.isFloat = true;
    return a;
  }
  /// An integer or index scalar.
  static Argument integer(int64_t value) {
    Argument a;
    a.intValue = value;
    return a;
  }

  bool isTensor = false;
  bool isFloat = false;
  bool hasStrides = false;
  bool stridesMismatch = false; ///< strides given, but not one per size
  unsigned rank = 0;
  const void *data = nullptr;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  double floatValue = 0;
  int64_t intValue = 0;
};

/// What one call launches, in order: the dispatch decision and launch configuration for the
/// sizes of that call.
struct Launch {
  unsigned kernel = 0; ///< index into Executable::getKernels()
  std::array<uint64_t, 3> grid = {0, 0, 0}, block = {0, 0, 0}, cluster = {0, 0, 0};
  uint32_t sharedBytes = 0;
};

class HostProgram;
struct LoadedModule;
struct ExecutableCodec;

/// A compiled program. Immutable after compile(); safe to share and to run from several threads.
class Executable {
public:
  Executable(CompileOptions options, std::string image, std::vector<KernelInfo> kernels,
             std::vector<FunctionInfo> functions, std::vector<HostProgram> programs);
  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  const CompileOptions &getOptions() const { return options; }
  /// The kernels' PTX (format isa), empty otherwise.
  llvm::StringRef getPTX() const;
  /// What the driver loads: the PTX (isa), the cubin (bin) or the fatbin (fatbin).
  llvm::StringRef getImage() const { return image; }
  llvm::ArrayRef<KernelInfo> getKernels() const { return kernels; }
  llvm::ArrayRef<FunctionInfo> getFunctions() const { return functions; }
  /// The function named `name`, or null.
  const FunctionInfo *lookupFunction(llvm::StringRef name) const;

  /// The launches a call of `function` with `args` makes (which kernel serves these sizes, with
  /// which grid, block and shared memory), without a GPU. Tensor data pointers may be null.
  llvm::Expected<std::vector<Launch>> plan(llvm::StringRef function,
                                           llvm::ArrayRef<Argument> args) const;
  /// Bytes of device workspace a call of `function` with `args` needs (0 for most programs).
  llvm::Expected<uint64_t> getWorkspaceSize(llvm::StringRef function,
                                            llvm::ArrayRef<Argument> args) const;

  /// Loads the CUDA driver (device 0's primary context, see CudaDriver.h) and the kernels. run()
  /// does this on first use; call it first to keep the module load (and PTX JIT compilation)
  /// out of a timed region or a graph capture. Idempotent; a failure is returned every time.
  llvm::Error load() const;

  /// Launches the kernels of one call of `function` on `stream` (a CUstream / cudaStream_t;
  /// null is the legacy default stream) and returns without waiting for them. `workspace` is
  /// device memory of at least getWorkspaceSize() bytes when that is not 0. Errors: argument
  /// mismatches, and what the driver reports at launch; faults inside a kernel surface, as in
  /// CUDA, at the caller's next synchronisation.
  llvm::Error run(llvm::StringRef function, llvm::ArrayRef<Argument> args, void *stream,
                  void *workspace = nullptr, uint64_t workspaceBytes = 0) const;

private:
  friend struct ExecutableCodec; // the disk cache's entries (lib/softmax/API/CacheEntry.cpp)
  llvm::Expected<const HostProgram *> lookupProgram(llvm::StringRef function) const;

  CompileOptions options;
  std::string image;
  std::vector<KernelInfo> kernels;
  std::vector<FunctionInfo> functions;
  std::vector<HostProgram> programs; ///< parallel to `functions`
  std::unique_ptr<LoadedModule> loaded;
};

} // namespace softmax::api

#endif // SOFTMAX_API_EXECUTABLE_H
