// Every example parses, verifies and round-trips (printed form re-parsed, generic form too).
// RUN: for f in %softmax_src_root/examples/*.mlir; do softmax-opt $f | softmax-opt --mlir-print-op-generic | softmax-opt > /dev/null || exit 1; done
// Every example compiles to PTX; the linalg ones (front doors) through softmax-raise, which
// leaves softmax-dialect programs as they are.
// RUN: for f in %softmax_src_root/examples/*.mlir; do softmax-opt $f --softmax-raise --softmax-to-nvvm -o /dev/null || exit 1; done
// RUN: softmax-opt %softmax_src_root/examples/attention_scores_bf16.mlir | FileCheck %s
// CHECK-LABEL: func.func @attention_scores
// CHECK: softmax.scale %{{.*}} by 1.250000e-01
// CHECK: softmax.mask %{{.*}}, causal
// CHECK: softmax.softmax

// RUN: softmax-opt %softmax_src_root/examples/linalg_softmax_torch_mlir.mlir --softmax-raise | FileCheck %s --check-prefix=TORCH
// TORCH-LABEL: func.func @forward
// TORCH: softmax.cast %{{.*}} : tensor<16x1024x1024xbf16> to tensor<16x1024x1024xf32>
// TORCH: softmax.scale %{{.*}} by 1.250000e-01
// TORCH: softmax.softmax %{{.*}} masked_rows = nan
// TORCH: softmax.cast %{{.*}} : tensor<16x1024x1024xf32> to tensor<16x1024x1024xbf16>
// TORCH-NOT: linalg.

// RUN: softmax-opt %softmax_src_root/examples/decomposed_softmax_iree.mlir --softmax-raise | FileCheck %s --check-prefix=IREE
// IREE-LABEL: func.func @classifier_probs
// IREE: softmax.add_bias %{{.*}}, %{{.*}} : tensor<?x32000xf32>, tensor<32000xf32>
// IREE: softmax.softmax %{{.*}} masked_rows = nan : tensor<?x32000xf32>
// IREE-NOT: linalg.
