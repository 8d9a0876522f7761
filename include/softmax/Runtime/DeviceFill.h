//===- DeviceFill.h - Seeded inputs generated on the GPU --------*- C++ -*-===//
//
// For timing runs (softmax-run --no-check --bench) the inputs need not be known on the host:
// generating 2^28 normal doubles there, encoding them and uploading them cost seconds per case,
// far more than the kernels being timed. These functions fill device buffers in place with a tiny
// hand-written PTX module (loaded once with cuModuleLoadDataEx): each element is a function of
// (seed, its index in the packed tensor) only, through a counter-based hash (the SplitMix64
// finaliser of seed + index * golden ratio), so the values do not depend on the launch shape.
//
//  - floats: "normal" is an Irwin-Hall sum of four 16-bit uniforms, centred and scaled to unit
//    variance (bounded by ±3.46 scale), "uniform" is a 24-bit uniform in [-scale, scale); both
//    as an exact integer times one f32 multiplier, rounded once to f32 / f16 / bf16. Never all
//    zeros (a zero is as rare as one integer value in 2^18 or 2^24).
//  - integers (padding lengths): hash % (max + 1), with index % 16 == 0 -> 0 and
//    index % 16 == 1 -> max, as the host inputs have.
//  - i1 masks (one byte): 1 with probability `density` (24-bit threshold).
//
// The host twins below compute the same values; the runner compares a sample of every filled
// buffer with them, so a wrong PTX address or conversion is caught on the first run.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNTIME_DEVICEFILL_H
#define SOFTMAX_RUNTIME_DEVICEFILL_H

#include "softmax/Runtime/CudaDriver.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace softmax::runtime {

enum class FillFloatType { F32 = 0, F16 = 1, BF16 = 2 };
enum class FillDistribution { Normal = 0, Uniform = 1 };

/// Where a tensor lies: `count` elements in rows of `width`, rows `stride` elements apart
/// (stride == width: packed). Element i of the packed tensor goes to
/// pointer + ((i / width) * stride + i % width) * elementBytes.
struct FillLayout {
  CUdeviceptr pointer = 0;
  uint64_t count = 0;
  uint64_t width = 1;
  uint64_t stride = 1;
};

/// The PTX of the fill kernels (sm_90, PTX 8.0), for tests that assemble it with ptxas.
const char *getFillPtx();

/// Fills a float tensor on `stream` (asynchronously).
llvm::Error fillFloatOnDevice(const FillLayout &layout, FillFloatType type,
                              FillDistribution distribution, float scale, uint64_t seed,
                              CUstream stream);
/// Fills an integer tensor of `elementBytes` (1, 2, 4 or 8) with values in [0, maxValue].
llvm::Error fillIntegersOnDevice(const FillLayout &layout, unsigned elementBytes,
                                 uint64_t maxValue, uint64_t seed, CUstream stream);
/// Fills a one-byte i1 tensor: 1 with probability `density`.
llvm::Error fillMaskOnDevice(const FillLayout &layout, double density, uint64_t seed,
                             CUstream stream);

// The host twins: the value the kernels write at packed index `index`.
uint64_t fillHash(uint64_t seed, uint64_t index);
float fillFloatValue(FillDistribution distribution, float scale, uint64_t seed, uint64_t index);
uint64_t fillIntegerValue(uint64_t maxValue, uint64_t seed, uint64_t index);
bool fillMaskValue(double density, uint64_t seed, uint64_t index);

} // namespace softmax::runtime

#endif // SOFTMAX_RUNTIME_DEVICEFILL_H
