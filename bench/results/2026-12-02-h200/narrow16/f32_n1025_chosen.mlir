func.func @f(%x: tensor<65472x1025xf32>) -> tensor<65472x1025xf32> {
  %y = softmax.softmax %x : tensor<65472x1025xf32>
  return %y : tensor<65472x1025xf32>
}
