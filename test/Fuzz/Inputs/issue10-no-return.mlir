func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.softmax %x : tensor<4x8xf32>
  cf.br ^bb1
^bb1:
  return %0 : tensor<4x8xf32>
}
