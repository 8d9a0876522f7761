func.func @f(%x: tensor<38347x3500xbf16>) -> tensor<38347x3500xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 448, rows = 1, vector = 4, chunks = 2>]} : tensor<38347x3500xbf16> -> tensor<38347x3500xbf16>
  return %0 : tensor<38347x3500xbf16>
}
