/*===- softmax-capi-check.c - The C API on a GPU, checked and timed -------===*\
|*                                                                            *|
|* softmax-capi-check [--plans] [--seed=N] [--reps=N] [--filter=TEXT]        *|
|*                    [--driver=PATH] [--time-goal=US] [--no-graph]           *|
|*                                                                            *|
|* A plain C program that uses only the C API (softmax-c/Softmax.h, linked    *|
|* against libsoftmax-c.so) and the CUDA driver API opened with dlopen. It     *|
|* compiles one module with static and dynamic softmax functions that cover   *|
|* every plan (multi_row, row_registers, row_shared, chunked_online) in f32,   *|
|* bf16 and f16, plus fused chains (scale + causal mask, 3-D), and for every   *|
|* case:                                                                      *|
|*  - allocates caller-owned device buffers (cuMemAlloc), fills the input     *|
|*    from a seeded host generator and poisons the output;                    *|
|*  - captures the call in a CUDA graph (global capture mode: the kernels'    *|
|*    first launch, so their compile and load happen inside the capture),     *|
|*    launches the graph and checks the result against a float64 reference    *|
|*    computed here ("graph/NAME");                                           *|
|*  - runs the call through softmax_run on a non-blocking stream on a         *|
|*    poisoned output and checks again ("run/NAME");                          *|
|* then times the host cost of softmax_run (median of --reps calls, the       *|
|* stream synchronised only at the end; goal: --time-goal, 10 us).            *|
|*                                                                            *|
|* Prints `PASS|FAIL NAME max_abs E max_rel E (kernel)` per check, a `TIME`    *|
|* line per timing and a `summary:` line last. Exit status: 0 all passed,     *|
|* 1 a failure, 2 bad arguments or a compile error, 3 skipped (no CUDA driver *|
|* or device). --plans compiles and prints each case's kernels without a GPU. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "softmax-c/Softmax.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*--- The CUDA driver, through dlopen -----------------------------------------*/

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUstream;
typedef void *CUgraph;
typedef void *CUgraphExec;
typedef unsigned long long CUdeviceptr;

enum { kCudaSuccess = 0, kStreamNonBlocking = 1, kCaptureModeGlobal = 0 };

static struct {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
} cu;

static const char *cudaErrorName(CUresult result) {
  const char *name = NULL;
  if (!cu.cuGetErrorName || cu.cuGetErrorName(result, &name) != kCudaSuccess || !name)
    return "unknown CUDA error";
  return name;
}

/* Opens the driver and makes device 0's primary context (the one the C API uses) current.
 * Returns 0, or writes why not to `why`. */
static int openDriver(const char *path, char *why, size_t whySize, char *deviceName,
                      size_t nameSize) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(why, whySize, "no CUDA driver (dlopen %s: %s)", path, dlerror());
    return 1;
  }
  struct {
    void **slot;
    const char *name;
  } symbols[] = {
      {(void **)&cu.cuInit, "cuInit"},
      {(void **)&cu.cuDriverGetVersion, "cuDriverGetVersion"},
      {(void **)&cu.cuGetErrorName, "cuGetErrorName"},
      {(void **)&cu.cuDeviceGetCount, "cuDeviceGetCount"},
      {(void **)&cu.cuDeviceGet, "cuDeviceGet"},
      {(void **)&cu.cuDeviceGetName, "cuDeviceGetName"},
      {(void **)&cu.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
      {(void **)&cu.cuCtxSetCurrent, "cuCtxSetCurrent"},
      {(void **)&cu.cuMemAlloc, "cuMemAlloc_v2"},
      {(void **)&cu.cuMemFree, "cuMemFree_v2"},
      {(void **)&cu.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
      {(void **)&cu.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
      {(void **)&cu.cuMemsetD8Async, "cuMemsetD8Async"},
      {(void **)&cu.cuStreamCreate, "cuStreamCreate"},
      {(void **)&cu.cuStreamSynchronize, "cuStreamSynchronize"},
      {(void **)&cu.cuStreamDestroy, "cuStreamDestroy_v2"},
      {(void **)&cu.cuStreamBeginCapture, "cuStreamBeginCapture_v2"},
      {(void **)&cu.cuStreamEndCapture, "cuStreamEndCapture"},
      {(void **)&cu.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"},
      {(void **)&cu.cuGraphLaunch, "cuGraphLaunch"},
      {(void **)&cu.cuGraphExecDestroy, "cuGraphExecDestroy"},
      {(void **)&cu.cuGraphDestroy, "cuGraphDestroy"},
  };
  for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); ++i) {
    *symbols[i].slot = dlsym(library, symbols[i].name);
    if (!*symbols[i].slot) {
      snprintf(why, whySize, "CUDA driver too old: %s lacks %s", path, symbols[i].name);
      return 1;
    }
  }
  CUresult result = cu.cuInit(0);
  if (result != kCudaSuccess) {
    snprintf(why, whySize, "no CUDA device (cuInit: %s)", cudaErrorName(result));
    return 1;
  }
  int count = 0;
  result = cu.cuDeviceGetCount(&count);
  if (result != kCudaSuccess || count == 0) {
    snprintf(why, whySize, "no CUDA device (the driver reports %d devices%s%s)", count,
             result ? ", " : "", result ? cudaErrorName(result) : "");
    return 1;
  }
  CUdevice device;
  CUcontext context;
  int version = 0;
  char name[200] = {0};
  if ((result = cu.cuDeviceGet(&device, 0)) != kCudaSuccess ||
      (result = cu.cuDeviceGetName(name, (int)sizeof(name) - 1, device)) != kCudaSuccess ||
      (result = cu.cuDevicePrimaryCtxRetain(&context, device)) != kCudaSuccess ||
      (result = cu.cuCtxSetCurrent(context)) != kCudaSuccess ||
      (result = cu.cuDriverGetVersion(&version)) != kCudaSuccess) {
    snprintf(why, whySize, "cannot use CUDA device 0: %s", cudaErrorName(result));
    return 1;
  }
  snprintf(deviceName, nameSize, "%s, driver %d.%d", name, version / 1000, version % 1000 / 10);
  return 0;
}

/* Exits 1 with the call's name on a driver error (after the driver has been opened, an error
 * is a failure, not a skip). */
#define CU_CHECK(call)                                                                             \
  do {                                                                                             \
    CUresult result_ = (call);                                                                     \
    if (result_ != kCudaSuccess) {                                                                 \
      printf("FAIL cuda: %s: %s (line %d)\n", #call, cudaErrorName(result_), __LINE__);            \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/*--- Element types ---------------------------------------------------------------*/

typedef enum { F32, BF16, F16 } ElementType;

static const char *typeName(ElementType type) {
  return type == F32 ? "f32" : type == BF16 ? "bf16" : "f16";
}
static size_t typeBytes(ElementType type) { return type == F32 ? 4 : 2; }

static uint32_t floatBits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  return bits;
}
static float bitsFloat(uint32_t bits) {
  float value;
  memcpy(&value, &bits, 4);
  return value;
}

/* Round to nearest even. */
static uint16_t floatToBF16(float value) {
  uint32_t bits = floatBits(value);
  if (isnan(value))
    return (uint16_t)((bits >> 16) | 0x40);
  return (uint16_t)((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}
static float bf16ToFloat(uint16_t bits) { return bitsFloat((uint32_t)bits << 16); }

static uint16_t floatToF16(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) /* NaN */
    return sign | 0x7e00;
  if (magnitude >= 0x477ff000) /* rounds to >= 65520: infinity */
    return sign | 0x7c00;
  if (magnitude < 0x38800000) { /* below 2^-14: subnormal or zero, in units of 2^-24 */
    float scaled = bitsFloat(magnitude) * 16777216.0f; /* exact */
    return sign | (uint16_t)nearbyintf(scaled);        /* the default rounding: to even */
  }
  uint32_t exponent = (magnitude >> 23) - 112;
  uint32_t mantissa = magnitude & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | (uint16_t)half;
}
static float f16ToFloat(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0) {
    float value = (float)mantissa / 16777216.0f; /* 2^-24 units */
    return sign ? -value : value;
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

static double loadElement(ElementType type, const void *data, size_t index) {
  if (type == F32)
    return ((const float *)data)[index];
  uint16_t bits = ((const uint16_t *)data)[index];
  return type == BF16 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

/* Stores `value` rounded to the type; returns the stored value. */
static double storeElement(ElementType type, void *data, size_t index, double value) {
  if (type == F32) {
    ((float *)data)[index] = (float)value;
    return (float)value;
  }
  uint16_t bits = type == BF16 ? floatToBF16((float)value) : floatToF16((float)value);
  ((uint16_t *)data)[index] = bits;
  return type == BF16 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

/* The reference rounded to the output type (what a correctly rounded kernel would store). */
static double roundTo(ElementType type, double value) {
  uint32_t scratch;
  return storeElement(type, &scratch, 0, value);
}

/* One unit in the last place of the 16-bit type at |value| (subnormals included). */
static double ulpOf(ElementType type, double value) {
  int exponent;
  frexp(fabs(value), &exponent); /* |value| in [2^(exponent-1), 2^exponent) */
  int minExponent = type == BF16 ? -126 : -14, mantissaBits = type == BF16 ? 7 : 10;
  int e = exponent - 1 < minExponent ? minExponent : exponent - 1;
  return ldexp(1.0, e - mantissaBits);
}

/*--- Cases -----------------------------------------------------------------------*/

typedef enum { PLAIN, LOG, ATTENTION } CaseKind;

typedef struct {
  char name[96];
  char function[48];
  ElementType type;
  CaseKind kind;
  int rank;
  int64_t shape[3];
  int64_t rowStride; /* elements between rows; 0: the width (contiguous) */
  const char *plan;  /* a substring of the kernel name the call must launch, or NULL */
  int scalar;        /* ATTENTION: the scale is the argument `scale`, else a constant */
  double scale;      /* ATTENTION */
  int64_t offset;    /* ATTENTION: causal offset */
  /* Filled in: */
  int selected;
  char kernels[256];
} Case;

#define MAX_CASES 96
static Case cases[MAX_CASES];
static int numCases;

/* The module, built up function by function. */
static char *moduleText;
static size_t moduleLength, moduleCapacity;

static void emit(const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int needed = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (moduleLength + (size_t)needed + 1 > moduleCapacity) {
    moduleCapacity = 2 * (moduleLength + (size_t)needed + 1);
    moduleText = realloc(moduleText, moduleCapacity);
  }
  vsnprintf(moduleText + moduleLength, moduleCapacity - moduleLength, format, args);
  moduleLength += (size_t)needed;
  va_end(args);
}

/* Widths in each plan's range (multi_row up to 512 columns in f32 and 256 in 16-bit types, then
 * row_registers up to 16384, then row_cluster up to 262144 on sm_90 (a thread-block cluster
 * launch: cuLaunchKernelEx; above 8 blocks a non-portable size the API opts each kernel into;
 * a plain 16-bit softmax is staged in shared memory on one block up to 115704 columns, and
 * beyond a portable cluster of 8 (131072) over a cluster of up to 16 blocks up to 923512
 * (row_staged)), chunked_online above, or, for fewer rows than multiprocessors, each row split
 * over blocks (row_split: whose fallback, the chunked_online kernel, the null pointers here
 * take: `row_split_fallback`):
 * docs/strategies.md) and row counts that are not
 * multiples of the rows a block takes. */
static const struct {
  int64_t rows, width;
  const char *plan, *plan16; /* the plan for f32, and for bf16 and f16 */
  const char *dynamicPlan;    /* a dynamic row count's plan for the null pointers of the label
                                 (the host splits real, disjoint ones): f32, 16-bit */
  const char *dynamicPlan16;
} kShapes[] = {
    {333, 32, "multi_row", "multi_row"},      {257, 100, "multi_row", "multi_row"},
    {64, 1000, "row_registers", "row_registers"},
    {37, 4096, "row_registers", "row_registers"},
    {33, 40000, "row_cluster", "row_staged"}, {17, 70000, "row_cluster", "row_staged"},
    {17, 130000, "row_cluster", "row_cluster"},
    {17, 300000, "row_split", "row_staged", "chunked_online", 0},
};
enum { kNumShapes = sizeof(kShapes) / sizeof(kShapes[0]) };

static Case *addCase(const char *function, ElementType type, CaseKind kind, int rank,
                     const int64_t *shape, const char *plan) {
  if (numCases == MAX_CASES) {
    fprintf(stderr, "softmax-capi-check: too many cases\n");
    exit(2);
  }
  Case *c = &cases[numCases++];
  memset(c, 0, sizeof(*c));
  snprintf(c->function, sizeof(c->function), "%s", function);
  c->type = type;
  c->kind = kind;
  c->rank = rank;
  memcpy(c->shape, shape, (size_t)rank * sizeof(int64_t));
  c->plan = plan;
  char dims[64] = "";
  for (int d = 0; d < rank; ++d)
    snprintf(dims + strlen(dims), sizeof(dims) - strlen(dims), "%s%lld", d ? "x" : "",
             (long long)shape[d]);
  size_t length = strlen(function), dimsLength = strlen(dims);
  if (length > dimsLength && !strcmp(function + length - dimsLength, dims))
    snprintf(c->name, sizeof(c->name), "%s", function); /* a static function's name has them */
  else
    snprintf(c->name, sizeof(c->name), "%s_%s", function, dims);
  return c;
}

static void buildCases(void) {
  const ElementType types[] = {F32, BF16};
  /* Static shapes: one function per shape. */
  for (int t = 0; t < 2; ++t) {
    const char *ty = typeName(types[t]);
    for (int s = 0; s < kNumShapes; ++s) {
      char function[48];
      snprintf(function, sizeof(function), "static_%s_%lldx%lld", ty, (long long)kShapes[s].rows,
               (long long)kShapes[s].width);
      char tensor[64];
      snprintf(tensor, sizeof(tensor), "tensor<%lldx%lldx%s>", (long long)kShapes[s].rows,
               (long long)kShapes[s].width, ty);
      emit("func.func @%s(%%x: %s) -> %s {\n"
           "  %%y = softmax.softmax %%x : %s\n"
           "  return %%y : %s\n}\n",
           function, tensor, tensor, tensor, tensor);
      int64_t shape[2] = {kShapes[s].rows, kShapes[s].width};
      addCase(function, types[t], PLAIN, 2, shape,
              types[t] == F32 ? kShapes[s].plan : kShapes[s].plan16);
    }
  }
  /* Dynamic shapes: one function per element type, called at every shape, a very wide row
   * and a row stride larger than the width. */
  const ElementType dynTypes[] = {F32, BF16, F16};
  for (int t = 0; t < 3; ++t) {
    const char *ty = typeName(dynTypes[t]);
    char function[48];
    snprintf(function, sizeof(function), "dynamic_%s", ty);
    emit("func.func @%s(%%x: tensor<?x?x%s>) -> tensor<?x?x%s> {\n"
         "  %%y = softmax.softmax %%x : tensor<?x?x%s>\n"
         "  return %%y : tensor<?x?x%s>\n}\n",
         function, ty, ty, ty, ty);
    for (int s = 0; s < kNumShapes; ++s) {
      int64_t shape[2] = {kShapes[s].rows, kShapes[s].width};
      const char *plan = dynTypes[t] == F32 ? kShapes[s].plan : kShapes[s].plan16;
      const char *dynamicPlan =
          dynTypes[t] == F32 ? kShapes[s].dynamicPlan : kShapes[s].dynamicPlan16;
      addCase(function, dynTypes[t], PLAIN, 2, shape, dynamicPlan ? dynamicPlan : plan);
    }
    int64_t wide[2] = {3, 1000003};
    addCase(function, dynTypes[t], PLAIN, 2, wide, "chunked_online");
    /* Rows off the 16-byte boundary: a tier's alternative on narrower vectors (1100: vectors
     * of 4, the f32 tier's own plan or, for 16 bits, the tier of 96 lanes below the 2048-column
     * one; 513: the f32 alternative on vectors of 1, the 16-bit general kernel of the last
     * alternative; 2501, 16 bits: the general kernel of the tier of 160 lanes). */
    int64_t offVector[2] = {37, 1100}, odd[2] = {37, 513}, oddFiner[2] = {37, 2501};
    addCase(function, dynTypes[t], PLAIN, 2, offVector,
            dynTypes[t] == F32 ? "row_registers_10" : "row_registers_9");
    addCase(function, dynTypes[t], PLAIN, 2, odd,
            dynTypes[t] == F32 ? "row_registers_9" : "row_registers_8_general");
    if (dynTypes[t] != F32)
      addCase(function, dynTypes[t], PLAIN, 2, oddFiner, "row_registers_12_general");
    int64_t strided[2] = {64, 3000};
    Case *c = addCase(function, dynTypes[t], PLAIN, 2, strided, "row_registers");
    c->rowStride = 3040;
    strcat(c->name, "_stride3040");
  }
  /* Log-softmax, dynamic f32. */
  emit("func.func @log_dynamic_f32(%%x: tensor<?x?xf32>) -> tensor<?x?xf32> {\n"
       "  %%y = softmax.log_softmax %%x : tensor<?x?xf32>\n"
       "  return %%y : tensor<?x?xf32>\n}\n");
  {
    int64_t a[2] = {257, 100}, b[2] = {37, 4096}, c[2] = {5, 70000}, d[2] = {3, 200000},
            e[2] = {3, 300000};
    addCase("log_dynamic_f32", F32, LOG, 2, a, "multi_row");
    addCase("log_dynamic_f32", F32, LOG, 2, b, "row_registers");
    addCase("log_dynamic_f32", F32, LOG, 2, c, "row_cluster");
    addCase("log_dynamic_f32", F32, LOG, 2, d, "row_cluster"); /* 16 blocks */
    addCase("log_dynamic_f32", F32, LOG, 2, e, "chunked_online");
  }
  /* Fused chains, 3-D: attention scores in bf16 (cast, scale by 1/8, causal mask, softmax,
   * cast back), static; and dynamic f32 with the scale as an argument and a causal offset. */
  emit("func.func @attention_bf16(%%s: tensor<8x256x256xbf16>) -> tensor<8x256x256xbf16> {\n"
       "  %%x = softmax.cast %%s : tensor<8x256x256xbf16> to tensor<8x256x256xf32>\n"
       "  %%t = softmax.scale %%x by 0.125 : tensor<8x256x256xf32>\n"
       "  %%m = softmax.mask %%t, causal : tensor<8x256x256xf32>\n"
       "  %%p = softmax.softmax %%m : tensor<8x256x256xf32>\n"
       "  %%y = softmax.cast %%p : tensor<8x256x256xf32> to tensor<8x256x256xbf16>\n"
       "  return %%y : tensor<8x256x256xbf16>\n}\n");
  {
    int64_t shape[3] = {8, 256, 256};
    Case *c = addCase("attention_bf16", BF16, ATTENTION, 3, shape, NULL);
    c->scale = 0.125;
  }
  emit("func.func @attention_dynamic_f32(%%s: tensor<?x?x?xf32>, %%inv_t: f32) "
       "-> tensor<?x?x?xf32> {\n"
       "  %%t = softmax.scale %%s by %%inv_t : tensor<?x?x?xf32>, f32\n"
       "  %%m = softmax.mask %%t, causal offset = 1 : tensor<?x?x?xf32>\n"
       "  %%y = softmax.softmax %%m : tensor<?x?x?xf32>\n"
       "  return %%y : tensor<?x?x?xf32>\n}\n");
  {
    int64_t a[3] = {4, 100, 100}, b[3] = {2, 64, 5000}, c[3] = {2, 8, 70000};
    const char *plans[3] = {"multi_row", "row_registers", "row_cluster"};
    int64_t *shapes[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
      Case *k = addCase("attention_dynamic_f32", F32, ATTENTION, 3, shapes[i], plans[i]);
      k->scalar = 1;
      k->scale = 1.25;
      k->offset = 1;
    }
  }
}

static int64_t rowsOf(const Case *c) {
  int64_t rows = 1;
  for (int d = 0; d + 1 < c->rank; ++d)
    rows *= c->shape[d];
  return rows;
}
static int64_t widthOf(const Case *c) { return c->shape[c->rank - 1]; }
static int64_t strideOf(const Case *c) { return c->rowStride ? c->rowStride : widthOf(c); }
/* Elements a buffer holds (the last row needs only the width). */
static int64_t spanOf(const Case *c) {
  int64_t rows = rowsOf(c);
  return rows == 0 ? 0 : (rows - 1) * strideOf(c) + widthOf(c);
}

/* The call's arguments: input, [scale], output. */
static size_t makeArguments(const Case *c, CUdeviceptr input, CUdeviceptr output,
                            int64_t strides[3], softmax_argument args[3]) {
  memset(args, 0, 3 * sizeof(softmax_argument));
  const int64_t *stridesOrNull = NULL;
  if (c->rowStride) {
    strides[c->rank - 1] = 1;
    for (int d = c->rank - 2; d >= 0; --d)
      strides[d] = (d == c->rank - 2 ? c->rowStride : strides[d + 1] * c->shape[d + 1]);
    stridesOrNull = strides;
  }
  size_t n = 0;
  args[n].kind = SOFTMAX_ARGUMENT_TENSOR;
  args[n].data = (const void *)(uintptr_t)input;
  args[n].rank = c->rank;
  args[n].sizes = c->shape;
  args[n].strides = stridesOrNull;
  ++n;
  if (c->kind == ATTENTION && c->scalar) {
    args[n].kind = SOFTMAX_ARGUMENT_FLOAT;
    args[n].float_value = c->scale;
    ++n;
  }
  args[n] = args[0];
  args[n].data = (const void *)(uintptr_t)output;
  return n + 1;
}

/*--- Input and reference ------------------------------------------------------------*/

static uint64_t rngState;
static uint64_t nextRandom(void) { /* splitmix64 */
  uint64_t z = (rngState += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double uniform01(void) { return ((nextRandom() >> 11) + 0.5) * 0x1p-53; }
/* Standard normal (Box-Muller), as softmax-run's default inputs. */
static double normal(void) {
  return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

/* The input (rounded to the type, padding left as 0) and its values as doubles, row-major
 * without padding. */
static void makeInput(const Case *c, void *host, double *values) {
  int64_t rows = rowsOf(c), width = widthOf(c), stride = strideOf(c);
  memset(host, 0, (size_t)spanOf(c) * typeBytes(c->type));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < width; ++j)
      values[r * width + j] = storeElement(c->type, host, (size_t)(r * stride + j), normal());
}

/* Float64 softmax of each row in place; the chain's scale and causal mask first. */
static void reference(const Case *c, double *x) {
  int64_t rows = rowsOf(c), width = widthOf(c);
  int64_t queries = c->rank >= 2 ? c->shape[c->rank - 2] : 1;
  /* The kernels multiply in f32 by the f32 value of the scale. */
  double scale = (double)(float)c->scale;
  for (int64_t r = 0; r < rows; ++r) {
    double *row = x + r * width;
    if (c->kind == ATTENTION) {
      int64_t query = r % queries;
      for (int64_t j = 0; j < width; ++j)
        row[j] = j > query + c->offset ? -INFINITY : row[j] * scale;
    }
    double max = -INFINITY;
    for (int64_t j = 0; j < width; ++j)
      if (row[j] > max)
        max = row[j];
    if (max == -INFINITY) { /* fully masked: masked_rows = zero */
      for (int64_t j = 0; j < width; ++j)
        row[j] = c->kind == LOG ? -INFINITY : 0.0;
      continue;
    }
    double sum = 0;
    for (int64_t j = 0; j < width; ++j)
      sum += exp(row[j] - max);
    double logSum = log(sum);
    for (int64_t j = 0; j < width; ++j)
      row[j] = c->kind == LOG ? (row[j] - max) - logSum : exp(row[j] - max) / sum;
  }
}

typedef struct {
  double maxAbs, maxRel;
  int64_t mismatches, paddingTouched;
  char first[200];
} Comparison;

/* softmax-run's tolerances (lib/softmax/Runner/Compare.cpp): for f32 |out - ref| <= atolFloor +
 * atolRow * rowScale + 2e-6 |ref|; for bf16 and f16 the reference is rounded to the type first
 * and may differ by 2 ulps of the type (plus the same absolute terms). `output` holds the
 * poison pattern (all bytes 0xff) in the padding between rows, which must survive. */
static Comparison compare(const Case *c, const void *output, const double *ref) {
  Comparison result;
  memset(&result, 0, sizeof(result));
  int64_t rows = rowsOf(c), width = widthOf(c), stride = strideOf(c);
  size_t bytes = typeBytes(c->type);
  double atolFloor = c->type == F32 ? 1.5e-45 : c->type == BF16 ? 9.2e-41 : 5.97e-8;
  double atolRow = c->kind == LOG ? 4e-6 : 1e-6;
  for (int64_t r = 0; r < rows; ++r) {
    const double *want = ref + r * width;
    double rowMax = 0;
    for (int64_t j = 0; j < width; ++j)
      if (isfinite(want[j]) && fabs(want[j]) > rowMax)
        rowMax = fabs(want[j]);
    double rowScale = c->kind == LOG ? (rowMax > 1 ? rowMax : 1) : rowMax;
    double atol = atolFloor + atolRow * rowScale;
    for (int64_t j = 0; j < width; ++j) {
      double got = loadElement(c->type, output, (size_t)(r * stride + j));
      double expected = c->type == F32 ? want[j] : roundTo(c->type, want[j]);
      int ok;
      double diff = 0;
      if (isnan(got) || isnan(expected) || isinf(got) || isinf(expected)) {
        ok = got == expected; /* NaN (the poison: unwritten) never matches */
      } else {
        diff = fabs(got - expected);
        double tol = atol + (c->type == F32 ? 2e-6 * fabs(expected) : 2 * ulpOf(c->type, expected));
        ok = diff <= tol;
        if (diff > result.maxAbs)
          result.maxAbs = diff;
        if (expected != 0 && fabs(expected) >= 1e-3 * rowScale &&
            diff / fabs(expected) > result.maxRel)
          result.maxRel = diff / fabs(expected);
      }
      if (!ok && result.mismatches++ == 0)
        snprintf(result.first, sizeof(result.first), "row %lld column %lld: got %.9g want %.9g",
                 (long long)r, (long long)j, got, expected);
    }
    if (r + 1 < rows)
      for (int64_t j = width; j < stride; ++j) {
        const unsigned char *p = (const unsigned char *)output + (size_t)(r * stride + j) * bytes;
        for (size_t b = 0; b < bytes; ++b)
          if (p[b] != 0xff) {
            if (result.paddingTouched++ == 0 && result.mismatches == 0)
              snprintf(result.first, sizeof(result.first),
                       "row %lld column %lld: padding after the row overwritten", (long long)r,
                       (long long)j);
            break;
          }
      }
  }
  return result;
}

/*--- Running ---------------------------------------------------------------------------*/

static int passed, failed;

static void report(const char *what, const Case *c, const Comparison *cmp, const char *error) {
  int ok = !error && cmp->mismatches == 0 && cmp->paddingTouched == 0;
  ok ? ++passed : ++failed;
  char name[128];
  snprintf(name, sizeof(name), "%s/%s", what, c->name);
  printf("%s %-44s max_abs %.2e max_rel %.2e  (%s)\n", ok ? "PASS" : "FAIL", name,
         cmp ? cmp->maxAbs : 0.0, cmp ? cmp->maxRel : 0.0, c->kernels);
  if (error)
    printf("     %s\n", error);
  else if (!ok)
    printf("     %lld mismatches, %lld padding elements touched; first: %s\n",
           (long long)cmp->mismatches, (long long)cmp->paddingTouched, cmp->first);
  fflush(stdout);
}

/* Takes the message of `error` into `buffer` and frees it; returns buffer or NULL. */
static const char *takeError(softmax_error *error, char *buffer, size_t size) {
  if (!error)
    return NULL;
  snprintf(buffer, size, "%s", softmax_error_message(error));
  softmax_error_destroy(error);
  return buffer;
}

/*--- Checking the checker without a GPU (--host-check) ---------------------------------*/

/* What a kernel stores, computed on the host in f32 (the kernels' arithmetic: scale, max, sum
 * of exp(x - max), one division, one rounding to the storage type); the sum is accumulated in
 * double and rounded once, as the kernels' tree reductions nearly are. */
static void hostSoftmaxF32(const Case *c, const void *input, void *output) {
  int64_t rows = rowsOf(c), width = widthOf(c), stride = strideOf(c);
  int64_t queries = c->shape[c->rank - 2 >= 0 ? c->rank - 2 : 0];
  float scale = (float)c->scale, *row = malloc((size_t)width * sizeof(float));
  for (int64_t r = 0; r < rows; ++r) {
    float max = -INFINITY;
    for (int64_t j = 0; j < width; ++j) {
      float x = (float)loadElement(c->type, input, (size_t)(r * stride + j));
      if (c->kind == ATTENTION)
        x = j > r % queries + c->offset ? -INFINITY : x * scale;
      row[j] = x;
      max = x > max ? x : max;
    }
    double sum = 0;
    for (int64_t j = 0; j < width; ++j)
      sum += expf(row[j] - max);
    float total = (float)sum, logTotal = logf(total);
    for (int64_t j = 0; j < width; ++j) {
      float y = max == -INFINITY ? (c->kind == LOG ? -INFINITY : 0.0f)
                : c->kind == LOG ? (row[j] - max) - logTotal
                                 : expf(row[j] - max) / total;
      storeElement(c->type, output, (size_t)(r * stride + j), y);
    }
  }
  free(row);
}

/* For every case: the f32 host softmax passes the comparison, and the comparison catches an
 * element off by 4 ulps of the type (or 1e-5 relative in f32), an unwritten (poisoned) element,
 * (1e-3 for log-probabilities), and a write into the padding between rows. */
static void hostCheck(Case *c) {
  size_t bytes = (size_t)spanOf(c) * typeBytes(c->type);
  size_t elements = (size_t)(rowsOf(c) * widthOf(c));
  unsigned char *input = malloc(bytes), *output = malloc(bytes);
  double *ref = malloc(elements * sizeof(double));
  makeInput(c, input, ref);
  reference(c, ref);
  memset(output, 0xff, bytes);
  hostSoftmaxF32(c, input, output);
  Comparison clean = compare(c, output, ref);
  snprintf(c->kernels, sizeof(c->kernels), "f32 host softmax");
  report("host", c, &clean, NULL);

  /* The largest element of the middle row (the last one's middle element for tiny rows). */
  int64_t width = widthOf(c), row = rowsOf(c) / 2, best = 0;
  for (int64_t j = 1; j < width; ++j)
    if (ref[row * width + j] > ref[row * width + best])
      best = j;
  size_t at = (size_t)(row * strideOf(c) + best), size = typeBytes(c->type);
  double good = loadElement(c->type, output, at);
  const char *missed = NULL;
  storeElement(c->type, output, at,
               c->type != F32   ? good + 4 * ulpOf(c->type, good)
               : c->kind == LOG ? good - 1e-3 /* log-probabilities: an absolute tolerance */
                                : good * (1 + 1e-5));
  if (compare(c, output, ref).mismatches == 0)
    missed = "a wrong element";
  memset(output + at * size, 0xff, size);
  if (!missed && compare(c, output, ref).mismatches == 0)
    missed = "an unwritten element";
  storeElement(c->type, output, at, good);
  if (!missed && c->rowStride) {
    storeElement(c->type, output, (size_t)(row * strideOf(c) + width), 0.5);
    if (compare(c, output, ref).paddingTouched == 0)
      missed = "a write into the padding";
  }
  if (missed) {
    ++failed;
    printf("FAIL detect/%-42s the comparison missed %s\n", c->name, missed);
  } else {
    ++passed;
    printf("PASS detect/%-42s wrong, unwritten%s elements caught\n", c->name,
           c->rowStride ? " and padding" : "");
  }
  free(input);
  free(output);
  free(ref);
}

/* Runs one case through a graph and directly on `stream`, checking both. */
static void runCase(const softmax_executable *exe, Case *c, CUstream stream, int graphs) {
  size_t bytes = (size_t)spanOf(c) * typeBytes(c->type);
  size_t elements = (size_t)(rowsOf(c) * widthOf(c));
  void *hostInput = malloc(bytes), *hostOutput = malloc(bytes);
  double *ref = malloc(elements * sizeof(double));
  if (!hostInput || !hostOutput || !ref) {
    printf("FAIL %s: out of host memory\n", c->name);
    exit(1);
  }
  makeInput(c, hostInput, ref);
  reference(c, ref);

  CUdeviceptr input = 0, output = 0, workspace = 0;
  CU_CHECK(cu.cuMemAlloc(&input, bytes));
  CU_CHECK(cu.cuMemAlloc(&output, bytes));
  CU_CHECK(cu.cuMemcpyHtoDAsync(input, hostInput, bytes, stream));
  int64_t strides[3];
  softmax_argument args[3];
  size_t numArgs = makeArguments(c, input, output, strides, args);
  char message[2048];
  uint64_t workspaceBytes = 0;
  const char *error =
      takeError(softmax_workspace_size(exe, c->function, args, numArgs, &workspaceBytes), message,
                sizeof(message));
  if (!error && workspaceBytes)
    CU_CHECK(cu.cuMemAlloc(&workspace, workspaceBytes));

  /* Graph first: capture the call, launch the graph on a poisoned output, check. The capture
   * is the kernels' first launch, so their compile and module load happen inside it (in the
   * relaxed capture mode: the load is not a stream operation). */
  Comparison cmp;
  if (graphs) {
    const char *graphError = error;
    CUgraph graph = NULL;
    CUgraphExec exec = NULL;
    CU_CHECK(cu.cuMemsetD8Async(output, 0xff, bytes, stream));
    CU_CHECK(cu.cuStreamSynchronize(stream));
    if (!graphError) {
      CU_CHECK(cu.cuStreamBeginCapture(stream, kCaptureModeGlobal));
      graphError = takeError(softmax_run(exe, c->function, args, numArgs, stream,
                                         (void *)(uintptr_t)workspace, workspaceBytes),
                             message, sizeof(message));
      CUresult end = cu.cuStreamEndCapture(stream, &graph);
      if (!graphError && end != kCudaSuccess) {
        snprintf(message, sizeof(message), "cuStreamEndCapture: %s", cudaErrorName(end));
        graphError = message;
      }
    }
    if (!graphError) {
      CU_CHECK(cu.cuGraphInstantiateWithFlags(&exec, graph, 0));
      CU_CHECK(cu.cuGraphLaunch(exec, stream));
      CU_CHECK(cu.cuMemcpyDtoHAsync(hostOutput, output, bytes, stream));
      CU_CHECK(cu.cuStreamSynchronize(stream));
      cmp = compare(c, hostOutput, ref);
      CU_CHECK(cu.cuGraphExecDestroy(exec));
    }
    if (graph)
      CU_CHECK(cu.cuGraphDestroy(graph));
    report("graph", c, graphError ? NULL : &cmp, graphError);
  }

  /* Direct: poison, run, copy back, check. */
  if (!error) {
    CU_CHECK(cu.cuMemsetD8Async(output, 0xff, bytes, stream));
    error = takeError(softmax_run(exe, c->function, args, numArgs, stream,
                                  (void *)(uintptr_t)workspace, workspaceBytes),
                      message, sizeof(message));
  }
  if (!error) {
    CU_CHECK(cu.cuMemcpyDtoHAsync(hostOutput, output, bytes, stream));
    CU_CHECK(cu.cuStreamSynchronize(stream));
    cmp = compare(c, hostOutput, ref);
  }
  report("run", c, error ? NULL : &cmp, error);

  CU_CHECK(cu.cuStreamSynchronize(stream));
  if (workspace)
    CU_CHECK(cu.cuMemFree(workspace));
  CU_CHECK(cu.cuMemFree(input));
  CU_CHECK(cu.cuMemFree(output));
  free(hostInput);
  free(hostOutput);
  free(ref);
}

static double nowMicroseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double worstMedian;

/* Host time of softmax_run (what = "run"), softmax_plan ("plan") or cuGraphLaunch of a captured
 * call ("graph") per call: `reps` calls after 100 warm-up ones, the stream synchronised only
 * after the last. `goal` > 0: the median must be at most `goal` us (run only). */
static void timeCalls(const softmax_executable *exe, Case *c, CUstream stream, const char *what,
                      int reps, double goal) {
  size_t bytes = (size_t)spanOf(c) * typeBytes(c->type);
  CUdeviceptr input = 0, output = 0;
  CU_CHECK(cu.cuMemAlloc(&input, bytes));
  CU_CHECK(cu.cuMemAlloc(&output, bytes));
  CU_CHECK(cu.cuMemsetD8Async(input, 0, bytes, stream));
  int64_t strides[3];
  softmax_argument args[3];
  size_t numArgs = makeArguments(c, input, output, strides, args);
  double *samples = malloc((size_t)reps * sizeof(double));
  char message[2048];
  const char *error = NULL;
  CUgraph graph = NULL;
  CUgraphExec exec = NULL;
  if (!strcmp(what, "graph")) {
    CU_CHECK(cu.cuStreamBeginCapture(stream, kCaptureModeGlobal));
    error = takeError(softmax_run(exe, c->function, args, numArgs, stream, NULL, 0), message,
                      sizeof(message));
    CU_CHECK(cu.cuStreamEndCapture(stream, &graph));
    if (!error)
      CU_CHECK(cu.cuGraphInstantiateWithFlags(&exec, graph, 0));
  }
  softmax_launch launches[4];
  size_t count;
  for (int i = -100; i < reps && !error; ++i) {
    double start = nowMicroseconds();
    if (exec)
      CU_CHECK(cu.cuGraphLaunch(exec, stream));
    else if (!strcmp(what, "plan"))
      error = takeError(softmax_plan(exe, c->function, args, numArgs, launches, 4, &count), message,
                        sizeof(message));
    else
      error = takeError(softmax_run(exe, c->function, args, numArgs, stream, NULL, 0), message,
                        sizeof(message));
    double elapsed = nowMicroseconds() - start;
    if (i == -1)
      CU_CHECK(cu.cuStreamSynchronize(stream)); /* the warm-up calls' kernels out of the way */
    if (i >= 0)
      samples[i] = elapsed;
  }
  CU_CHECK(cu.cuStreamSynchronize(stream));
  char name[128];
  snprintf(name, sizeof(name), "%s/%s", what, c->name);
  if (error) {
    ++failed;
    printf("FAIL time.%-39s %s\n", name, error);
  } else {
    qsort(samples, (size_t)reps, sizeof(double), compareDoubles);
    double median = samples[reps / 2], mean = 0;
    for (int i = 0; i < reps; ++i)
      mean += samples[i];
    mean /= reps;
    int ok = goal <= 0 || median <= goal;
    if (goal > 0)
      ok ? ++passed : ++failed;
    if (!strcmp(what, "run") && median > worstMedian)
      worstMedian = median;
    char verdict[64] = "";
    if (goal > 0)
      snprintf(verdict, sizeof(verdict), "  goal <= %g us: %s", goal, ok ? "met" : "NOT MET");
    printf("%s time.%-38s host us/call: median %.2f p10 %.2f p90 %.2f mean %.2f (%d calls)%s\n",
           goal > 0 ? (ok ? "PASS" : "FAIL") : "TIME", name, median, samples[reps / 10],
           samples[reps * 9 / 10], mean, reps, verdict);
  }
  fflush(stdout);
  if (exec)
    CU_CHECK(cu.cuGraphExecDestroy(exec));
  if (graph)
    CU_CHECK(cu.cuGraphDestroy(graph));
  free(samples);
  CU_CHECK(cu.cuMemFree(input));
  CU_CHECK(cu.cuMemFree(output));
}

/*--- Main --------------------------------------------------------------------------------*/

static void usage(FILE *to) {
  fprintf(to,
          "usage: softmax-capi-check [--plans|--host-check] [--seed=N] [--reps=N] [--filter=TEXT]\n"
          "                          [--driver=PATH] [--time-goal=US] [--no-graph]\n"
          "  --plans         compile and print each case's kernels (no GPU needed), then exit\n"
          "  --host-check    check the reference and the comparison against an f32 host\n"
          "                  softmax, and that the comparison catches errors (no GPU), then exit\n"
          "  --seed=N        input generator seed (1)\n"
          "  --reps=N        calls timed per timing (1000; 0: no timing)\n"
          "  --filter=TEXT   only the cases whose name contains TEXT\n"
          "  --driver=PATH   the CUDA driver library (libcuda.so.1)\n"
          "  --time-goal=US  the most host time softmax_run may take per call (10; 0: not judged)\n"
          "  --no-graph      skip the CUDA-graph captures\n"
          "exit: 0 passed, 1 failed, 2 usage or compile error, 3 skipped (no CUDA driver/GPU)\n");
}

static int parseNumber(const char *text, double *value) {
  char *end;
  *value = strtod(text, &end);
  return *text && !*end;
}

int main(int argc, char **argv) {
  int plansOnly = 0, hostOnly = 0, graphs = 1, reps = 1000;
  double seed = 1, goal = 10, number;
  const char *filter = NULL, *driver = "libcuda.so.1";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--plans"))
      plansOnly = 1;
    else if (!strcmp(a, "--host-check"))
      hostOnly = 1;
    else if (!strcmp(a, "--no-graph"))
      graphs = 0;
    else if (!strncmp(a, "--seed=", 7) && parseNumber(a + 7, &seed))
      ;
    else if (!strncmp(a, "--reps=", 7) && parseNumber(a + 7, &number) && number >= 0)
      reps = (int)number;
    else if (!strncmp(a, "--time-goal=", 12) && parseNumber(a + 12, &goal))
      ;
    else if (!strncmp(a, "--filter=", 9))
      filter = a + 9;
    else if (!strncmp(a, "--driver=", 9) && a[9])
      driver = a + 9;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "softmax-capi-check: unknown or malformed argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }

  /* The driver first: without one there is nothing to check (unless only planning). */
  char deviceName[256] = "", why[512] = "";
  if (hostOnly) {
    buildCases();
    rngState = (uint64_t)seed;
    for (int i = 0; i < numCases; ++i)
      if (!filter || strstr(cases[i].name, filter))
        hostCheck(&cases[i]);
    printf("summary: host check: %d checks, %d passed, %d failed\n", passed + failed, passed,
           failed);
    return failed ? 1 : 0;
  }
  if (!plansOnly) {
    if (openDriver(driver, why, sizeof(why), deviceName, sizeof(deviceName))) {
      printf("softmax-capi-check: skipped: %s\n", why);
      return 3;
    }
    printf("device: %s\n", deviceName);
  }

  buildCases();
  int selected = 0;
  for (int i = 0; i < numCases; ++i) {
    cases[i].selected = !filter || strstr(cases[i].name, filter) != NULL;
    selected += cases[i].selected;
  }

  /* One module with every function; the C API caches it. */
  softmax_executable *exe = NULL;
  double start = nowMicroseconds();
  softmax_error *error = softmax_compile(moduleText, moduleLength, NULL, &exe);
  if (error) {
    printf("FAIL compile: %s\n", softmax_error_message(error));
    softmax_error_destroy(error);
    return 2;
  }
  printf("compiled %zu functions, %zu kernels in %.1f s; %d of %d cases selected\n",
         softmax_executable_num_functions(exe), softmax_executable_num_kernels(exe),
         (nowMicroseconds() - start) * 1e-6, selected, numCases);

  /* Every case's dispatch (no GPU needed): the kernels it launches, which must include the
   * plan it is meant to cover. */
  for (int i = 0; i < numCases; ++i) {
    Case *c = &cases[i];
    if (!c->selected)
      continue;
    int64_t strides[3];
    softmax_argument args[3];
    size_t numArgs = makeArguments(c, 0, 0, strides, args);
    softmax_launch launches[8];
    size_t count = 0;
    char message[2048];
    const char *planError =
        takeError(softmax_plan(exe, c->function, args, numArgs, launches, 8, &count), message,
                  sizeof(message));
    if (!planError && count > 8)
      planError = "more than 8 launches";
    for (size_t l = 0; !planError && l < count; ++l)
      snprintf(c->kernels + strlen(c->kernels), sizeof(c->kernels) - strlen(c->kernels), "%s%s",
               l ? " + " : "", softmax_executable_kernel(exe, launches[l].kernel, NULL));
    if (!planError && c->plan && !strstr(c->kernels, c->plan)) {
      snprintf(message, sizeof(message), "expected the %s plan, got %s", c->plan, c->kernels);
      planError = message;
    }
    if (plansOnly || planError) {
      printf("%s plan/%-43s %s\n", planError ? "FAIL" : "PASS", c->name, c->kernels);
      if (planError)
        printf("     %s\n", planError);
      planError ? ++failed : ++passed;
    }
    if (planError)
      c->selected = 0;
  }
  if (plansOnly) {
    printf("summary: %d plans checked, %d failed\n", passed + failed, failed);
    softmax_executable_destroy(exe);
    return failed ? 1 : 0;
  }

  /* No softmax_load: each kernel is compiled and loaded on its first launch, inside the first
   * case's graph capture (or its direct run with --no-graph). */
  CUstream stream;
  CU_CHECK(cu.cuStreamCreate(&stream, kStreamNonBlocking));
  rngState = (uint64_t)seed;
  for (int i = 0; i < numCases; ++i)
    if (cases[i].selected)
      runCase(exe, &cases[i], stream, graphs);

  /* Host cost per call on small shapes (a 64x1000 row_registers call and a multi_row one),
   * static and dynamic: softmax_run against the goal, softmax_plan and a graph launch for
   * comparison. */
  if (reps > 0) {
    const char *timed[] = {"dynamic_f32_64x1000", "static_f32_64x1000", "dynamic_bf16_257x100",
                           "attention_dynamic_f32_4x100x100"};
    for (size_t t = 0; t < sizeof(timed) / sizeof(timed[0]); ++t)
      for (int i = 0; i < numCases; ++i)
        if (cases[i].selected && !strcmp(cases[i].name, timed[t])) {
          timeCalls(exe, &cases[i], stream, "run", reps, goal);
          timeCalls(exe, &cases[i], stream, "plan", reps, 0);
          if (graphs)
            timeCalls(exe, &cases[i], stream, "graph", reps, 0);
        }
  }

  CU_CHECK(cu.cuStreamDestroy(stream));
  softmax_executable_destroy(exe);
  printf("summary: %s: %d checks, %d passed, %d failed", deviceName, passed + failed, passed,
         failed);
  if (worstMedian > 0)
    printf("; softmax_run host time median <= %.2f us/call (goal %s%g us)", worstMedian,
           goal > 0 ? "<= " : "not judged, ", goal);
  printf("\n");
  return failed ? 1 : 0;
}
