// A log_softmax of f32 logits halved and rounded to f16 (seed 1498's chain in miniature): about
// one logit in 1,000 lies within 2^-21 of the midpoint of two f16 values, where the kernels' f32
// arithmetic and the float64 reference may round to different neighbours.
func.func @near_ties(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  %y = softmax.fused log_softmax %x axis = 1 prologue [#softmax.scale<5.000000e-01>, #softmax.round<f16>] : tensor<4x8192xf32> -> tensor<4x8192xf32>
  return %y : tensor<4x8192xf32>
}
