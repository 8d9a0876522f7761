//===- HostProgram.h - A host function's launch rules, as data --*- C++ -*-===//
//
// Internal to SoftmaxAPI. After softmax-lower-to-gpu a host function is a few dozen index
// computations, scf.if dispatch on the sizes, views of its memref arguments, workspace
// allocations and gpu.launch_func ops. HostProgram::build reads that IR once, at compile time,
// into a flat list of instructions over two register files (scalars, memref descriptors);
// evaluate() runs it for the arguments of one call and reports each launch with its grid, block,
// shared memory and unpacked kernel parameters.
//
// Why interpret the IR instead of restating the rules in C++: the rules (block counts of the
// pipelined plans, the row_shared shared memory, the dispatch tiers) are emitted by the
// lowering and change with it; reading them from the IR keeps the API exactly in step with
// softmax-opt. Why not JIT the host code: see docs/api.md (per-call streams and allocations,
// an LLVM JIT in every embedder, and ~microseconds of descriptor packing we do not need).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_API_HOSTPROGRAM_H
#define SOFTMAX_LIB_API_HOSTPROGRAM_H

#include "softmax/API/Executable.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

#include "mlir/Support/LLVM.h"
#include "llvm/Support/LogicalResult.h"

namespace mlir {
class Type;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace softmax::api {

/// The ScalarType of `type` (integers of 1/8/16/32/64 bits, index, f16, bf16, f32, f64).
std::optional<ScalarType> getScalarType(mlir::Type type);

/// A memref descriptor at run time (MLIR's layout: two pointers, offset, sizes, strides).
struct MemRefValue {
  static constexpr unsigned kMaxRank = 8;
  const char *allocated = nullptr;
  const char *aligned = nullptr;
  int64_t offset = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  unsigned rank = 0;
};

class HostProgram {
public:
  enum class Opcode : uint8_t {
    Constant, // s[result] = imm
    Dim,      // s[result] = m[a].sizes[imm]
    Stride,   // s[result] = m[a].strides[imm]
    Offset,   // s[result] = m[a].offset
    AlignedPointer, // s[result] = m[a].aligned as an integer
    // Integers: aux is the bit width; values are kept sign-extended to 64 bits.
    AddI,
    SubI,
    MulI,
    DivUI,
    DivSI,
    CeilDivUI,
    CeilDivSI,
    FloorDivSI,
    RemUI,
    RemSI,
    MinUI,
    MaxUI,
    MinSI,
    MaxSI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRUI,
    ShRSI,
    CmpI,   // imm: arith::CmpIPredicate
    Select, // s[result] = s[a] ? s[b] : s[c]
    ExtUI,  // aux: source width
    Resize, // trunci / extsi / index_cast: re-normalise to aux bits
    // Floats: held as double; aux = 32 rounds the result to f32.
    AddF,
    SubF,
    MulF,
    DivF,
    NegF,
    MaxF,
    MinF,
    SIToFP,
    UIToFP,
    FPToSI,
    CmpF, // imm: arith::CmpFPredicate; operands of any float type (held as double)
    RoundF,
    // Memref descriptors.
    Copy,     // m[result] = m[a] (memref.cast)
    Collapse, // m[result] = collapse(m[a]); imm: offset into `tables`
    Expand,   // m[result] = expand(m[a]); imm: offset into `tables`
    Alloc,    // m[result] = the next workspace buffer; imm: offset into `tables`
    // Control.
    BranchIfFalse, // if (!s[a]) goto imm
    Jump,          // goto imm
    Launch,        // launches[imm]
    Return,
  };

  struct Instr {
    Opcode op;
    uint8_t aux = 0;
    int32_t result = -1, a = -1, b = -1, c = -1;
    int64_t imm = 0;
  };

  struct Operand {
    bool isMemRef = false;
    int32_t slot = -1;
    ScalarType type = ScalarType::I64; ///< scalars
  };

  struct LaunchInstr {
    unsigned kernel = 0;
    int32_t grid[3] = {-1, -1, -1}, block[3] = {-1, -1, -1};
    int32_t cluster[3] = {-1, -1, -1}; ///< -1: not a cluster launch
    int32_t sharedBytes = -1;          ///< -1: none
    bool dependent = false;            ///< LaunchRule::dependent
    llvm::SmallVector<Operand> operands;
  };

  /// Reads `func` (the output of buildSoftmaxToGPUPipeline) and fills `info` with its arguments,
  /// launch rules and workspace expression. `kernels` maps kernel symbol names to their index.
  /// Reports what it cannot read as an error at the op.
  static mlir::FailureOr<HostProgram>
  build(mlir::func::FuncOp func, const llvm::StringMap<unsigned> &kernels, FunctionInfo &info);

  /// The registers of one evaluation.
  struct Frame {
    llvm::SmallVector<int64_t, 64> scalars;
    llvm::SmallVector<MemRefValue, 8> memrefs;
  };

  /// One launch of an evaluation: its configuration and where its operands are in `frame`.
  using LaunchCallback = llvm::function_ref<llvm::Error(const LaunchInstr &launch,
                                                        const Launch &config, const Frame &frame)>;

  /// Runs the program for `args` (checked against `info`). Workspace buffers are placed from
  /// `workspace` on (null: offsets from 0); `workspaceBytes` receives the total. `onLaunch`,
  /// when given, is called for each launch in order with its checked configuration.
  llvm::Error evaluate(const FunctionInfo &info, llvm::ArrayRef<Argument> args,
                       const char *workspace, uint64_t &workspaceBytes,
                       LaunchCallback onLaunch) const;

  bool hasWorkspace() const { return usesWorkspace; }
  llvm::ArrayRef<LaunchInstr> getLaunches() const { return launches; }

private:
  friend class HostProgramBuilder;
  friend struct ExecutableCodec; // the disk cache (CacheEntry.cpp)
  llvm::Error bindArguments(const FunctionInfo &info, llvm::ArrayRef<Argument> args,
                            Frame &frame) const;

  std::vector<Instr> code;
  std::vector<LaunchInstr> launches;
  std::vector<int64_t> tables;        ///< operands of Collapse, Expand and Alloc
  std::vector<int32_t> argumentSlots; ///< per function argument: its scalar or memref slot
  unsigned numScalars = 0, numMemRefs = 0;
  bool usesWorkspace = false;
  std::string name;
};

/// Appends the parameters `operand` of `launch` contributes to a kernel launch, unpacked as
/// MLIR's default calling convention does: memrefs as allocated pointer, aligned pointer,
/// offset, sizes, strides; scalars as themselves. Each takes one 8-byte slot of `storage`
/// (smaller types in its first bytes), as cuLaunchKernel reads them through pointers.
void packParams(const HostProgram::LaunchInstr &launch, const HostProgram::Frame &frame,
                llvm::SmallVectorImpl<uint64_t> &storage);

} // namespace softmax::api

#endif // SOFTMAX_LIB_API_HOSTPROGRAM_H
