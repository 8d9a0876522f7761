func.func @f(%x: tensor<65536x2048xbf16>) -> tensor<65536x2048xbf16> {
  %y = softmax.softmax %x : tensor<65536x2048xbf16>
  return %y : tensor<65536x2048xbf16>
}
