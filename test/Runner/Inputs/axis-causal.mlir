// Verifies, but the strided_axis kernels of a non-last axis take no masks (softmax-lower-to-gpu
// rejects it with a diagnostic rather than miscompiling).
func.func @axis_causal(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %y = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = 0, fill = -1.0e4>] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}
