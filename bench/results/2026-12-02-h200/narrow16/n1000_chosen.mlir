func.func @f(%x: tensor<134217x1000xbf16>) -> tensor<134217x1000xbf16> {
  %y = softmax.softmax %x : tensor<134217x1000xbf16>
  return %y : tensor<134217x1000xbf16>
}
