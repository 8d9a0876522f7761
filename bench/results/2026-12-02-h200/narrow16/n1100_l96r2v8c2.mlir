func.func @f(%x: tensor<122016x1100xbf16>) -> tensor<122016x1100xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 2, vector = 8, chunks = 2>]} : tensor<122016x1100xbf16> -> tensor<122016x1100xbf16>
  return %0 : tensor<122016x1100xbf16>
}
