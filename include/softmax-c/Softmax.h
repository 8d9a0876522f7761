/*===- softmax-c/Softmax.h - The C API of the softmax compiler ----*- C -*-===*\
|*                                                                            *|
|* A C face over the C++ API (softmax/API/Compile.h, docs/api.md): compile a   *|
|* softmax program in memory, inspect it, and launch it on device pointers on  *|
|* the caller's CUstream, asynchronously. Built as one self-contained shared   *|
|* library, libsoftmax-c.so, for any language with a C FFI (docs/api.md).      *|
|*                                                                            *|
|* Errors: every function that can fail returns a softmax_error * (NULL on     *|
|* success) holding the diagnostic text; the library never prints and never    *|
|* aborts on a bad program or call. Free an error with softmax_error_destroy.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SOFTMAX_C_SOFTMAX_H
#define SOFTMAX_C_SOFTMAX_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SOFTMAX_C_EXPORT __declspec(dllexport)
#else
#define SOFTMAX_C_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*--- Errors ----------------------------------------------------------------*/

typedef struct softmax_error softmax_error;

/** The diagnostic text (UTF-8, NUL-terminated), valid until the error is destroyed. */
SOFTMAX_C_EXPORT const char *softmax_error_message(const softmax_error *error);
/** Frees `error` (NULL is fine). */
SOFTMAX_C_EXPORT void softmax_error_destroy(softmax_error *error);

/*--- Compiling ---------------------------------------------------------------*/

typedef struct softmax_compile_options {
  const char *chip;             /**< "sm_90" */
  const char *features;         /**< "+ptx80" */
  int opt_level;                /**< 3 */
  const char *format;           /**< "isa" (PTX), "bin" (cubin, needs ptxas) or "fatbin" */
  int64_t registers_per_thread; /**< 0: the chip's */
  int64_t threads_per_block;    /**< 0: the chip's */
  int raise;                    /**< nonzero: run softmax-raise first (linalg input) */
  const char *cache_dir;        /**< the on-disk compile cache: NULL or "" for the default
                                     ($SOFTMAX_CACHE_DIR, else $XDG_CACHE_HOME/softmax-compiler,
                                     else ~/.cache/softmax-compiler), "off" for none */
} softmax_compile_options;

/** Fills `options` with the defaults above. */
SOFTMAX_C_EXPORT void softmax_compile_options_init(softmax_compile_options *options);

typedef struct softmax_executable softmax_executable;

/** Compiles MLIR text (`length` bytes; need not be NUL-terminated) up to its kernels, each of
 *  which is compiled to PTX or cubin when a call first launches it. `options` may be NULL for
 *  the defaults. Compiled executables are cached on (text, options), in memory (compiling the
 *  same program again yields the same executable) and on disk (a later process reads the
 *  program and the kernels compiled so far instead of compiling; see cache_dir). On success
 *  `*executable` is a new handle to release with softmax_executable_destroy. */
SOFTMAX_C_EXPORT softmax_error *softmax_compile(const char *source, size_t length,
                                                const softmax_compile_options *options,
                                                softmax_executable **executable);
/** Releases the handle (the executable lives on while the cache or other handles hold it). */
SOFTMAX_C_EXPORT void softmax_executable_destroy(softmax_executable *executable);
/** 1 when both handles are the same compiled executable (e.g. a cache hit). */
SOFTMAX_C_EXPORT int softmax_executable_same(const softmax_executable *a,
                                             const softmax_executable *b);

SOFTMAX_C_EXPORT size_t softmax_cache_size(void);
SOFTMAX_C_EXPORT void softmax_cache_clear(void);

/*--- Inspecting ----------------------------------------------------------------*/

/** Every kernel's PTX (format "isa"; "" otherwise), NUL-terminated, each after a line
 *  `// gpu.binary @<kernel>`: compiles the kernels not compiled yet (an executable compiles each
 *  kernel when a call first launches it). `*ptx` stays valid while the executable lives;
 *  `size` may be NULL. */
SOFTMAX_C_EXPORT softmax_error *softmax_executable_ptx(const softmax_executable *executable,
                                                       const char **ptx, size_t *size);
/** What the driver loads for kernel `index`: its PTX, cubin or fatbin, compiled now if it was
 *  not yet. `*image` stays valid while the executable lives. */
SOFTMAX_C_EXPORT softmax_error *softmax_executable_kernel_image(
    const softmax_executable *executable, size_t index, const void **image, size_t *size);
/** 1 when kernel `index` is compiled (or was read from the disk cache), else 0. */
SOFTMAX_C_EXPORT int softmax_executable_kernel_compiled(const softmax_executable *executable,
                                                        size_t index);

SOFTMAX_C_EXPORT size_t softmax_executable_num_kernels(const softmax_executable *executable);
/** Kernel `index`'s symbol name, or NULL when out of range. `block` (may be NULL) receives its
 *  block size (0s when the kernel does not fix it). */
SOFTMAX_C_EXPORT const char *softmax_executable_kernel(const softmax_executable *executable,
                                                       size_t index, int64_t block[3]);

SOFTMAX_C_EXPORT size_t softmax_executable_num_functions(const softmax_executable *executable);
/** Function `index`'s name, or NULL when out of range. */
SOFTMAX_C_EXPORT const char *softmax_executable_function(const softmax_executable *executable,
                                                         size_t index);

typedef enum softmax_scalar_type {
  SOFTMAX_I1, SOFTMAX_I8, SOFTMAX_I16, SOFTMAX_I32, SOFTMAX_I64, SOFTMAX_INDEX,
  SOFTMAX_F16, SOFTMAX_BF16, SOFTMAX_F32, SOFTMAX_F64
} softmax_scalar_type;

/** A dynamic size in softmax_argument_info.shape. */
#define SOFTMAX_DYNAMIC INT64_MIN
#define SOFTMAX_MAX_RANK 8

typedef struct softmax_argument_info {
  int is_tensor;
  int is_output; /**< an output buffer (the function's results come after its arguments) */
  softmax_scalar_type type; /**< a tensor's element type, or the scalar's type */
  int rank;
  int64_t shape[SOFTMAX_MAX_RANK]; /**< SOFTMAX_DYNAMIC where dynamic */
} softmax_argument_info;

/** The number of arguments of `function` (-1 when there is no such function). */
SOFTMAX_C_EXPORT int64_t softmax_function_num_arguments(const softmax_executable *executable,
                                                        const char *function);
SOFTMAX_C_EXPORT softmax_error *softmax_function_argument(const softmax_executable *executable,
                                                          const char *function, size_t index,
                                                          softmax_argument_info *info);

/*--- Calling ---------------------------------------------------------------------*/

typedef enum softmax_argument_kind {
  SOFTMAX_ARGUMENT_TENSOR, SOFTMAX_ARGUMENT_FLOAT, SOFTMAX_ARGUMENT_INT
} softmax_argument_kind;

/** One argument of a call, in the function's argument order. */
typedef struct softmax_argument {
  softmax_argument_kind kind;
  const void *data;       /**< tensors: device pointer (may be NULL for plan/workspace) */
  int rank;               /**< tensors */
  const int64_t *sizes;   /**< tensors: `rank` sizes in elements */
  const int64_t *strides; /**< tensors: `rank` strides in elements, or NULL (contiguous) */
  double float_value;     /**< SOFTMAX_ARGUMENT_FLOAT */
  int64_t int_value;      /**< SOFTMAX_ARGUMENT_INT */
} softmax_argument;

/** One launch of a call: the kernel that serves these sizes and its configuration. */
typedef struct softmax_launch {
  size_t kernel; /**< index for softmax_executable_kernel */
  uint64_t grid[3], block[3], cluster[3];
  uint32_t shared_bytes;
} softmax_launch;

/** The launches a call with `arguments` makes (no GPU needed): up to `capacity` of them are
 *  written to `launches` (may be NULL with capacity 0), their number to `*count`. */
SOFTMAX_C_EXPORT softmax_error *softmax_plan(const softmax_executable *executable,
                                             const char *function,
                                             const softmax_argument *arguments,
                                             size_t num_arguments, softmax_launch *launches,
                                             size_t capacity, size_t *count);
/** Device bytes of workspace a call with `arguments` needs (usually 0). */
SOFTMAX_C_EXPORT softmax_error *softmax_workspace_size(const softmax_executable *executable,
                                                       const char *function,
                                                       const softmax_argument *arguments,
                                                       size_t num_arguments, uint64_t *bytes);
/** Compiles and loads (CUDA driver, device 0's primary context) the kernels a call with
 *  `arguments` launches; softmax_run does it on a kernel's first launch. Call it before a CUDA
 *  graph capture, or to keep the compile out of a timed call. */
SOFTMAX_C_EXPORT softmax_error *softmax_prepare(const softmax_executable *executable,
                                                const char *function,
                                                const softmax_argument *arguments,
                                                size_t num_arguments);
/** Compiles and loads every kernel (a dynamic program has dozens: softmax_prepare is cheaper). */
SOFTMAX_C_EXPORT softmax_error *softmax_load(const softmax_executable *executable);
/** Launches one call on `stream` (a CUstream / cudaStream_t; NULL: the legacy default stream)
 *  and returns without waiting. `workspace`: device memory of softmax_workspace_size bytes. */
SOFTMAX_C_EXPORT softmax_error *softmax_run(const softmax_executable *executable,
                                            const char *function,
                                            const softmax_argument *arguments,
                                            size_t num_arguments, void *stream, void *workspace,
                                            uint64_t workspace_bytes);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMAX_C_SOFTMAX_H */
