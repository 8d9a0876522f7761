func.func @softmax(%x: tensor<14913x9000xbf16>) -> tensor<14913x9000xbf16> {
  %y = softmax.softmax %x : tensor<14913x9000xbf16>
  return %y : tensor<14913x9000xbf16>
}
