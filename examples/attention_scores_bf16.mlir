// Attention probabilities: scores [batch*heads, queries, keys] in bf16, scaled by 1/sqrt(64),
// causally masked, normalised in f32 and written back as bf16.
func.func @attention_scores(%scores: tensor<16x1024x1024xbf16>) -> tensor<16x1024x1024xbf16> {
  %x = softmax.cast %scores : tensor<16x1024x1024xbf16> to tensor<16x1024x1024xf32>
  %s = softmax.scale %x by 0.125 : tensor<16x1024x1024xf32>
  %m = softmax.mask %s, causal : tensor<16x1024x1024xf32>
  %p = softmax.softmax %m : tensor<16x1024x1024xf32>
  %y = softmax.cast %p : tensor<16x1024x1024xf32> to tensor<16x1024x1024xbf16>
  return %y : tensor<16x1024x1024xbf16>
}
