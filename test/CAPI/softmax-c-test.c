/*===- softmax-c-test.c - The C API from plain C ----------------------------===*\
|*                                                                            *|
|* Compiles, inspects, plans and (where there is a GPU) runs a program through *|
|* libsoftmax-c.so, and prints what it sees for c-api.test to check. Exits 1   *|
|* at the first unexpected outcome.                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "softmax-c/Softmax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kProgram =
    "func.func @probs(%x: tensor<?x?xf32>, %inv_t: f32) -> tensor<?x?xf32> {\n"
    "  %s = softmax.scale %x by %inv_t : tensor<?x?xf32>, f32\n"
    "  %y = softmax.softmax %s : tensor<?x?xf32>\n"
    "  return %y : tensor<?x?xf32>\n"
    "}\n";

static void expectOk(softmax_error *error, const char *what) {
  if (!error)
    return;
  printf("FAILED: %s: %s\n", what, softmax_error_message(error));
  softmax_error_destroy(error);
  exit(1);
}

/* Prints the message of an expected error, or fails when there is none. */
static void expectError(softmax_error *error, const char *what) {
  if (!error) {
    printf("FAILED: %s succeeded\n", what);
    exit(1);
  }
  printf("%s: %s\n", what, softmax_error_message(error));
  softmax_error_destroy(error);
}

static softmax_argument tensor(const void *data, const int64_t *sizes) {
  softmax_argument a;
  memset(&a, 0, sizeof(a));
  a.kind = SOFTMAX_ARGUMENT_TENSOR;
  a.data = data;
  a.rank = 2;
  a.sizes = sizes;
  return a;
}

int main(void) {
  softmax_compile_options options;
  softmax_compile_options_init(&options);
  printf("defaults: chip=%s format=%s opt=%d\n", options.chip, options.format, options.opt_level);

  /* Compile; a second compile of the same text is the cached executable. */
  softmax_cache_clear();
  softmax_executable *exe = NULL, *again = NULL;
  expectOk(softmax_compile(kProgram, strlen(kProgram), &options, &exe), "compile");
  expectOk(softmax_compile(kProgram, strlen(kProgram), NULL, &again), "compile again");
  printf("cached: %d, cache size %zu\n", softmax_executable_same(exe, again),
         softmax_cache_size());
  softmax_executable_destroy(again);

  /* Inspect. Each kernel is compiled when first needed: none is yet. */
  size_t kernels = softmax_executable_num_kernels(exe);
  size_t compiledKernels = 0;
  for (size_t k = 0; k < kernels; ++k)
    compiledKernels += (size_t)softmax_executable_kernel_compiled(exe, k);
  printf("kernels compiled after compile: %zu\n", compiledKernels);
  const void *image = NULL;
  size_t imageSize = 0;
  expectOk(softmax_executable_kernel_image(exe, 1, &image, &imageSize), "kernel image");
  printf("kernel 1: %s, compiled %d, kernel 0 compiled %d\n",
         image && imageSize > 0 && strstr((const char *)image, ".entry") ? "PTX" : "missing",
         softmax_executable_kernel_compiled(exe, 1), softmax_executable_kernel_compiled(exe, 0));
  expectError(softmax_executable_kernel_image(exe, kernels, &image, &imageSize),
              "kernel out of range");
  size_t ptxSize = 0;
  const char *ptx = NULL;
  expectOk(softmax_executable_ptx(exe, &ptx, &ptxSize), "ptx");
  compiledKernels = 0;
  for (size_t k = 0; k < kernels; ++k)
    compiledKernels += (size_t)softmax_executable_kernel_compiled(exe, k);
  printf("ptx: %s, every kernel compiled: %d\n",
         ptx && ptxSize > 0 && strstr(ptx, "// gpu.binary @") ? "has modules" : "missing",
         compiledKernels == kernels);
  printf("functions: %zu, first @%s\n", softmax_executable_num_functions(exe),
         softmax_executable_function(exe, 0));
  int64_t block[3];
  const char *first = softmax_executable_kernel(exe, 0, block);
  printf("kernels: %s, first %s, block %lld\n", kernels > 2 ? "several" : "too few", first,
         (long long)block[0]);
  int64_t count = softmax_function_num_arguments(exe, "probs");
  printf("arguments: %lld\n", (long long)count);
  for (int64_t i = 0; i < count; ++i) {
    softmax_argument_info info;
    expectOk(softmax_function_argument(exe, "probs", (size_t)i, &info), "argument info");
    printf("  %lld: %s%s type %d rank %d dynamic %d\n", (long long)i,
           info.is_tensor ? "tensor" : "scalar", info.is_output ? " output" : "",
           (int)info.type, info.rank, info.rank > 0 && info.shape[1] == SOFTMAX_DYNAMIC);
  }

  /* Dispatch: which kernel serves a narrow and a very wide row. */
  int64_t narrow[2] = {64, 8}, wide[2] = {3, 1000003};
  softmax_argument args[3];
  args[0] = tensor(NULL, narrow);
  memset(&args[1], 0, sizeof(args[1]));
  args[1].kind = SOFTMAX_ARGUMENT_FLOAT;
  args[1].float_value = 0.5;
  args[2] = tensor(NULL, narrow);
  softmax_launch launch;
  size_t launches = 0;
  expectOk(softmax_plan(exe, "probs", args, 3, &launch, 1, &launches), "plan");
  printf("width 8: %zu launch of %s\n", launches,
         softmax_executable_kernel(exe, launch.kernel, NULL));
  args[0] = args[2] = tensor(NULL, wide);
  expectOk(softmax_plan(exe, "probs", args, 3, &launch, 1, &launches), "plan");
  printf("width 1000003: %zu launch of %s, grid %llu\n", launches,
         softmax_executable_kernel(exe, launch.kernel, NULL), (unsigned long long)launch.grid[0]);
  uint64_t workspace = 1;
  expectOk(softmax_workspace_size(exe, "probs", args, 3, &workspace), "workspace");
  printf("workspace: %llu\n", (unsigned long long)workspace);

  /* Errors come back as text. */
  softmax_executable *broken = NULL;
  const char *bad = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = bogus\n}\n";
  expectError(softmax_compile(bad, strlen(bad), NULL, &broken), "bad program");
  printf("no executable on error: %d\n", broken == NULL);
  options.chip = "sm_10";
  expectError(softmax_compile(kProgram, strlen(kProgram), &options, &broken), "bad chip");
  expectError(softmax_plan(exe, "nope", args, 3, NULL, 0, &launches), "bad function");
  expectError(softmax_plan(exe, "probs", args, 2, NULL, 0, &launches), "too few arguments");
  expectError(softmax_run(NULL, "probs", args, 3, NULL, NULL, 0), "null executable");

  /* Without a GPU, prepare, load and run return the driver's reason. (With one, the pointers
   * above are null: the C++ unit tests run real data there.) */
  softmax_error *error = softmax_prepare(exe, "probs", args, 3);
  if (error) {
    printf("prepare: %s\n", softmax_error_message(error));
    softmax_error_destroy(error);
    expectError(softmax_load(exe), "load");
    expectError(softmax_run(exe, "probs", args, 3, NULL, NULL, 0), "run");
  } else {
    printf("prepare: ok\nload and run: skipped (a GPU is present)\n");
  }
  expectError(softmax_prepare(exe, "probs", args, 2), "prepare with too few arguments");

  softmax_executable_destroy(exe);
  printf("done\n");
  return 0;
}
