func.func @f(%x: tensor<223696x600xbf16>) -> tensor<223696x600xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 4, chunks = 3>]} : tensor<223696x600xbf16> -> tensor<223696x600xbf16>
  return %0 : tensor<223696x600xbf16>
}
