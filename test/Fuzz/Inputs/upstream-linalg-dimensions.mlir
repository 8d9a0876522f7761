// The known upstream crash (test/Fuzz/Open/upstream-linalg-broadcast-dimensions.mlir): the fuzz target skips it.
// Fuzzed form, from CI: 'dimensions =' followed by an operand, not an array.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @stablehlo(%x: tensor<32x1000xf32>) -> tensor<32x1000xf32> {
  %cst = arith.constant dense<0xFF800000> : tensor<f32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
  %ninf = tensor.extract %cst[] : tensor<f32>
  %er = tensor.empty() : tensor<32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x1000xf32>) outs(%minit : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x1000xf32>
  %bmax = linalg.broadcast ins(%max : tensor<32xf32>) outs(%e : tensor<32x1000xf32>) dimensions = [1]
  %sub = linalg.sub ins(%x, %bmax : tensor<32x1000xf32>, tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  %exp = linalg.exp ins(%sub : tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  %zero = tensor.extract %cst_0[] : tensor<f32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<32x1000xf32>) outs(%sinit : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<32xf32>
  %bsum = linalg.broadcast ins(%sum : tensor<32xf32>) outs(%e : tensor<32x1000xf32>) dimensions = %y
  %y = linalg.div ins(%exp, %bsum : tensor<32x1000xf32>, tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  return %y : tensor<32x1000xf32>
}
