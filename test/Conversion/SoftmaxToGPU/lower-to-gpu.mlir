// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s

// Host: tensors become strided memrefs, the result a trailing output argument; one launch
// of ceil(M / rows) blocks; the kernel reads 16-byte vectors where the rows are aligned.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @softmax(%[[X:.+]]: memref<4096x1024xf32, strided<[?, 1], offset: ?>>, %[[Y:.+]]: memref<4096x1024xf32, strided<[?, 1], offset: ?>>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[BLOCKS:.+]] = arith.constant 1024 : index
// CHECK-DAG: %[[THREADS:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[XR:.+]] = memref.cast %[[X]] : memref<4096x1024xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-DAG: %[[YR:.+]] = memref.cast %[[Y]]
// CHECK: gpu.launch_func @softmax_kernels::@softmax_0_row_registers blocks in (%[[BLOCKS]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) args(%[[XR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[YR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: return
// CHECK: gpu.module @softmax_kernels
// CHECK: gpu.func @softmax_0_row_registers(%{{.+}}: memref<?x?xf32, strided<[?, 1], offset: ?>>, %{{.+}}: memref<?x?xf32, strided<[?, 1], offset: ?>>, %{{.+}}: index)
// CHECK-SAME: workgroup(%[[SMEM:.+]] : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// Each row is peeled to a vector boundary: head = (4 - (offset + row * stride) % 4) % 4.
// CHECK: memref.extract_strided_metadata %{{.+}} : memref<?x?xf32
// CHECK: %[[MIS:.+]] = arith.remui %{{.+}}, %c4 : index
// CHECK: %[[DIST:.+]] = arith.subi %c4, %[[MIS]] : index
// CHECK: arith.remui %[[DIST]], %c4 : index
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: vector.load %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK: gpu.shuffle xor %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: arith.maximumf
// CHECK: gpu.barrier
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: gpu.barrier
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64}
// CHECK-NOT: scf.for
// CHECK: gpu.return
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = softmax.softmax %x : tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}

// -----

// A dynamic width: one kernel a tier, dispatched on N; the last one takes any width.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[N:.+]] = memref.dim %{{.+}}, %c1
// CHECK: arith.cmpi ule, %[[N]], %c32
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_0
// CHECK: arith.cmpi ule, %[[N]], %c512
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_1
// CHECK: arith.cmpi ule, %[[N]], %c2048
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_2
// CHECK: arith.cmpi ule, %[[N]], %c8192
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_3
// CHECK: arith.cmpi ule, %[[N]], %c16384
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_4
// CHECK: arith.cmpi ule, %[[N]], %c57856
// The row in shared memory: the reductions' 32 slots (128 bytes), then the row as f32.
// CHECK: %[[VECTORS:.+]] = arith.ceildivui %[[N]], %c8
// CHECK: %[[ROW:.+]] = arith.muli %[[VECTORS]], %c32
// CHECK: %[[BYTES:.+]] = arith.addi %[[ROW]], %c128
// CHECK: %[[BYTES32:.+]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_shared_5 {{.*}} dynamic_shared_memory_size %[[BYTES32]]
// CHECK: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_chunked_online_6
// The chunked kernel: a running max and sum over the spans, then a second pass that stores.
// CHECK: gpu.func @dynamic_0_row_shared_5
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view %{{.+}}[%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view
// CHECK-SAME: to memref<?xf32, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}] {alignment = 32 : i64} : memref<?xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 32 : i64} : memref<?xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: gpu.func @dynamic_0_chunked_online_6
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, f32)
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.store
func.func @dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.softmax %x : tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// An intermediate lives in a device buffer (async forms: gpu-to-llvm lowers those); an argument
// returned as is gets a copy kernel; a 3-d input is viewed as rows; a padding mask reads its
// length once a row.
// CHECK-LABEL: func.func @plumbing
// CHECK-SAME: (%[[X:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>, %[[L:.+]]: memref<2x4xi32, strided<[?, 1], offset: ?>>, %[[R0:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>, %[[R1:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>)
// CHECK: %[[T0:.+]] = gpu.wait async
// CHECK: %[[TMP:.+]], %[[T1:.+]] = gpu.alloc async [%[[T0]]] () : memref<2x4x64xf16>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: memref.collapse_shape %[[X]] {{\[\[}}0, 1], [2]]
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_0_multi_row
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_1_multi_row
// CHECK: memref.collapse_shape %[[R1]]
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_2_multi_row
// CHECK: gpu.dealloc async [%{{.+}}] %[[TMP]]
// CHECK: gpu.func @plumbing_0_multi_row
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<2x4xi32, strided<[?, 1], offset: ?>>
// CHECK: arith.minsi
func.func @plumbing(%x: tensor<2x4x64xf32>, %len: tensor<2x4xi32>) -> (tensor<2x4x64xf32>, tensor<2x4x64xf32>) {
  %m = softmax.mask %x, padding %len : tensor<2x4x64xf32>, tensor<2x4xi32>
  %0 = softmax.softmax %m : tensor<2x4x64xf32>
  %1 = softmax.cast %0 : tensor<2x4x64xf32> to tensor<2x4x64xf16>
  %2 = softmax.cast %1 : tensor<2x4x64xf16> to tensor<2x4x64xf32>
  %3 = softmax.log_softmax %2 : tensor<2x4x64xf32>
  return %3, %x : tensor<2x4x64xf32>, tensor<2x4x64xf32>
}
