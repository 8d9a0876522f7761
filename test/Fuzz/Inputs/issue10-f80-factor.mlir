func.func @f(%x: tensor<4x8xf32>, %s: f80) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by %s : tensor<4x8xf32>, f80
  %1 = softmax.softmax %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
