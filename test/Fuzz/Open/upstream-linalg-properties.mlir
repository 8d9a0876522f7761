// Open finding, upstream (not a test: test/Fuzz/lit.local.cfg excludes Open/): found by the CI
// fuzz run of 2026-12-01 (a mutation of the StableHLO raising example that put `<f32>` after
// linalg.generic's attribute dictionary). MLIR 22's structured linalg ops parse optional
// `<...>` properties before `ins(`, accept any attribute there and later read it as a
// DictionaryAttr (NamedAttrList(DictionaryAttr) from GenericOp::parse), reading through the
// storage of a TypeAttr or IntegerAttr: a SEGV, or a SmallVector grown to 2^63 under ASan.
// Every tool that parses linalg (softmax-opt, the library with `raise`) inherits it.
// Reproduce: /usr/lib/llvm-22/bin/mlir-opt THIS (exit 139).
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = linalg.add <[1]> ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
