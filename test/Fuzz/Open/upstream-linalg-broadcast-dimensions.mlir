// Open finding, upstream (not a test: test/Fuzz/lit.local.cfg excludes Open/): found by the CI
// fuzz run of 2026-11-30 (a mutation of the StableHLO raising example). MLIR 22's own mlir-opt
// segfaults on it too: linalg.broadcast's parser reads `dimensions = #[1]` (not a dense i64
// array), gets a null attribute and stores it (NamedAttrList::set -> Attribute::getContext on
// null). Every tool that parses linalg (softmax-opt, the library with `raise`) inherits it.
// Reproduce: /usr/lib/llvm-22/bin/mlir-opt THIS (exit 139).
func.func @f(%m: tensor<4xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = linalg.broadcast ins(%m : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = #[1]
  return %b : tensor<4x8xf32>
}
