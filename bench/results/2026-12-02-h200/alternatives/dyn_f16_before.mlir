// The dynamic program with the plans softmax-select-strategy chose before the tiers' alternatives
// on narrower vectors (those of cff294e: the same list without them), written by hand.
module {
  func.func @softmax(%arg0: tensor<?x?xf16>) -> tensor<?x?xf16> {
    %0 = softmax.fused softmax %arg0 axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 256, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 2, rows = 128, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 3>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xf16> -> tensor<?x?xf16>
    return %0 : tensor<?x?xf16>
  }
}

