func.func @softmax(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = softmax.softmax %x : tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
