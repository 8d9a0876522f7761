// Softmax over non-last axes (the strided_axis kernels): static and dynamic, f32 and bf16.
func.func @axis0_f32(%x: tensor<33x1024xf32>) -> tensor<33x1024xf32> {
  %y = softmax.softmax %x axis = 0 : tensor<33x1024xf32>
  return %y : tensor<33x1024xf32>
}
func.func @axis1_bf16(%x: tensor<4x1000x4097xbf16>) -> tensor<4x1000x4097xbf16> {
  %y = softmax.softmax %x axis = 1 : tensor<4x1000x4097xbf16>
  return %y : tensor<4x1000x4097xbf16>
}
func.func @axis1_dyn_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %s = softmax.scale %x by 0.5 : tensor<?x?x?xf32>
  %y = softmax.softmax %s axis = 1 : tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
func.func @heads_dyn_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %y = softmax.log_softmax %x axis = -2 : tensor<?x?x?xbf16>
  return %y : tensor<?x?x?xbf16>
}
func.func @axis0_dyn_bf16(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = softmax.softmax %x axis = 0 : tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
