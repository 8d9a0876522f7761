func.func @f(%x: tensor<38347x3500xbf16>) -> tensor<38347x3500xbf16> {
  %y = softmax.softmax %x : tensor<38347x3500xbf16>
  return %y : tensor<38347x3500xbf16>
}
