// A hand-written prototype of a "staged" softmax row kernel for wide rows (H200, sm_90), written
// to decide whether the compiler should emit one: the row's 16-byte-aligned interior is brought
// into shared memory by one bulk asynchronous copy (cp.async.bulk, completion counted on an
// mbarrier), so the bytes in flight cost no registers; the few columns before the first and
// after the last 16-byte boundary are loaded by threads; the row is then reduced and normalised
// from shared memory and written with 16-byte stores. Timed against a device-to-device copy of
// the same bytes in the same process, and checked against a float64 reference on sampled rows.
//
//   nvcc -O3 -arch=sm_90a -std=c++17 -o staged staged.cu && ./staged
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                \
  do {                                                                                          \
    cudaError_t e = (x);                                                                        \
    if (e != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

__device__ __forceinline__ uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarInit(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddress(bar)), "r"(count));
}
__device__ __forceinline__ void mbarExpect(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smemAddress(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarWait(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W%=;\n}" ::"r"(smemAddress(bar)),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void bulkCopy(void *dst, const void *src, uint32_t bytes,
                                         uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
               "%2, [%3];" ::"r"(smemAddress(dst)),
               "l"(src), "r"(bytes), "r"(smemAddress(bar))
               : "memory");
}
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

template <typename T> struct Elem;
template <> struct Elem<float> {
  static constexpr int per16 = 4;
  __device__ static float toF(float x) { return x; }
  __device__ static float fromF(float x) { return x; }
  __device__ static float negInf() { return -INFINITY; }
  // The f32 values of a 16-byte word group.
  __device__ static void unpack(uint4 w, float *v) {
    v[0] = __uint_as_float(w.x); v[1] = __uint_as_float(w.y);
    v[2] = __uint_as_float(w.z); v[3] = __uint_as_float(w.w);
  }
  __device__ static uint4 pack(const float *v) {
    return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]), __float_as_uint(v[2]),
                      __float_as_uint(v[3]));
  }
  __device__ static float max16(uint4 w) {
    float v[4]; unpack(w, v);
    return fmaxf(fmaxf(v[0], v[1]), fmaxf(v[2], v[3]));
  }
};
template <> struct Elem<__nv_bfloat16> {
  static constexpr int per16 = 8;
  __device__ static float toF(__nv_bfloat16 x) { return __bfloat162float(x); }
  __device__ static __nv_bfloat16 fromF(float x) { return __float2bfloat16_rn(x); }
  __device__ static __nv_bfloat16 negInf() { return __ushort_as_bfloat16(0xff80); }
  __device__ static void unpack(uint4 w, float *v) {
    uint32_t u[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      v[2 * i] = __uint_as_float(u[i] << 16);
      v[2 * i + 1] = __uint_as_float(u[i] & 0xffff0000u);
    }
  }
  __device__ static uint4 pack(const float *v) {
    uint32_t u[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      __nv_bfloat162 p = __floats2bfloat162_rn(v[2 * i], v[2 * i + 1]);
      std::memcpy(&u[i], &p, 4);
    }
    return make_uint4(u[0], u[1], u[2], u[3]);
  }
  __device__ static float max16(uint4 w) {
    __nv_bfloat162 a, b, c, d;
    std::memcpy(&a, &w.x, 4); std::memcpy(&b, &w.y, 4);
    std::memcpy(&c, &w.z, 4); std::memcpy(&d, &w.w, 4);
    __nv_bfloat162 m = __hmax2_nan(__hmax2_nan(a, b), __hmax2_nan(c, d));
    return fmaxf(__low2float(m), __high2float(m));
  }
};

template <int THREADS> __device__ float blockReduce(float v, bool isMax, float *slots) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    float other = __shfl_xor_sync(0xffffffffu, v, o);
    v = isMax ? fmaxf(v, other) : v + other;
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  constexpr int warps = THREADS / 32;
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  float r = lane < warps ? slots[lane] : (isMax ? -INFINITY : 0.0f);
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    float other = __shfl_xor_sync(0xffffffffu, r, o);
    r = isMax ? fmaxf(r, other) : r + other;
  }
  __syncthreads(); // the slots are reused by the next reduction
  return r;
}

struct RowWindow {
  uintptr_t start, base, a0, a1; // the row's first byte, floor16, ceil16 of the start, floor16 end
  uint32_t words;                // 16-byte words in shared memory: ceil((mis + bytes) / 16)
};
template <typename T> __device__ RowWindow window(const T *row, int n) {
  RowWindow w;
  w.start = reinterpret_cast<uintptr_t>(row);
  uintptr_t end = w.start + size_t(n) * sizeof(T);
  w.base = w.start & ~uintptr_t(15);
  w.a0 = (w.start + 15) & ~uintptr_t(15);
  w.a1 = end & ~uintptr_t(15);
  w.words = uint32_t((end - w.base + 15) / 16);
  return w;
}

// Issues the staging of one row into `buf`: the aligned interior by one bulk copy (thread 0),
// and returns, for threads 32..63, the one edge column each holds (loaded now; stored into the
// buffer by stageEdges once the loads are back).
template <typename T> struct Edge {
  T value;
  int slot = -1; // the element slot of the buffer to write, -1: none
};
template <typename T>
__device__ Edge<T> issueRow(const T *row, int n, unsigned char *buf, uint64_t *bar) {
  RowWindow w = window(row, n);
  if (threadIdx.x == 0) {
    uint32_t bytes = w.a1 > w.a0 ? uint32_t(w.a1 - w.a0) : 0;
    mbarExpect(bar, bytes);
    if (bytes)
      bulkCopy(buf + (w.a0 - w.base), reinterpret_cast<const void *>(w.a0), bytes, bar);
  }
  Edge<T> e;
  constexpr int per16 = Elem<T>::per16;
  int t = int(threadIdx.x) - 32;
  if (t >= 0 && t < 2 * per16) {
    // Slot t of the first word, or slot t - per16 of the last one.
    uint32_t word = t < per16 ? 0 : w.words - 1;
    int slotInWord = t % per16;
    if (!(t >= per16 && w.words == 1)) {
      uintptr_t g = w.base + uintptr_t(word) * 16 + uintptr_t(slotInWord) * sizeof(T);
      uintptr_t end = w.start + size_t(n) * sizeof(T);
      bool inRow = g >= w.start && g < end;
      bool inCopy = g >= w.a0 && g < w.a1;
      if (!inCopy) {
        e.slot = int(word) * per16 + slotInWord;
        e.value = inRow ? *reinterpret_cast<const T *>(g) : Elem<T>::negInf();
      }
    }
  }
  return e;
}

template <typename T, int THREADS>
__device__ void computeRow(const T *row, T *out, int n, unsigned char *buf, float *slots) {
  RowWindow w = window(row, n);
  const uint4 *words = reinterpret_cast<const uint4 *>(buf);
  constexpr int per16 = Elem<T>::per16;
  // Pass 1: the max.
  float m = -INFINITY;
  for (uint32_t k = threadIdx.x; k < w.words; k += THREADS)
    m = fmaxf(m, Elem<T>::max16(words[k]));
  m = blockReduce<THREADS>(m, true, slots);
  const float l2e = 1.4426950408889634f;
  float ms = (m == -INFINITY ? 0.0f : m) * l2e;
  // Pass 2: the sum of exp(x - max).
  float s0 = 0.0f, s1 = 0.0f;
  for (uint32_t k = threadIdx.x; k < w.words; k += THREADS) {
    float v[per16];
    Elem<T>::unpack(words[k], v);
#pragma unroll
    for (int i = 0; i < per16; i += 2) {
      s0 += exp2f(fmaf(v[i], l2e, -ms));
      s1 += exp2f(fmaf(v[i + 1], l2e, -ms));
    }
  }
  float s = blockReduce<THREADS>(s0 + s1, false, slots);
  float inv = 1.0f / s;
  // Pass 3: normalise and store; whole words of the row with 16-byte stores (the output row is
  // misaligned as the input row is), the edge words column by column.
  uintptr_t outStart = reinterpret_cast<uintptr_t>(out);
  uintptr_t outBase = outStart & ~uintptr_t(15);
  for (uint32_t k = threadIdx.x; k < w.words; k += THREADS) {
    float v[per16];
    Elem<T>::unpack(words[k], v);
#pragma unroll
    for (int i = 0; i < per16; ++i) v[i] = exp2f(fmaf(v[i], l2e, -ms)) * inv;
    uintptr_t g = w.base + uintptr_t(k) * 16;
    if (g >= w.a0 && g < w.a1) {
      *reinterpret_cast<uint4 *>(outBase + uintptr_t(k) * 16) = Elem<T>::pack(v);
    } else {
      uintptr_t end = w.start + size_t(n) * sizeof(T);
#pragma unroll
      for (int i = 0; i < per16; ++i) {
        uintptr_t gi = g + uintptr_t(i) * sizeof(T);
        if (gi >= w.start && gi < end)
          *reinterpret_cast<T *>(outBase + uintptr_t(k) * 16 + uintptr_t(i) * sizeof(T)) =
              Elem<T>::fromF(v[i]);
      }
    }
  }
}

// One block a row at a time, one buffer: the multiprocessor overlaps rows across its blocks.
template <typename T, int THREADS>
__global__ void __launch_bounds__(THREADS) stagedSingle(const T *x, T *y, int rows, int n,
                                                        long long stride) {
  extern __shared__ __align__(128) unsigned char buf[];
  __shared__ __align__(8) uint64_t bar;
  __shared__ float slots[32];
  if (threadIdx.x == 0) {
    mbarInit(&bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t phase = 0;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *row = x + size_t(r) * stride;
    Edge<T> e = issueRow(row, n, buf, &bar);
    if (e.slot >= 0) reinterpret_cast<T *>(buf)[e.slot] = e.value;
    mbarWait(&bar, phase);
    phase ^= 1;
    __syncthreads();
    computeRow<T, THREADS>(row, y + size_t(r) * stride, n, buf, slots);
    __syncthreads();
    if (threadIdx.x == 0) fenceProxyAsync();
  }
}

// Persistent blocks, two buffers: the next row's copy is in flight while this one is computed.
template <typename T, int THREADS>
__global__ void __launch_bounds__(THREADS) stagedDouble(const T *x, T *y, int rows, int n,
                                                        long long stride, uint32_t bufBytes) {
  extern __shared__ __align__(128) unsigned char buf[];
  __shared__ __align__(8) uint64_t bar[2];
  __shared__ float slots[32];
  if (threadIdx.x == 0) {
    mbarInit(&bar[0], 1);
    mbarInit(&bar[1], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t phases = 0;
  int r = blockIdx.x;
  Edge<T> e;
  if (r < rows) e = issueRow(x + size_t(r) * stride, n, buf, &bar[0]);
  for (int i = 0; r < rows; ++i, r += gridDim.x) {
    int cur = i & 1;
    unsigned char *curBuf = buf + size_t(cur) * bufBytes;
    if (e.slot >= 0) reinterpret_cast<T *>(curBuf)[e.slot] = e.value;
    int next = r + gridDim.x;
    Edge<T> ne;
    if (next < rows)
      ne = issueRow(x + size_t(next) * stride, n, buf + size_t(cur ^ 1) * bufBytes,
                    &bar[cur ^ 1]);
    mbarWait(&bar[cur], (phases >> cur) & 1);
    phases ^= 1u << cur;
    __syncthreads();
    computeRow<T, THREADS>(x + size_t(r) * stride, y + size_t(r) * stride, n, curBuf, slots);
    __syncthreads();
    if (threadIdx.x == 0) fenceProxyAsync();
    e = ne;
  }
}

// Seeded hash fill: values in [-8, 8) (never zeros), a NaN-free input.
template <typename T> __global__ void fill(T *x, size_t count, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed ^ uint32_t(i >> 32) * 40503u;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    float v = (float(h >> 8) / float(1 << 24)) * 16.0f - 8.0f;
    x[i] = T(v);
  }
}

static float toHost(float v) { return v; }
static float toHost(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
double check(const T *dx, const T *dy, int rows, int n, long long stride) {
  // Rows 0, 1, a middle one and the last: a float64 softmax of the stored inputs.
  std::vector<T> hx(n), hy(n);
  double worst = 0;
  int sample[4] = {0, 1, rows / 2, rows - 1};
  for (int r : sample) {
    CHECK(cudaMemcpy(hx.data(), dx + size_t(r) * stride, n * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hy.data(), dy + size_t(r) * stride, n * sizeof(T), cudaMemcpyDeviceToHost));
    double m = -INFINITY, s = 0;
    for (int j = 0; j < n; ++j) m = std::max(m, double(toHost(hx[j])));
    for (int j = 0; j < n; ++j) s += std::exp(double(toHost(hx[j])) - m);
    for (int j = 0; j < n; ++j) {
      double ref = std::exp(double(toHost(hx[j])) - m) / s;
      double got = toHost(hy[j]);
      double err = std::fabs(got - ref) / std::max(ref, 1e-30);
      worst = std::max(worst, err);
    }
  }
  return worst;
}

template <typename K> float timeIt(K &&launch, cudaEvent_t a, cudaEvent_t b) {
  for (int i = 0; i < 5; ++i) launch();
  std::vector<float> ts;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

template <typename T, int THREADS>
void runCase(const char *type, int n, cudaEvent_t a, cudaEvent_t b, int sms) {
  size_t rows = ((size_t(1) << 28) + size_t(n) * sizeof(T) - 1) / (size_t(n) * sizeof(T));
  size_t count = rows * n;
  T *x, *y;
  CHECK(cudaMalloc(&x, count * sizeof(T)));
  CHECK(cudaMalloc(&y, count * sizeof(T)));
  fill<<<1024, 256>>>(x, count, 1234u + n);
  CHECK(cudaMemset(y, 0, count * sizeof(T)));
  CHECK(cudaDeviceSynchronize());
  float copy = timeIt([&] { CHECK(cudaMemcpyAsync(y, x, count * sizeof(T), cudaMemcpyDeviceToDevice)); }, a, b);
  uint32_t bufBytes = uint32_t((size_t(n) * sizeof(T) + 15 + 15) / 16 * 16);
  // Single buffer, one block a row.
  size_t smem1 = bufBytes;
  if (smem1 <= 232448) {
    auto k = stagedSingle<T, THREADS>;
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem1)));
    int perSM = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, k, THREADS, smem1));
    for (int gridMode = 0; gridMode < 2; ++gridMode) {
      int grid = gridMode == 0 ? int(rows) : std::min<int>(int(rows), perSM * sms);
      CHECK(cudaMemset(y, 0, count * sizeof(T)));
      float t = timeIt([&] { k<<<grid, THREADS, smem1>>>(x, y, int(rows), n, n); }, a, b);
      CHECK(cudaGetLastError());
      double err = check(x, y, int(rows), n, n);
      std::printf("%-5s %7d single %-10s thr %4d  blk/SM %d  %8.1f us  copy %8.1f us  frac %.3f  "
                  "relerr %.2e\n",
                  type, n, gridMode == 0 ? "grid=rows" : "persistent", THREADS, perSM, t * 1e3,
                  copy * 1e3, copy / t, err);
    }
  }
  size_t smem2 = 2 * size_t(bufBytes);
  if (smem2 <= 232448) {
    auto k = stagedDouble<T, THREADS>;
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem2)));
    int perSM = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, k, THREADS, smem2));
    int grid = std::min<int>(int(rows), perSM * sms);
    CHECK(cudaMemset(y, 0, count * sizeof(T)));
    float t = timeIt([&] { k<<<grid, THREADS, smem2>>>(x, y, int(rows), n, n, bufBytes); }, a, b);
    CHECK(cudaGetLastError());
    double err = check(x, y, int(rows), n, n);
    std::printf("%-5s %7d double persistent thr %4d  blk/SM %d  %8.1f us  copy %8.1f us  frac %.3f  "
                "relerr %.2e\n",
                type, n, THREADS, perSM, t * 1e3, copy * 1e3, copy / t, err);
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
}

int main() {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  int sms;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int n : {16384, 32768, 50257, 65536, 100000}) {
    runCase<__nv_bfloat16, 512>("bf16", n, a, b, sms);
    runCase<__nv_bfloat16, 1024>("bf16", n, a, b, sms);
  }
  for (int n : {8192, 16384, 32768, 50257}) {
    runCase<float, 512>("f32", n, a, b, sms);
    runCase<float, 1024>("f32", n, a, b, sms);
  }
  return 0;
}
