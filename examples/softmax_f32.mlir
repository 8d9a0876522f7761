// A plain softmax over the last axis of a 4096 x 4096 f32 tensor.
func.func @softmax_f32(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %y = softmax.softmax %x : tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
