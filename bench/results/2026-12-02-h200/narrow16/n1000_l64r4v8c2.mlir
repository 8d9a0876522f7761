func.func @f(%x: tensor<134217x1000xbf16>) -> tensor<134217x1000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 2>]} : tensor<134217x1000xbf16> -> tensor<134217x1000xbf16>
  return %0 : tensor<134217x1000xbf16>
}
