//===- TargetInfo.cpp - The GPU facts that plans depend on ----------------===//

#include "softmax/Target/TargetInfo.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace mlir::softmax;

std::optional<TargetInfo> TargetInfo::forChip(llvm::StringRef chip) {
  // Shared memory per block with the opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize), and
  // the multiprocessor count of the usual data-centre part of each generation.
  struct Facts {
    int64_t sharedMemoryPerBlock, multiprocessors;
  };
  std::optional<Facts> facts = llvm::StringSwitch<std::optional<Facts>>(chip)
                                   .Case("sm_80", Facts{163 * 1024, 108})  // A100
                                   .Case("sm_86", Facts{99 * 1024, 84})    // A40 / RTX 30xx
                                   .Case("sm_89", Facts{99 * 1024, 142})   // L40S
                                   .Case("sm_90", Facts{227 * 1024, 132})  // H100 / H200 SXM
                                   .Case("sm_90a", Facts{227 * 1024, 132})
                                   .Default(std::nullopt);
  if (!facts)
    return std::nullopt;
  TargetInfo info;
  info.chip = chip.str();
  info.sharedMemoryPerBlock = facts->sharedMemoryPerBlock;
  info.multiprocessors = facts->multiprocessors;
  // The consumer parts of sm_86 and sm_89 hold 48 warps a multiprocessor, not 64.
  if (chip == "sm_86" || chip == "sm_89")
    info.maxThreadsPerSM = 1536;
  // Clusters came with sm_90. 8 blocks is the portable size; the H100 and H200 launch 16 (a
  // "non-portable" size) once a kernel opts in (CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_
  // ALLOWED, which the runtime and the C++ API set), which holds an f32 row of 262144 columns
  // in registers.
  if (chip.starts_with("sm_90")) {
    info.clusterBlocks = 16;
    info.bulkCopies = true;
    info.dependentLaunches = true;
  }
  return info;
}

int64_t TargetInfo::registersPerThread(int64_t threads) const {
  // Registers are allocated per warp in units of 256, i.e. 8 per thread.
  int64_t fit = registersPerSM / std::max<int64_t>(threads, warpSize);
  return std::min(maxRegistersPerThread, fit / 8 * 8);
}

int64_t mlir::softmax::getRegisterPlanRegisters(int64_t lanes, int64_t vector, int64_t chunks,
                                                int64_t elementBytes, bool pipelined) {
  // Two rows' addresses and indices when pipelined; one otherwise, plus a quarter of the
  // values (the reductions' partial results; measured: fewer spill).
  int64_t overhead = pipelined ? 64 : 48 + vector * chunks / 4;
  int64_t edges = 2 * ((vector - 1 + lanes - 1) / lanes);
  int64_t values = vector * chunks + edges;
  int64_t raw = pipelined ? (vector * chunks * elementBytes + 3) / 4 + edges : 0;
  return values + raw + overhead;
}
