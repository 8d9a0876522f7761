//===- Executable.h - A compiled softmax program, ready to launch -*- C++ -*-===//
//
// What compile() (Compile.h) returns: for each host function of the program its arguments, the
// kernels it launches and the rules that decide the grid, block, dynamic shared memory and (for
// dynamic sizes) which kernel serves a call; and the kernels, each compiled to PTX or cubin when
// a call first launches it (or all at once: CompileOptions::lazyKernels). run() applies the
// rules to the sizes of one call and launches the kernels on the caller's stream: no host
// synchronisation, no stream or memory created per call, so a call can be captured in a CUDA
// graph once its kernels are loaded (prepare()). docs/api.md has an example and the reasoning.
//
// Nothing here needs MLIR at run time but the compile of a kernel: the rules were read from the
// host IR at compile time (before it was lowered to LLVM) into a small self-contained program
// (HostProgram.h), and each kernel is kept as its own module until it is compiled.
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
  /// Launched as a programmatic dependent launch of the launch before it: its blocks may start
  /// while that grid finishes, and wait for it in the kernel (kDependentLaunchAttrName).
  bool dependent = false;
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
  bool dependent = false; ///< see LaunchRule::dependent
};

class HostProgram;
struct KernelStore;
struct ExecutableCodec;

/// A compiled program. Immutable after compile() but for its kernels, which are compiled and
/// loaded on first use; safe to share and to run from several threads.
class Executable {
public:
  /// `kernelSources[k]` is kernel k's module as MLIR bytecode, compiled when first needed.
  Executable(CompileOptions options, std::vector<KernelInfo> kernels,
             std::vector<std::string> kernelSources, std::vector<FunctionInfo> functions,
             std::vector<HostProgram> programs);
  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  const CompileOptions &getOptions() const { return options; }
  llvm::ArrayRef<KernelInfo> getKernels() const { return kernels; }
  llvm::ArrayRef<FunctionInfo> getFunctions() const { return functions; }
  /// The function named `name`, or null.
  const FunctionInfo *lookupFunction(llvm::StringRef name) const;

  /// What the driver loads for kernel `kernel`: its PTX (format isa), cubin (bin) or fatbin,
  /// compiled now if it was not yet (from the disk cache where it is there). Valid as long as
  /// the executable. A kernel that fails to compile fails every time, with the diagnostics.
  llvm::Expected<llvm::StringRef> getKernelImage(unsigned kernel) const;
  /// Whether kernel `kernel`'s image exists already (compiled, or read from the disk cache).
  bool isKernelCompiled(unsigned kernel) const;
  /// Every kernel's PTX (format isa; empty otherwise), each after a `// gpu.binary @<name>`
  /// line, as softmax-opt's ptx-file writes them: compiles the kernels not compiled yet.
  llvm::Expected<llvm::StringRef> getPTX() const;

  /// The launches a call of `function` with `args` makes (which kernel serves these sizes, with
  /// which grid, block and shared memory), without a GPU. Tensor data pointers may be null.
  llvm::Expected<std::vector<Launch>> plan(llvm::StringRef function,
                                           llvm::ArrayRef<Argument> args) const;
  /// Bytes of device workspace a call of `function` with `args` needs (0 for most programs).
  llvm::Expected<uint64_t> getWorkspaceSize(llvm::StringRef function,
                                            llvm::ArrayRef<Argument> args) const;

  /// Compiles and loads the kernels that a call of `function` with `args` launches (device 0's
  /// primary context, see CudaDriver.h). run() does this for each kernel on its first launch,
  /// also during a CUDA graph capture (the module is loaded in the relaxed capture mode, which
  /// allows it); call it first to keep the compile and the load out of a timed region.
  llvm::Error prepare(llvm::StringRef function, llvm::ArrayRef<Argument> args) const;
  /// Compiles and loads every kernel. Idempotent; a kernel that failed fails every time.
  llvm::Error load() const;

  /// Launches the kernels of one call of `function` on `stream` (a CUstream / cudaStream_t;
  /// null is the legacy default stream) and returns without waiting for them. `workspace` is
  /// device memory of at least getWorkspaceSize() bytes when that is not 0. A kernel launched
  /// for the first time is compiled and loaded first (prepare()). Errors: argument mismatches,
  /// a kernel that does not compile, and what the driver reports at launch; faults inside a
  /// kernel surface, as in CUDA, at the caller's next synchronisation.
  llvm::Error run(llvm::StringRef function, llvm::ArrayRef<Argument> args, void *stream,
                  void *workspace = nullptr, uint64_t workspaceBytes = 0) const;

private:
  friend struct ExecutableCodec; // the disk cache's entries (lib/softmax/API/CacheEntry.cpp)
  friend struct ExecutableInternals; // compile() and the disk cache (lib/softmax/API/KernelStore.h)
  llvm::Expected<const HostProgram *> lookupProgram(llvm::StringRef function) const;
  /// Compiles kernel `kernel` if needed and loads it on the device if needed.
  llvm::Error loadKernel(unsigned kernel) const;

  CompileOptions options;
  std::vector<KernelInfo> kernels;
  std::vector<FunctionInfo> functions;
  std::vector<HostProgram> programs; ///< parallel to `functions`
  std::unique_ptr<KernelStore> store; ///< the kernels' sources, images and device state
};

} // namespace softmax::api

#endif // SOFTMAX_API_EXECUTABLE_H
