func.func @softmax(%x: tensor<11184x12000xbf16>) -> tensor<11184x12000xbf16> {
  %y = softmax.softmax %x : tensor<11184x12000xbf16>
  return %y : tensor<11184x12000xbf16>
}
