func.func @f(%x: tensor<53687x2500xbf16>) -> tensor<53687x2500xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 160, rows = 1, vector = 8, chunks = 2>]} : tensor<53687x2500xbf16> -> tensor<53687x2500xbf16>
  return %0 : tensor<53687x2500xbf16>
}
