// Upstream crash the fuzz target skips (softmax-fuzz.cpp, hitsKnownUpstreamCrash): MLIR 22's
// structured linalg ops read any attribute given as `<...>` properties as a dictionary.
// mlir-opt 22 dies on this file (exit 139); found by the CI fuzz run of 2026-12-01.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = linalg.exp <1> ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
