func.func @f(%x: tensor<122016x1100xbf16>) -> tensor<122016x1100xbf16> {
  %y = softmax.softmax %x : tensor<122016x1100xbf16>
  return %y : tensor<122016x1100xbf16>
}
