/* A C program over the installed C API (libsoftmax-c.so, include/softmax-c/Softmax.h): compiles
 * a .mlir file to in-memory kernels and prints their names and the PTX's size. No GPU needed. */
#include "softmax-c/Softmax.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: embedding-c FILE.mlir\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file) {
    perror(argv[1]);
    return 2;
  }
  static char source[1 << 20];
  size_t length = fread(source, 1, sizeof(source), file);
  fclose(file);

  softmax_compile_options options;
  softmax_compile_options_init(&options);
  softmax_executable *executable = NULL;
  softmax_error *error = softmax_compile(source, length, &options, &executable);
  if (error) {
    fprintf(stderr, "%s\n", softmax_error_message(error));
    softmax_error_destroy(error);
    return 1;
  }
  /* Every kernel's PTX: each kernel is compiled here (a call compiles only those it launches). */
  size_t ptxBytes = 0;
  const char *ptx = NULL;
  error = softmax_executable_ptx(executable, &ptx, &ptxBytes);
  if (error) {
    fprintf(stderr, "%s\n", softmax_error_message(error));
    softmax_error_destroy(error);
    softmax_executable_destroy(executable);
    return 1;
  }
  for (size_t i = 0; i < softmax_executable_num_kernels(executable); ++i) {
    int64_t block[3];
    const char *name = softmax_executable_kernel(executable, i, block);
    printf("kernel %s block %lld\n", name, (long long)block[0]);
  }
  printf("ptx %s\n", ptx && ptxBytes > 0 ? "yes" : "no");
  softmax_executable_destroy(executable);
  return 0;
}
