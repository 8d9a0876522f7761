func.func @f(%x: tensor<167772x800xbf16>) -> tensor<167772x800xbf16> {
  %y = softmax.softmax %x : tensor<167772x800xbf16>
  return %y : tensor<167772x800xbf16>
}
