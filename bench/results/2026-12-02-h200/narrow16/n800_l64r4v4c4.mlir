func.func @f(%x: tensor<167772x800xbf16>) -> tensor<167772x800xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 4, chunks = 4>]} : tensor<167772x800xbf16> -> tensor<167772x800xbf16>
  return %0 : tensor<167772x800xbf16>
}
