func.func @"a b.c$d"(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.softmax %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @softmax_kernels(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.softmax %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @_mlir_ciface_softmax_kernels(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.softmax %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
