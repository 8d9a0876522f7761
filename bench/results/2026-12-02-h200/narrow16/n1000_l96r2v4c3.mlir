func.func @f(%x: tensor<134217x1000xbf16>) -> tensor<134217x1000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 2, vector = 4, chunks = 3>]} : tensor<134217x1000xbf16> -> tensor<134217x1000xbf16>
  return %0 : tensor<134217x1000xbf16>
}
