// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// mixer.kernel_mv becomes, per block of rows (here all 16), an scf.for over
// the full 64-column blocks of y and one padded tail step for the last 36
// columns. Each step forms the 16 x 64 kernel block from the squared
// distances, summed as squared differences at this small D (one map reading
// the D columns of x_blk and the D rows of y_blk^T), and accumulates
// K v[block] in place into the block's (contiguous) rows of `out`.

// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @kernel_mv_tail
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[V:[^:]*]]: tensor<100x8xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<16x8xf32>)
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[SQRT3:.*]] = arith.constant 1.73205078 : f32
// The bandwidth is read at run time: a = sqrt(3) / h.
// CHECK:         %[[HV:.*]] = tensor.extract %[[H]][] : tensor<f32>
// CHECK:         %[[A:.*]] = arith.divf %[[SQRT3]], %[[HV]] : f32
// CHECK:         %[[RES:.*]] = scf.for %[[R0:.*]] = %[[C0]] to %[[C16]] step %[[C16]] iter_args(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[XB:.*]] = linalg.copy
// CHECK-NOT:       linalg.generic
// CHECK:           %[[ODST:.*]] = tensor.extract_slice %[[OUT]][%[[R0]], 0] [16, 8] [1, 1] : tensor<16x8xf32> to tensor<16x8xf32>
// CHECK:           %[[ACC0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ODST]] : tensor<16x8xf32>)
// CHECK:           %[[FULL:.*]] = scf.for %[[J0:.*]] = %[[C0]] to %[[C64]] step %[[C64]] iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<16x8xf32>)
// CHECK:             %[[YT:.*]] = linalg.transpose ins(%{{.*}} : tensor<64x3xf32>) outs(%{{.*}} : tensor<3x64xf32>) permutation = [1, 0]
// CHECK:             %[[VB:.*]] = tensor.extract_slice %[[V]][%[[J0]], 0] [64, 8] [1, 1] : tensor<100x8xf32> to tensor<64x8xf32>
// CHECK-DAG:         %[[X0:.*]] = tensor.extract_slice %[[XB]][0, 0] [16, 1] [1, 1] : tensor<16x3xf32> to tensor<16xf32>
// CHECK-DAG:         %[[X1:.*]] = tensor.extract_slice %[[XB]][0, 1] [16, 1] [1, 1] : tensor<16x3xf32> to tensor<16xf32>
// CHECK-DAG:         %[[X2:.*]] = tensor.extract_slice %[[XB]][0, 2] [16, 1] [1, 1] : tensor<16x3xf32> to tensor<16xf32>
// CHECK-DAG:         %[[Y0:.*]] = tensor.extract_slice %[[YT]][0, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
// CHECK-DAG:         %[[Y1:.*]] = tensor.extract_slice %[[YT]][1, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
// CHECK-DAG:         %[[Y2:.*]] = tensor.extract_slice %[[YT]][2, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
// r^2 = sum_d (x_d - y_d)^2: exactly 0 at coincident points.
// CHECK:             %[[R2B:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$ROW]], #[[$ROW]], #[[$COL]], #[[$COL]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X0]], %[[X1]], %[[X2]], %[[Y0]], %[[Y1]], %[[Y2]] : {{.*}}) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK-NEXT:        ^bb0(%[[A0:.*]]: f32, %[[A1:.*]]: f32, %[[A2:.*]]: f32, %[[B0:.*]]: f32, %[[B1:.*]]: f32, %[[B2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:          %[[D0:.*]] = arith.subf %[[A0]], %[[B0]] : f32
// CHECK-NEXT:          %[[Q0:.*]] = arith.mulf %[[D0]], %[[D0]] : f32
// CHECK-NEXT:          %[[D1:.*]] = arith.subf %[[A1]], %[[B1]] : f32
// CHECK-NEXT:          %[[Q1:.*]] = arith.mulf %[[D1]], %[[D1]] : f32
// CHECK-NEXT:          %[[S1:.*]] = arith.addf %[[Q0]], %[[Q1]] : f32
// CHECK-NEXT:          %[[D2:.*]] = arith.subf %[[A2]], %[[B2]] : f32
// CHECK-NEXT:          %[[Q2:.*]] = arith.mulf %[[D2]], %[[D2]] : f32
// CHECK-NEXT:          %[[S2:.*]] = arith.addf %[[S1]], %[[Q2]] : f32
// CHECK-NEXT:          linalg.yield %[[S2]] : f32
// matern32: (1 + a r) exp(min(-a r, 0)), in place of the r^2 block.
// CHECK:             %[[K:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[R2B]] : tensor<16x64xf32>)
// CHECK-NEXT:        ^bb0(%[[R2:.*]]: f32):
// CHECK-NEXT:          %[[R:.*]] = math.sqrt %[[R2]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.mulf %[[A]], %[[R]] : f32
// CHECK-NEXT:          %[[NS:.*]] = arith.negf %[[S]] : f32
// CHECK-NEXT:          %[[NSC:.*]] = arith.minimumf %[[NS]], %[[ZERO]] : f32
// CHECK-NEXT:          %[[E:.*]] = math.exp %[[NSC]] : f32
// CHECK-NEXT:          %[[P:.*]] = arith.addf %[[S]], %[[ONE]] : f32
// CHECK-NEXT:          %[[KV:.*]] = arith.mulf %[[P]], %[[E]] : f32
// CHECK-NEXT:          linalg.yield %[[KV]] : f32
// acc += K v[block], in place.
// CHECK:             %[[NACC:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[K]], %[[VB]] : tensor<16x64xf32>, tensor<64x8xf32>) outs(%[[ACC]] : tensor<16x8xf32>)
// CHECK:             scf.yield %[[NACC]] : tensor<16x8xf32>
// The tail pads y with zero points and v with zero rows.
// CHECK:           %[[TAIL:.*]] = scf.for %[[T0:.*]] = %[[C64]] to %[[C100]] step %[[C64]] iter_args(%{{.*}} = %[[FULL]])
// CHECK:             %[[CNT:.*]] = arith.subi %[[C100]], %[[T0]] : index
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [3, %[[CNT]]] [1, 1] : tensor<3x?xf32> into tensor<3x64xf32>
// CHECK:             %[[VZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<64x8xf32>)
// CHECK:             %[[VS:.*]] = tensor.extract_slice %[[V]][%[[T0]], 0] [%[[CNT]], 8] [1, 1] : tensor<100x8xf32> to tensor<?x8xf32>
// CHECK:             tensor.insert_slice %[[VS]] into %[[VZ]][0, 0] [%[[CNT]], 8] [1, 1] : tensor<?x8xf32> into tensor<64x8xf32>
// CHECK:           %[[INS:.*]] = tensor.insert_slice %[[TAIL]] into %[[OUT]][%[[R0]], 0] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<16x8xf32>
// CHECK:           scf.yield %[[INS]]
// CHECK:         return %[[RES]]
func.func @kernel_mv_tail(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %v: tensor<100x8xf32>, %h: tensor<f32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %r = mixer.kernel_mv kernel(matern32) ins(%x, %y, %v, %h : tensor<16x3xf32>, tensor<100x3xf32>, tensor<100x8xf32>, tensor<f32>) outs(%o : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// The linear kernel is the x y^T block itself: no norms, no map. Batched
// with a dynamic N: row blocks of 64, the last zero-padded, accumulated in
// a local buffer and only its valid rows copied out; M = 128 is two full
// blocks and no tail.

// CHECK-LABEL: func.func @kernel_mv_linear_batched
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x?x3xf32>, %[[Y:[^:]*]]: tensor<2x128x3xf32>, %[[V:[^:]*]]: tensor<2x128x16xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x?x16xf32>)
// CHECK-NOT:     tensor.extract %[[H]]
// CHECK:         scf.for %[[B:[^ ]+]] =
// CHECK:           scf.for %[[R0:[^ ]+]] = {{.*}} iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK:             %[[ROWS:.*]] = arith.minui
// CHECK:             %[[ACC:.*]] = scf.for %[[J0:[^ ]+]] =
// CHECK:               %[[YT:.*]] = linalg.transpose
// CHECK:               %[[VB:.*]] = tensor.extract_slice %[[V]][%[[B]], %[[J0]], 0] [1, 64, 16] [1, 1, 1] : tensor<2x128x16xf32> to tensor<64x16xf32>
// CHECK:               %[[DOT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[YT]] : tensor<64x3xf32>, tensor<3x64xf32>)
// CHECK-NOT:           math.
// CHECK:               linalg.generic {{.*}} ins(%[[DOT]], %[[VB]] : tensor<64x64xf32>, tensor<64x16xf32>)
// CHECK:               scf.yield
// CHECK-NOT:         scf.for
// CHECK:             %[[PART:.*]] = tensor.extract_slice %[[ACC]][0, 0] [%[[ROWS]], 16] [1, 1] : tensor<64x16xf32> to tensor<?x16xf32>
// CHECK:             %[[ODST:.*]] = tensor.extract_slice %[[OUT]][%[[B]], %[[R0]], 0] [1, %[[ROWS]], 16] [1, 1, 1] : tensor<2x?x16xf32> to tensor<?x16xf32>
// CHECK:             %[[COPIED:.*]] = linalg.copy ins(%[[PART]] : tensor<?x16xf32>) outs(%[[ODST]] : tensor<?x16xf32>)
// CHECK:             tensor.insert_slice %[[COPIED]] into %[[OUT]][%[[B]], %[[R0]], 0] [1, %[[ROWS]], 16] [1, 1, 1] : tensor<?x16xf32> into tensor<2x?x16xf32>
func.func @kernel_mv_linear_batched(%x: tensor<2x?x3xf32>, %y: tensor<2x128x3xf32>, %v: tensor<2x128x16xf32>, %h: tensor<f32>, %o: tensor<2x?x16xf32>) -> tensor<2x?x16xf32> {
  %r = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<2x?x3xf32>, tensor<2x128x3xf32>, tensor<2x128x16xf32>, tensor<f32>) outs(%o : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  return %r : tensor<2x?x16xf32>
}

// -----

// Past 8 dimensions the squared distances of the gaussian are expanded,
// |x|^2 + |y|^2 - 2 <x, y> from a blocked contraction, on points centred on
// the mean of y (per batch entry, computed once): the rounding then scales
// with the spread of the points, not with their distance from the origin.

// CHECK-DAG:   #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$BD:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @kernel_mv_expanded
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x64x32xf32>, %[[Y:[^:]*]]: tensor<2x64x32xf32>
// CHECK-DAG:     %[[M:.*]] = arith.constant 6.400000e+01 : f32
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$BD]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[Y]] : tensor<2x64x32xf32>)
// CHECK:         %[[MEAN:.*]] = linalg.generic {{.*}} outs(%[[SUM]] : tensor<2x32xf32>)
// CHECK:           arith.divf %{{.*}}, %[[M]] : f32
// CHECK:         scf.for %[[B:[^ ]+]] =
// CHECK:           scf.for
// CHECK:             %[[C:.*]] = tensor.extract_slice %[[MEAN]][%[[B]], 0] [1, 32] [1, 1] : tensor<2x32xf32> to tensor<32xf32>
// CHECK:             %[[XB:.*]] = linalg.copy
// CHECK:             %[[XC:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]]], {{.*}} ins(%[[XB]], %[[C]] : tensor<64x32xf32>, tensor<32xf32>)
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          arith.subf
// CHECK:             %[[XN:.*]] = linalg.generic {{.*}} ins(%[[XC]] : tensor<64x32xf32>)
// CHECK:             scf.for
// CHECK:               %[[YT:.*]] = linalg.transpose
// CHECK:               %[[YC:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], {{.*}} ins(%[[YT]], %[[C]] : tensor<32x64xf32>, tensor<32xf32>)
// CHECK:               %[[DOT:.*]] = linalg.generic {{.*}} ins(%[[XC]], %[[YC]] : tensor<64x32xf32>, tensor<32x64xf32>)
// CHECK:               %[[YN:.*]] = linalg.generic {{.*}} ins(%[[YC]] : tensor<32x64xf32>)
// CHECK:               linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], {{.*}} ins(%[[XN]], %[[YN]] : tensor<64xf32>, tensor<64xf32>) outs(%[[DOT]] : tensor<64x64xf32>)
// CHECK:                 arith.maximumf
// CHECK:                 math.exp
func.func @kernel_mv_expanded(%x: tensor<2x64x32xf32>, %y: tensor<2x64x32xf32>, %v: tensor<2x64x4xf32>, %h: tensor<f32>, %o: tensor<2x64x4xf32>) -> tensor<2x64x4xf32> {
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x64x32xf32>, tensor<2x64x32xf32>, tensor<2x64x4xf32>, tensor<f32>) outs(%o : tensor<2x64x4xf32>) -> tensor<2x64x4xf32>
  return %r : tensor<2x64x4xf32>
}

// -----

// Laplacian needs r itself, which the expansion leaves at about 3e-4 |x| for
// coincident points: its squared differences are summed at every D.

// CHECK-LABEL: func.func @kernel_mv_laplacian_large_d
// CHECK-NOT:     arith.maximumf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<64xf32>, {{.*}}) outs(%{{.*}} : tensor<64x64xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.subf
// CHECK-NEXT:      arith.mulf
// CHECK:         math.sqrt
func.func @kernel_mv_laplacian_large_d(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>, %v: tensor<64x4xf32>, %h: tensor<f32>, %o: tensor<64x4xf32>) -> tensor<64x4xf32> {
  %r = mixer.kernel_mv kernel(laplacian) ins(%x, %y, %v, %h : tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x4xf32>, tensor<f32>) outs(%o : tensor<64x4xf32>) -> tensor<64x4xf32>
  return %r : tensor<64x4xf32>
}
