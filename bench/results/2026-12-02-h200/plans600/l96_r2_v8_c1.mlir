func.func @f(%x: tensor<223696x600xbf16>) -> tensor<223696x600xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 2, vector = 8, chunks = 1>]} : tensor<223696x600xbf16> -> tensor<223696x600xbf16>
  return %0 : tensor<223696x600xbf16>
}
