func.func @gen_959(%x: tensor<?x4x?x8192xf32>, %a1: tensor<1x?x8192xf32>) -> tensor<?x4x?x8192xf32> {
  %y = softmax.fused log_softmax %x (%a1 : tensor<1x?x8192xf32>) axis = 3 prologue [#softmax.mask<causal, offset = -4, fill = 0xFFF0000000000000>, #softmax.mask<causal, offset = 0, fill = -30000.0>, #softmax.bias<0>] masked_rows = zero {strategies = [#softmax.strategy<row_shared, lanes = 128, rows = 1, vector = 1, chunks = 2>]} : tensor<?x4x?x8192xf32> -> tensor<?x4x?x8192xf32>
  return %y : tensor<?x4x?x8192xf32>
}
