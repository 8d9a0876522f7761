func.func @f(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 2 prologue [#softmax.scale<0.088388>, #softmax.mask<causal, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
