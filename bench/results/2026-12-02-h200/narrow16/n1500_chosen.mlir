func.func @f(%x: tensor<89478x1500xbf16>) -> tensor<89478x1500xbf16> {
  %y = softmax.softmax %x : tensor<89478x1500xbf16>
  return %y : tensor<89478x1500xbf16>
}
