//===- TargetInfo.h - The GPU facts that plans depend on --------*- C++ -*-===//
//
// Every limit the strategy selection and the lowering consult, behind one type, so that a new
// GPU generation is one more entry in TargetInfo.cpp rather than ifs spread over the passes.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_TARGET_TARGETINFO_H
#define SOFTMAX_TARGET_TARGETINFO_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::softmax {

struct TargetInfo {
  std::string chip;               ///< e.g. "sm_90"
  int64_t warpSize = 32;          ///< threads that execute in lock step and shuffle together
  int64_t maxThreadsPerBlock = 1024;
  int64_t registersPerSM = 65536; ///< 32-bit registers of one multiprocessor
  int64_t maxRegistersPerThread = 255;
  int64_t sharedMemoryPerBlock = 0; ///< bytes, with the opt-in beyond 48 KB
  int64_t multiprocessors = 0;      ///< of the reference part (H200/H100 SXM: 132)
  int64_t vectorBytes = 16;         ///< widest global load/store of one thread

  /// The facts of `chip` (sm_80, sm_86, sm_89, sm_90), or nothing for an unknown chip.
  static std::optional<TargetInfo> forChip(llvm::StringRef chip);

  /// Registers a thread may use when blocks have `threads` threads: the per-thread maximum, or
  /// less when one block of that size must fit the register file.
  int64_t registersPerThread(int64_t threads) const;
};

} // namespace mlir::softmax

#endif // SOFTMAX_TARGET_TARGETINFO_H
