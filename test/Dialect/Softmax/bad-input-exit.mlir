// Bad input ends with a located diagnostic and a non-zero exit, never a crash.
// RUN: not softmax-opt %s 2>&1 | FileCheck %s
// RUN: not softmax-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: echo 'func.func @f(%x: tensor<4xf32>) { %0 = softmax.softmax %x : }' | not softmax-opt 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not softmax-opt %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: bad-input-exit.mlir:[[@LINE+2]]:8: error: 'softmax.softmax' op axis 3 is out of range for a tensor of rank 2
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.softmax %x axis = 3 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// SPLIT: bad-input-exit.mlir:[[@LINE+2]]:8: error: 'softmax.add_bias' op bias of shape 5 does not broadcast
func.func @g(%x: tensor<4x8xf32>, %b: tensor<5xf32>) -> tensor<4x8xf32> {
  %0 = softmax.add_bias %x, %b : tensor<4x8xf32>, tensor<5xf32>
  return %0 : tensor<4x8xf32>
}

// SYNTAX: <stdin>:1:60: error: expected non-function type
// MISSING: cannot open input file '{{.*}}bad-input-exit.mlir.missing'
