func.func @f(%x: tensor<53687x2500xbf16>) -> tensor<53687x2500xbf16> {
  %y = softmax.softmax %x : tensor<53687x2500xbf16>
  return %y : tensor<53687x2500xbf16>
}
