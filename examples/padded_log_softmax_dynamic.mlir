// Log-probabilities of variable-length rows: a [M, N] f16 batch (both sizes known only at run
// time), a per-row length, and a per-column bias (e.g. a vocabulary prior).
func.func @padded_log_softmax(%logits: tensor<?x?xf16>, %lengths: tensor<?xi32>,
                              %bias: tensor<?xf16>) -> tensor<?x?xf16> {
  %b = softmax.add_bias %logits, %bias : tensor<?x?xf16>, tensor<?xf16>
  %m = softmax.mask %b, padding %lengths : tensor<?x?xf16>, tensor<?xi32>
  %y = softmax.log_softmax %m : tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
