// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy))' --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy{chip=sm_80}))' --split-input-file | FileCheck %s --check-prefix=SM80

// A few rows known statically, wider than a block or a cluster holds, whose one block a row
// would leave most multiprocessors idle, are split over many blocks (row_split,
// SelectStrategy.cpp, splitPlan): about 4 blocks a multiprocessor in all, spans of 256 lanes of
// 1 to 8 vectors. f32 1x1048576: 4 * 132 blocks want spans of 1986 columns, so one vector.
// SM90-LABEL: func.func @one_row(
// SM90: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 1>]
func.func @one_row(%x: tensor<1x1048576xf32>) -> tensor<1x1048576xf32> {
  %0 = softmax.softmax %x axis = 1 : tensor<1x1048576xf32>
  return %0 : tensor<1x1048576xf32>
}

// -----

// bf16 4x4194304: spans of 31776 columns wanted, 8 vectors of 8 a lane (16384) at most.
// SM90-LABEL: func.func @four_rows_bf16(
// SM90: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 8>]
func.func @four_rows_bf16(%x: tensor<4x4194304xbf16>) -> tensor<4x4194304xbf16> {
  %0 = softmax.softmax %x axis = 1 : tensor<4x4194304xbf16>
  return %0 : tensor<4x4194304xbf16>
}

// -----

// log_softmax and a prologue (the columns stay the row's own: masks and biases apply as in
// the chunked_online kernel) split too.
// SM90-LABEL: func.func @masked_log(
// SM90: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 8>]
func.func @masked_log(%x: tensor<8x1048576xf32>, %len: tensor<8xi32>) -> tensor<8x1048576xf32> {
  %m = softmax.mask %x, padding %len : tensor<8x1048576xf32>, tensor<8xi32>
  %0 = softmax.log_softmax %m axis = 1 : tensor<8x1048576xf32>
  return %0 : tensor<8x1048576xf32>
}

// -----

// The threshold is the chip's multiprocessors: 120 rows of a block each leave 12 of sm_90's
// 132 idle (split), and fill sm_80's 108 (one block a row).
// SM90-LABEL: func.func @rows_120(
// SM90: row_split
// SM80-LABEL: func.func @rows_120(
// SM80: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @rows_120(%x: tensor<120x1048576xf32>) -> tensor<120x1048576xf32> {
  %0 = softmax.softmax %x axis = 1 : tensor<120x1048576xf32>
  return %0 : tensor<120x1048576xf32>
}

// -----

// Enough rows fill the GPU a block a row.
// SM90-LABEL: func.func @rows_200(
// SM90: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @rows_200(%x: tensor<200x1048576xf32>) -> tensor<200x1048576xf32> {
  %0 = softmax.softmax %x axis = 1 : tensor<200x1048576xf32>
  return %0 : tensor<200x1048576xf32>
}

// -----

// Rows a cluster holds keep the cluster plan (a cluster's blocks a row, one read). A row
// count unknown at compile time gets row_split before the chunked_online entry, as its
// row-count alternative: the host splits the rows where they are fewer than the
// multiprocessors (lower-to-gpu-split.mlir), on spans of 4 vectors a lane.
// SM90-LABEL: func.func @cluster_row(
// SM90: row_cluster
// SM90-LABEL: func.func @dynamic_rows(
// SM90: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @cluster_row(%x: tensor<1x128256xf32>) -> tensor<1x128256xf32> {
  %0 = softmax.softmax %x axis = 1 : tensor<1x128256xf32>
  return %0 : tensor<1x128256xf32>
}
func.func @dynamic_rows(%x: tensor<?x1048576xf32>) -> tensor<?x1048576xf32> {
  %0 = softmax.softmax %x axis = 1 : tensor<?x1048576xf32>
  return %0 : tensor<?x1048576xf32>
}

// -----

// And before the last tier of a dynamic width (here a bf16 input widened to f32: vectors of 4
// f32, whose 16 bytes hold the 8-byte words), unless the op has no normalization.
// SM90-LABEL: func.func @dynamic_width(
// SM90: #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
// SM90-LABEL: func.func @no_normalization(
// SM90-NOT: row_split
func.func @dynamic_width(%x: tensor<?x?xbf16>) -> tensor<?x?xf32> {
  %w = softmax.cast %x : tensor<?x?xbf16> to tensor<?x?xf32>
  %0 = softmax.log_softmax %w axis = 1 : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @no_normalization(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused none %x axis = 1 prologue [#softmax.scale<2.0>] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
