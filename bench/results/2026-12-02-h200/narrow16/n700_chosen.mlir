func.func @f(%x: tensor<191739x700xbf16>) -> tensor<191739x700xbf16> {
  %y = softmax.softmax %x : tensor<191739x700xbf16>
  return %y : tensor<191739x700xbf16>
}
