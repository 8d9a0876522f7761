func.func @fill(%x: tensor<64x1000xf32>, %n: tensor<64xi32>) -> tensor<64x1000xf32> {
  %m = softmax.mask %x, padding %n fill = -10000.0 : tensor<64x1000xf32>, tensor<64xi32>
  %p = softmax.softmax %m : tensor<64x1000xf32>
  return %p : tensor<64x1000xf32>
}
