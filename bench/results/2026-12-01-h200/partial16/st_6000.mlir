func.func @softmax(%x: tensor<22369x6000xbf16>) -> tensor<22369x6000xbf16> {
  %y = softmax.softmax %x : tensor<22369x6000xbf16>
  return %y : tensor<22369x6000xbf16>
}
