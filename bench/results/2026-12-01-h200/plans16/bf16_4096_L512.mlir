func.func @f(%x: tensor<32768x4096xbf16>) -> tensor<32768x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>]} : tensor<32768x4096xbf16> -> tensor<32768x4096xbf16>
  return %0 : tensor<32768x4096xbf16>
}
