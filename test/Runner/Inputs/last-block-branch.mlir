// The last block ends in cf.br, not func.return (the return is in an earlier block): the runner
// refuses it with a diagnostic (it used to read the cf.br as the return and crash).
func.func @last_block_branch(%x: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %y = softmax.softmax %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
^bb2:
  cf.br ^bb1
}
