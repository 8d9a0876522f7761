func.func @f(%x: tensor<223696x600xbf16>) -> tensor<223696x600xbf16> {
  %y = softmax.softmax %x : tensor<223696x600xbf16>
  return %y : tensor<223696x600xbf16>
}
