// Attention probabilities as torch-mlir's linalg-on-tensors backend writes them for
// `softmax(q @ k.T / 8, dim=-1)` under bf16 autocast, after the matmul: each element-wise torch
// op is one linalg.generic into a tensor.empty destination (a Python float stays an f64 constant
// narrowed in the body), and the softmax is a linalg.softmax. Run `softmax-opt --softmax-raise`
// first: it becomes softmax.cast, softmax.scale, softmax.softmax and softmax.cast
// (docs/raising.md).
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @forward(%scores: tensor<16x1024x1024xbf16>) -> tensor<16x1024x1024xbf16> {
  %cst = arith.constant 8.000000e+00 : f64
  %0 = tensor.empty() : tensor<16x1024x1024xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<16x1024x1024xbf16>) outs(%0 : tensor<16x1024x1024xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %6 = arith.extf %in : bf16 to f32
    linalg.yield %6 : f32
  } -> tensor<16x1024x1024xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%1 : tensor<16x1024x1024xf32>) outs(%0 : tensor<16x1024x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.truncf %cst : f64 to f32
    %7 = arith.divf %in, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<16x1024x1024xf32>
  %3 = linalg.softmax dimension(2) ins(%2 : tensor<16x1024x1024xf32>)
      outs(%0 : tensor<16x1024x1024xf32>) -> tensor<16x1024x1024xf32>
  %4 = tensor.empty() : tensor<16x1024x1024xbf16>
  %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%3 : tensor<16x1024x1024xf32>) outs(%4 : tensor<16x1024x1024xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %6 = arith.truncf %in : f32 to bf16
    linalg.yield %6 : bf16
  } -> tensor<16x1024x1024xbf16>
  return %5 : tensor<16x1024x1024xbf16>
}
