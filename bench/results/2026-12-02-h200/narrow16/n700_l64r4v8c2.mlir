func.func @f(%x: tensor<191739x700xbf16>) -> tensor<191739x700xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 2>]} : tensor<191739x700xbf16> -> tensor<191739x700xbf16>
  return %0 : tensor<191739x700xbf16>
}
