func.func @f(%x: tensor<32768x4096xbf16>) -> tensor<32768x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 4>]} : tensor<32768x4096xbf16> -> tensor<32768x4096xbf16>
  return %0 : tensor<32768x4096xbf16>
}
