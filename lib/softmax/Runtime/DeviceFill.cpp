//===- DeviceFill.cpp - Seeded inputs generated on the GPU ----------------===//
//
// The PTX is written by hand (it is ~100 instructions and must not depend on the MLIR pipeline
// it is used to measure). Each kernel is a grid-stride loop over the packed index i:
//   offset = (i / width) * stride + i % width
//   h      = splitmix64(seed + i * 0x9E3779B97F4A7C15)
// followed by the kernel's conversion of h and one store.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runtime/DeviceFill.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

using namespace softmax::runtime;

namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr int kThreads = 256;

// The kernels' common parameters and loop head: %rd1 pointer (global), %rd2 count, %rd3 width,
// %rd4 stride, %rd5 seed; %rd6 the index i, %rd8 the grid stride; %rd12 the element offset and
// %rd13 the hash of i. Uses %rd9-%rd11, %rd14.
const char *const kCommonParams = R"(
  .param .u64 p_ptr, .param .u64 p_count, .param .u64 p_width, .param .u64 p_stride,
  .param .u64 p_seed)";

const char *const kLoopHead = R"(
  ld.param.u64 %rd1, [p_ptr];
  ld.param.u64 %rd2, [p_count];
  ld.param.u64 %rd3, [p_width];
  ld.param.u64 %rd4, [p_stride];
  ld.param.u64 %rd5, [p_seed];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mul.wide.u32 %rd6, %r3, %r4;
  cvt.u64.u32 %rd7, %r5;
  add.u64 %rd6, %rd6, %rd7;
  mov.u32 %r6, %nctaid.x;
  mul.wide.u32 %rd8, %r6, %r4;
LOOP:
  setp.ge.u64 %p1, %rd6, %rd2;
  @%p1 bra DONE;
  div.u64 %rd9, %rd6, %rd3;
  mul.lo.u64 %rd10, %rd9, %rd3;
  sub.u64 %rd11, %rd6, %rd10;
  mul.lo.u64 %rd12, %rd9, %rd4;
  add.u64 %rd12, %rd12, %rd11;
  mul.lo.u64 %rd13, %rd6, 0x9E3779B97F4A7C15;
  add.u64 %rd13, %rd13, %rd5;
  shr.u64 %rd14, %rd13, 30;
  xor.b64 %rd13, %rd13, %rd14;
  mul.lo.u64 %rd13, %rd13, 0xBF58476D1CE4E5B9;
  shr.u64 %rd14, %rd13, 27;
  xor.b64 %rd13, %rd13, %rd14;
  mul.lo.u64 %rd13, %rd13, 0x94D049BB133111EB;
  shr.u64 %rd14, %rd13, 31;
  xor.b64 %rd13, %rd13, %rd14;
)";

const char *const kLoopTail = R"(
NEXT:
  add.u64 %rd6, %rd6, %rd8;
  bra LOOP;
DONE:
  ret;
}
)";

const char *const kRegisters = R"(
{
  .reg .pred %p<8>;
  .reg .b16 %h<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<24>;
  .reg .f32 %f<4>;
)";

// Floats: kind 0 f32, 1 f16, 2 bf16; dist 0 normal (Irwin-Hall of four 16-bit pieces), 1
// uniform (the top 24 bits); the centred integer times the multiplier k, rounded once.
const char *const kFloatBody = R"(
  ld.param.u32 %r1, [p_kind];
  ld.param.u32 %r2, [p_dist];
  ld.param.f32 %f1, [p_k];
)";
const char *const kFloatConvert = R"(
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra UNIFORM;
  cvt.u32.u64 %r7, %rd13;
  shr.u64 %rd14, %rd13, 32;
  cvt.u32.u64 %r8, %rd14;
  and.b32 %r9, %r7, 65535;
  shr.u32 %r10, %r7, 16;
  add.u32 %r9, %r9, %r10;
  and.b32 %r10, %r8, 65535;
  add.u32 %r9, %r9, %r10;
  shr.u32 %r10, %r8, 16;
  add.u32 %r9, %r9, %r10;
  sub.s32 %r9, %r9, 131072;
  bra CONVERT;
UNIFORM:
  shr.u64 %rd14, %rd13, 40;
  cvt.u32.u64 %r9, %rd14;
  sub.s32 %r9, %r9, 8388608;
CONVERT:
  cvt.rn.f32.s32 %f2, %r9;
  mul.rn.f32 %f2, %f2, %f1;
  setp.eq.u32 %p3, %r1, 0;
  @%p3 bra STORE_F32;
  shl.b64 %rd15, %rd12, 1;
  add.u64 %rd15, %rd1, %rd15;
  setp.eq.u32 %p4, %r1, 1;
  @%p4 bra STORE_F16;
  cvt.rn.bf16.f32 %h1, %f2;
  st.global.b16 [%rd15], %h1;
  bra NEXT;
STORE_F16:
  cvt.rn.f16.f32 %h1, %f2;
  st.global.b16 [%rd15], %h1;
  bra NEXT;
STORE_F32:
  shl.b64 %rd15, %rd12, 2;
  add.u64 %rd15, %rd1, %rd15;
  st.global.f32 [%rd15], %f2;
)";

// Integers: hash % (max + 1); i % 16 == 0 -> 0, == 1 -> max; stored in `bytes` bytes.
const char *const kIntegerBody = R"(
  ld.param.u32 %r1, [p_bytes];
  ld.param.u64 %rd16, [p_max];
  add.u64 %rd17, %rd16, 1;
)";
const char *const kIntegerConvert = R"(
  rem.u64 %rd18, %rd13, %rd17;
  and.b64 %rd19, %rd6, 15;
  setp.eq.u64 %p2, %rd19, 0;
  selp.b64 %rd18, 0, %rd18, %p2;
  setp.eq.u64 %p3, %rd19, 1;
  selp.b64 %rd18, %rd16, %rd18, %p3;
  setp.eq.u32 %p4, %r1, 8;
  @%p4 bra STORE_8;
  setp.eq.u32 %p5, %r1, 4;
  @%p5 bra STORE_4;
  cvt.u16.u64 %h1, %rd18;
  setp.eq.u32 %p6, %r1, 2;
  @%p6 bra STORE_2;
  add.u64 %rd15, %rd1, %rd12;
  st.global.u8 [%rd15], %h1;
  bra NEXT;
STORE_2:
  shl.b64 %rd15, %rd12, 1;
  add.u64 %rd15, %rd1, %rd15;
  st.global.u16 [%rd15], %h1;
  bra NEXT;
STORE_4:
  shl.b64 %rd15, %rd12, 2;
  add.u64 %rd15, %rd1, %rd15;
  cvt.u32.u64 %r7, %rd18;
  st.global.u32 [%rd15], %r7;
  bra NEXT;
STORE_8:
  shl.b64 %rd15, %rd12, 3;
  add.u64 %rd15, %rd1, %rd15;
  st.global.u64 [%rd15], %rd18;
)";

// Masks: one byte, 1 when the top 24 bits are below the threshold.
const char *const kMaskBody = R"(
  ld.param.u64 %rd16, [p_threshold];
)";
const char *const kMaskConvert = R"(
  shr.u64 %rd17, %rd13, 40;
  setp.lt.u64 %p2, %rd17, %rd16;
  selp.u16 %h1, 1, 0, %p2;
  add.u64 %rd15, %rd1, %rd12;
  st.global.u8 [%rd15], %h1;
)";

std::string buildPtx() {
  std::string ptx = "//\n// softmax-run's input fill kernels (lib/softmax/Runtime/DeviceFill.cpp)\n"
                    "//\n.version 8.0\n.target sm_90\n.address_size 64\n";
  auto kernel = [&](const char *name, const char *extraParams, const char *body,
                    const char *convert) {
    ptx += std::string("\n.visible .entry ") + name + "(" + kCommonParams + extraParams + ")" +
           kRegisters + body + kLoopHead + convert + kLoopTail;
  };
  kernel("softmax_fill_float", ",\n  .param .u32 p_kind, .param .u32 p_dist, .param .f32 p_k",
         kFloatBody, kFloatConvert);
  kernel("softmax_fill_integer", ",\n  .param .u32 p_bytes, .param .u64 p_max", kIntegerBody,
         kIntegerConvert);
  kernel("softmax_fill_mask", ",\n  .param .u64 p_threshold", kMaskBody, kMaskConvert);
  return ptx;
}

/// The multiplier of the centred integer (see kFloatConvert).
float floatMultiplier(FillDistribution distribution, float scale) {
  if (distribution == FillDistribution::Normal)
    // Four 16-bit uniforms sum to (S - 131072) / 65536 with variance 4/12: times sqrt(3).
    return static_cast<float>(static_cast<double>(scale) * std::sqrt(3.0) / 65536.0);
  return static_cast<float>(static_cast<double>(scale) / 8388608.0);
}

uint64_t maskThreshold(double density) {
  return static_cast<uint64_t>(std::clamp(density, 0.0, 1.0) * 16777216.0);
}

/// The module and its three kernels, loaded on first use.
struct FillModule {
  CUmodule module = nullptr;
  CUfunction floatFn = nullptr, integerFn = nullptr, maskFn = nullptr;
};

llvm::Expected<const FillModule *> loadModule() {
  static std::mutex mutex;
  static FillModule loaded;
  static std::string failure;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded.module)
    return &loaded;
  if (!failure.empty())
    return llvm::createStringError(failure);
  CudaDriver &driver = CudaDriver::get();
  if (!driver.isLoaded())
    return llvm::createStringError("the fill kernels need a loaded CUDA driver");
  static const std::string ptx = buildPtx();
  char errorLog[4096] = {0};
  int options[] = {cuda::kJitErrorLogBuffer, cuda::kJitErrorLogBufferSizeBytes};
  void *values[] = {errorLog, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof(errorLog)))};
  FillModule module;
  CUresult result =
      driver.api().cuModuleLoadDataEx(&module.module, ptx.c_str(), 2, options, values);
  if (result != cuda::kSuccess) {
    failure = formatCudaError(result, "loading the fill kernels") + ": " + errorLog;
    return llvm::createStringError(failure);
  }
  struct {
    CUfunction *function;
    const char *name;
  } entries[] = {{&module.floatFn, "softmax_fill_float"},
                 {&module.integerFn, "softmax_fill_integer"},
                 {&module.maskFn, "softmax_fill_mask"}};
  for (auto &entry : entries)
    if (llvm::Error err = CudaDriver::check(
            driver.api().cuModuleGetFunction(entry.function, module.module, entry.name),
            entry.name))
      return std::move(err);
  loaded = module;
  return &loaded;
}

/// A grid-stride launch of `function` over the layout; `params` after the common five.
llvm::Error launch(CUfunction function, const FillLayout &layout, uint64_t seed,
                   std::initializer_list<void *> extra, CUstream stream) {
  if (layout.count == 0)
    return llvm::Error::success();
  if (layout.width == 0 || layout.stride < layout.width)
    return llvm::createStringError("fill: bad layout (width 0 or stride below width)");
  CudaDriver &driver = CudaDriver::get();
  uint64_t pointer = layout.pointer, count = layout.count, width = layout.width,
           stride = layout.stride;
  std::vector<void *> params = {&pointer, &count, &width, &stride, &seed};
  params.insert(params.end(), extra.begin(), extra.end());
  uint64_t blocks = (count + kThreads - 1) / kThreads;
  uint64_t cap = static_cast<uint64_t>(std::max(1, driver.info().smCount)) * 16;
  unsigned grid = static_cast<unsigned>(std::min(blocks, cap));
  return CudaDriver::check(driver.api().cuLaunchKernel(function, grid, 1, 1, kThreads, 1, 1, 0,
                                                       stream, params.data(), nullptr),
                           "cuLaunchKernel (fill)");
}

} // namespace

const char *softmax::runtime::getFillPtx() {
  static const std::string ptx = buildPtx();
  return ptx.c_str();
}

llvm::Error softmax::runtime::fillFloatOnDevice(const FillLayout &layout, FillFloatType type,
                                                FillDistribution distribution, float scale,
                                                uint64_t seed, CUstream stream) {
  llvm::Expected<const FillModule *> module = loadModule();
  if (!module)
    return module.takeError();
  uint32_t kind = static_cast<uint32_t>(type), dist = static_cast<uint32_t>(distribution);
  float k = floatMultiplier(distribution, scale);
  return launch((*module)->floatFn, layout, seed, {&kind, &dist, &k}, stream);
}

llvm::Error softmax::runtime::fillIntegersOnDevice(const FillLayout &layout,
                                                   unsigned elementBytes, uint64_t maxValue,
                                                   uint64_t seed, CUstream stream) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
    return llvm::createStringError("fill: integers of " + std::to_string(elementBytes) +
                                   " bytes are not supported");
  llvm::Expected<const FillModule *> module = loadModule();
  if (!module)
    return module.takeError();
  uint32_t bytes = elementBytes;
  return launch((*module)->integerFn, layout, seed, {&bytes, &maxValue}, stream);
}

llvm::Error softmax::runtime::fillMaskOnDevice(const FillLayout &layout, double density,
                                               uint64_t seed, CUstream stream) {
  llvm::Expected<const FillModule *> module = loadModule();
  if (!module)
    return module.takeError();
  uint64_t threshold = maskThreshold(density);
  return launch((*module)->maskFn, layout, seed, {&threshold}, stream);
}

uint64_t softmax::runtime::fillHash(uint64_t seed, uint64_t index) {
  uint64_t x = seed + index * kGolden;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

float softmax::runtime::fillFloatValue(FillDistribution distribution, float scale, uint64_t seed,
                                       uint64_t index) {
  uint64_t h = fillHash(seed, index);
  int32_t centred;
  if (distribution == FillDistribution::Normal) {
    uint32_t lo = static_cast<uint32_t>(h), hi = static_cast<uint32_t>(h >> 32);
    uint32_t sum = (lo & 0xFFFF) + (lo >> 16) + (hi & 0xFFFF) + (hi >> 16);
    centred = static_cast<int32_t>(sum) - 131072;
  } else {
    centred = static_cast<int32_t>(h >> 40) - 8388608;
  }
  // One f32 rounding of an exact integer times the multiplier, as mul.rn.f32 does.
  volatile float product = static_cast<float>(centred) * floatMultiplier(distribution, scale);
  return product;
}

uint64_t softmax::runtime::fillIntegerValue(uint64_t maxValue, uint64_t seed, uint64_t index) {
  if (index % 16 == 0)
    return 0;
  if (index % 16 == 1)
    return maxValue;
  return fillHash(seed, index) % (maxValue + 1);
}

bool softmax::runtime::fillMaskValue(double density, uint64_t seed, uint64_t index) {
  return (fillHash(seed, index) >> 40) < maskThreshold(density);
}
