// Open finding, upstream (not a test: test/Fuzz/lit.local.cfg excludes Open/): found by the CI
// fuzz run of 2026-12-06 (a mutation of the StableHLO raising example whose `dimensions = [`
// was followed by stray bytes). MLIR 22's own mlir-opt segfaults on it too, the class of
// upstream-linalg-broadcast-dimensions.mlir: an array that does not parse leaves a null
// attribute, which linalg.broadcast's parser stores. An unterminated `[` is enough.
// Reproduce: /usr/lib/llvm-22/bin/mlir-opt THIS (exit 139).
func.func @f(%m: tensor<4xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = linalg.broadcast ins(%m : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [
  return %b : tensor<4x8xf32>
}
