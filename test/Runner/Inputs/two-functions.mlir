func.func @first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = softmax.softmax %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @second(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = softmax.log_softmax %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
