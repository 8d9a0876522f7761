func.func @f(%x: tensor<65536x2048xbf16>) -> tensor<65536x2048xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 2>]} : tensor<65536x2048xbf16> -> tensor<65536x2048xbf16>
  return %0 : tensor<65536x2048xbf16>
}
