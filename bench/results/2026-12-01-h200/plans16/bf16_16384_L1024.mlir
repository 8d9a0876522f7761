func.func @f(%x: tensor<8192x16384xbf16>) -> tensor<8192x16384xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 2>]} : tensor<8192x16384xbf16> -> tensor<8192x16384xbf16>
  return %0 : tensor<8192x16384xbf16>
}
