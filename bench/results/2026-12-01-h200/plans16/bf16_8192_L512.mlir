func.func @f(%x: tensor<16384x8192xbf16>) -> tensor<16384x8192xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>]} : tensor<16384x8192xbf16> -> tensor<16384x8192xbf16>
  return %0 : tensor<16384x8192xbf16>
}
