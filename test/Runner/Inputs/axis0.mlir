// Verifies, but softmax-lower-to-gpu supports the last axis only.
func.func @axis0(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = softmax.softmax %x axis = 0 : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
