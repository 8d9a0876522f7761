// Next-token probabilities for sampling: one row per sequence over a 128256-token vocabulary,
// divided by a temperature known only at run time (passed as its inverse), with a boolean mask
// of banned tokens shared by all rows.
func.func @sample_probs(%logits: tensor<8x128256xf32>, %inv_temperature: f32,
                        %allowed: tensor<1x128256xi1>) -> tensor<8x128256xf32> {
  %s = softmax.scale %logits by %inv_temperature : tensor<8x128256xf32>, f32
  %m = softmax.mask %s, tensor %allowed : tensor<8x128256xf32>, tensor<1x128256xi1>
  %p = softmax.softmax %m : tensor<8x128256xf32>
  return %p : tensor<8x128256xf32>
}
