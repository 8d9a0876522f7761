func.func @softmax(%x: tensor<44739x3000xbf16>) -> tensor<44739x3000xbf16> {
  %y = softmax.softmax %x : tensor<44739x3000xbf16>
  return %y : tensor<44739x3000xbf16>
}
