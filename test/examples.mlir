// Every example parses, verifies and round-trips (printed form re-parsed, generic form too).
// RUN: for f in %softmax_src_root/examples/*.mlir; do softmax-opt $f | softmax-opt --mlir-print-op-generic | softmax-opt > /dev/null || exit 1; done
// RUN: softmax-opt %softmax_src_root/examples/attention_scores_bf16.mlir | FileCheck %s
// CHECK-LABEL: func.func @attention_scores
// CHECK: softmax.scale %{{.*}} by 1.250000e-01
// CHECK: softmax.mask %{{.*}}, causal
// CHECK: softmax.softmax
