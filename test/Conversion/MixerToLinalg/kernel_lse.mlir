// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// mixer.kernel_lse becomes, per block of rows (here all 16 rows at once), an
// scf.for over the full 64-column blocks of y and one padded tail step for
// the last 100 - 64 = 36 columns. Each step forms the block transposed,
// 64 x 16, in one pass: s^T = -c/eps + g from the squared distances
// sum_d (y_d - x_d)^2 (at this small D, summed in the map itself from the D
// columns of y_blk and the D rows of the packed x^T), with the block max of
// each row as a second result; then it updates the running max and sum of
// every row by a reduction over the block's outer (column) dim. The
// N x M matrix never appears.

// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$D1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @kernel_lse_tail
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[G:[^:]*]]: tensor<100xf32>, %[[O:[^:]*]]: tensor<16xf32>)
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[MHALF:.*]] = arith.constant -5.000000e-01 : f32
// eps is read at run time; the gaussian cost is r^2 / 2.
// CHECK:         %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:         %[[COEF:.*]] = arith.divf %[[MHALF]], %[[E]] : f32
// CHECK:         %[[RES:.*]] = scf.for %[[R0:.*]] = %[[C0]] to %[[C16]] step %[[C16]] iter_args(%[[OUT:.*]] = %[[O]])
// The row block is packed locally and transposed once.
// CHECK:           %[[XS:.*]] = tensor.extract_slice %[[X]][%[[R0]], 0] [16, 3] [1, 1]
// CHECK:           %[[XB:.*]] = linalg.copy ins(%[[XS]] : tensor<16x3xf32>)
// CHECK:           %[[XT:.*]] = linalg.transpose ins(%[[XB]] : tensor<16x3xf32>) outs(%{{.*}} : tensor<3x16xf32>) permutation = [1, 0]
// CHECK-NOT:       linalg.generic
// CHECK:           %[[M0:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK:           %[[S0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK:           %[[FULL:.*]]:2 = scf.for %[[J0:.*]] = %[[C0]] to %[[C64]] step %[[C64]] iter_args(%[[M:.*]] = %[[M0]], %[[S:.*]] = %[[S0]]) -> (tensor<16xf32>, tensor<16xf32>)
// CHECK:             %[[YB:.*]] = tensor.extract_slice %[[Y]][%[[J0]], 0] [64, 3] [1, 1] : tensor<100x3xf32> to tensor<64x3xf32>
// CHECK:             %[[GB:.*]] = tensor.extract_slice %[[G]][%[[J0]]] [64] [1] : tensor<100xf32> to tensor<64xf32>
// CHECK-DAG:         %[[Y0:.*]] = tensor.extract_slice %[[YB]][0, 0] [64, 1] [1, 1] : tensor<64x3xf32> to tensor<64xf32>
// CHECK-DAG:         %[[Y1:.*]] = tensor.extract_slice %[[YB]][0, 1] [64, 1] [1, 1] : tensor<64x3xf32> to tensor<64xf32>
// CHECK-DAG:         %[[Y2:.*]] = tensor.extract_slice %[[YB]][0, 2] [64, 1] [1, 1] : tensor<64x3xf32> to tensor<64xf32>
// CHECK-DAG:         %[[X0:.*]] = tensor.extract_slice %[[XT]][0, 0] [1, 16] [1, 1] : tensor<3x16xf32> to tensor<16xf32>
// CHECK-DAG:         %[[X1:.*]] = tensor.extract_slice %[[XT]][1, 0] [1, 16] [1, 1] : tensor<3x16xf32> to tensor<16xf32>
// CHECK-DAG:         %[[X2:.*]] = tensor.extract_slice %[[XT]][2, 0] [1, 16] [1, 1] : tensor<3x16xf32> to tensor<16xf32>
// s^T = coef * r^2 + g and the block max of each row (a reduction over the
// outer dim: x > acc ? x : acc, one vmaxps on x86), in one map that writes
// s^T into a new block.
// CHECK:             %[[SINIT:.*]] = tensor.empty() : tensor<64x16xf32>
// CHECK:             %[[BMINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK:             %[[SB:.*]]:2 = linalg.generic {indexing_maps = [#[[$D0]], #[[$D0]], #[[$D0]], #[[$D1]], #[[$D1]], #[[$D1]], #[[$D0]], #[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[Y0]], %[[Y1]], %[[Y2]], %[[X0]], %[[X1]], %[[X2]], %[[GB]] : {{.*}}) outs(%[[SINIT]], %[[BMINIT]] : tensor<64x16xf32>, tensor<16xf32>)
// CHECK-NEXT:        ^bb0(%[[YV0:.*]]: f32, %[[YV1:.*]]: f32, %[[YV2:.*]]: f32, %[[XV0:.*]]: f32, %[[XV1:.*]]: f32, %[[XV2:.*]]: f32, %[[GV:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:          %[[D0:.*]] = arith.subf %[[YV0]], %[[XV0]] : f32
// CHECK-NEXT:          %[[Q0:.*]] = arith.mulf %[[D0]], %[[D0]] : f32
// CHECK-NEXT:          %[[D1:.*]] = arith.subf %[[YV1]], %[[XV1]] : f32
// CHECK-NEXT:          %[[Q1:.*]] = arith.mulf %[[D1]], %[[D1]] : f32
// CHECK-NEXT:          %[[Q01:.*]] = arith.addf %[[Q0]], %[[Q1]] : f32
// CHECK-NEXT:          %[[D2:.*]] = arith.subf %[[YV2]], %[[XV2]] : f32
// CHECK-NEXT:          %[[Q2:.*]] = arith.mulf %[[D2]], %[[D2]] : f32
// CHECK-NEXT:          %[[R2:.*]] = arith.addf %[[Q01]], %[[Q2]] : f32
// CHECK-NEXT:          %[[SC:.*]] = arith.mulf %[[COEF]], %[[R2]] : f32
// CHECK-NEXT:          %[[SV:.*]] = arith.addf %[[SC]], %[[GV]] : f32
// CHECK-NEXT:          %[[GT:.*]] = arith.cmpf ogt, %[[SV]], %[[ACC]] : f32
// CHECK-NEXT:          %[[BMX:.*]] = arith.select %[[GT]], %[[SV]], %[[ACC]] : f32
// CHECK-NEXT:          linalg.yield %[[SV]], %[[BMX]] : f32, f32
// Then the online update: the sum rescaled to the new max (shift 0 while
// the max is -inf), the max raised, the block's terms added; every exp of a
// value clamped to <= 0.
// CHECK:             %[[S1:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[M]], %[[SB]]#1 : tensor<16xf32>, tensor<16xf32>) outs(%[[S]] : tensor<16xf32>)
// CHECK-NEXT:        ^bb0(%[[MO:.*]]: f32, %[[BMV:.*]]: f32, %[[SO:.*]]: f32):
// CHECK-NEXT:          %[[RAISE:.*]] = arith.cmpf ogt, %[[BMV]], %[[MO]] : f32
// CHECK-NEXT:          %[[MN:.*]] = arith.select %[[RAISE]], %[[BMV]], %[[MO]] : f32
// CHECK-NEXT:          %[[ISINF:.*]] = arith.cmpf oeq, %[[MN]], %[[NEGINF]] : f32
// CHECK-NEXT:          %[[SHIFT:.*]] = arith.select %[[ISINF]], %[[ZERO]], %[[MN]] : f32
// CHECK-NEXT:          %[[D:.*]] = arith.subf %[[MO]], %[[SHIFT]] : f32
// CHECK-NEXT:          %[[DC:.*]] = arith.minimumf %[[D]], %[[ZERO]] : f32
// CHECK-NEXT:          %[[SCALE:.*]] = math.exp %[[DC]] : f32
// CHECK-NEXT:          %[[SS:.*]] = arith.mulf %[[SO]], %[[SCALE]] : f32
// CHECK-NEXT:          linalg.yield %[[SS]] : f32
// CHECK:             %[[M1:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[SB]]#1 : tensor<16xf32>) outs(%[[M]] : tensor<16xf32>)
// CHECK:             %[[S2:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[SB]]#0, %[[M1]] : tensor<64x16xf32>, tensor<16xf32>) outs(%[[S1]] : tensor<16xf32>)
// CHECK:               arith.minimumf
// CHECK-NEXT:          math.exp
// CHECK-NEXT:          arith.addf
// CHECK:             scf.yield %[[M1]], %[[S2]] : tensor<16xf32>, tensor<16xf32>
// The tail: at most one step over the last 36 columns, with y padded by
// zero points and g by -inf so that the padded terms vanish.
// CHECK:           %[[TAIL:.*]]:2 = scf.for %[[T0:.*]] = %[[C64]] to %[[C100]] step %[[C64]] iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1)
// CHECK:             %[[CNT:.*]] = arith.subi %[[C100]], %[[T0]] : index
// CHECK:             %[[YZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<64x3xf32>)
// CHECK:             %[[YTS:.*]] = tensor.extract_slice %[[Y]][%[[T0]], 0] [%[[CNT]], 3] [1, 1] : tensor<100x3xf32> to tensor<?x3xf32>
// CHECK:             tensor.insert_slice %[[YTS]] into %[[YZ]][0, 0] [%[[CNT]], 3] [1, 1] : tensor<?x3xf32> into tensor<64x3xf32>
// CHECK:             %[[GPAD:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK:             %[[GTS:.*]] = tensor.extract_slice %[[G]][%[[T0]]] [%[[CNT]]] [1] : tensor<100xf32> to tensor<?xf32>
// CHECK:             tensor.insert_slice %[[GTS]] into %[[GPAD]][0] [%[[CNT]]] [1] : tensor<?xf32> into tensor<64xf32>
// CHECK:             linalg.generic {indexing_maps = [#[[$D0]], #[[$D0]], #[[$D0]], #[[$D1]], #[[$D1]], #[[$D1]], #[[$D0]], #[[$ID2]], #[[$D1]]]
// CHECK:             scf.yield
// out = m + log(sum), computed straight into the block's rows of out.
// CHECK:           %[[ODST:.*]] = tensor.extract_slice %[[OUT]][%[[R0]]] [16] [1] : tensor<16xf32> to tensor<16xf32>
// CHECK:           %[[LSE:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[TAIL]]#0, %[[TAIL]]#1 : tensor<16xf32>, tensor<16xf32>) outs(%[[ODST]] : tensor<16xf32>)
// CHECK-NEXT:      ^bb0(%[[MV:.*]]: f32, %[[SV2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        %[[LOG:.*]] = math.log %[[SV2]] : f32
// CHECK-NEXT:        %[[LV:.*]] = arith.addf %[[MV]], %[[LOG]] : f32
// CHECK-NEXT:        linalg.yield %[[LV]] : f32
// CHECK:           %[[INS:.*]] = tensor.insert_slice %[[LSE]] into %[[OUT]][%[[R0]]] [16] [1] : tensor<16xf32> into tensor<16xf32>
// CHECK:           scf.yield %[[INS]] : tensor<16xf32>
// CHECK:         return %[[RES]] : tensor<16xf32>
func.func @kernel_lse_tail(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %eps: tensor<f32>, %g: tensor<100xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<16x3xf32>, tensor<100x3xf32>, tensor<f32>) g(%g : tensor<100xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Batched with dynamic N and M and no g: a loop over the batch, row blocks
// of 64 with the last one zero-padded (rows = min(64, N - r0)), full column
// blocks up to 64 * (M / 64) and a tail loop up to M; the padded tail columns
// get g = -inf from a mask. The laplacian cost is sqrt(r^2).

// CHECK-LABEL: func.func @kernel_lse_batched_dynamic
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x?x3xf32>, %[[Y:[^:]*]]: tensor<?x?x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<?x?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[N:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?x3xf32>
// CHECK-DAG:     %[[M:.*]] = tensor.dim %[[Y]], %[[C1]] : tensor<?x?x3xf32>
// CHECK:         %[[MB:.*]] = arith.divui %[[M]], %[[C64]] : index
// CHECK:         %[[FULLEND:.*]] = arith.muli %[[MB]], %[[C64]] : index
// CHECK:         %[[BT:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?x3xf32>
// CHECK:         scf.for %[[B:.*]] = %[[C0]] to %[[BT]] step %[[C1]] iter_args(%[[OB:.*]] = %[[O]])
// CHECK:           scf.for %[[R0:.*]] = %[[C0]] to %[[N]] step %[[C64]] iter_args(%[[OR:.*]] = %[[OB]])
// CHECK:             %[[LEFT:.*]] = arith.subi %[[N]], %[[R0]] : index
// CHECK:             %[[ROWS:.*]] = arith.minui %[[LEFT]], %[[C64]] : index
// CHECK:             %[[XZ:.*]] = linalg.fill {{.*}} -> tensor<64x3xf32>
// CHECK:             %[[XS:.*]] = tensor.extract_slice %[[X]][%[[B]], %[[R0]], 0] [1, %[[ROWS]], 3] [1, 1, 1] : tensor<?x?x3xf32> to tensor<?x3xf32>
// CHECK:             %[[XB:.*]] = tensor.insert_slice %[[XS]] into %[[XZ]][0, 0] [%[[ROWS]], 3] [1, 1] : tensor<?x3xf32> into tensor<64x3xf32>
// CHECK:             scf.for %{{.*}} = %[[C0]] to %[[FULLEND]] step %[[C64]]
// CHECK:               tensor.extract_slice %[[Y]][%[[B]], %{{.*}}, 0] [1, 64, 3] [1, 1, 1] : tensor<?x?x3xf32> to tensor<64x3xf32>
// CHECK:               math.sqrt
// CHECK:             %[[TAIL:.*]]:2 = scf.for %[[T0:.*]] = %[[FULLEND]] to %[[M]] step %[[C64]]
// CHECK:               %[[CNT:.*]] = arith.subi %[[M]], %[[T0]] : index
// CHECK:               linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel"]} outs(%{{.*}} : tensor<64xf32>)
// CHECK:                 %[[J:.*]] = linalg.index 0 : index
// CHECK:                 %[[VALID:.*]] = arith.cmpi ult, %[[J]], %[[CNT]] : index
// CHECK:                 arith.select %[[VALID]]
// Only the valid rows of the running max and sum are combined, straight
// into the rows of out.
// CHECK-DAG:         %[[MVALID:.*]] = tensor.extract_slice %[[TAIL]]#0[0] [%[[ROWS]]] [1] : tensor<64xf32> to tensor<?xf32>
// CHECK-DAG:         %[[SVALID:.*]] = tensor.extract_slice %[[TAIL]]#1[0] [%[[ROWS]]] [1] : tensor<64xf32> to tensor<?xf32>
// CHECK-DAG:         %[[ODST:.*]] = tensor.extract_slice %[[OR]][%[[B]], %[[R0]]] [1, %[[ROWS]]] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// CHECK:             %[[LSE:.*]] = linalg.generic {{.*}} ins(%[[MVALID]], %[[SVALID]] : tensor<?xf32>, tensor<?xf32>) outs(%[[ODST]] : tensor<?xf32>)
// CHECK:               math.log
// CHECK:             tensor.insert_slice %[[LSE]] into %[[OR]][%[[B]], %[[R0]]] [1, %[[ROWS]]] [1, 1] : tensor<?xf32> into tensor<?x?xf32>
func.func @kernel_lse_batched_dynamic(%x: tensor<?x?x3xf32>, %y: tensor<?x?x3xf32>, %eps: tensor<f32>, %o: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %eps : tensor<?x?x3xf32>, tensor<?x?x3xf32>, tensor<f32>) outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Past 8 dimensions a squared-distance cost is expanded around the dot
// products of the blocked contraction, on points centred on the mean of y
// (of a dynamic count M, so divided by max(M, 1)): x_blk once per row block,
// each y block as it is read.

// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$D1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @kernel_lse_expanded
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<64x32xf32>, %[[Y:[^:]*]]: tensor<?x32xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[Y]] : tensor<?x32xf32>)
// CHECK:         %[[M:.*]] = tensor.dim %[[Y]], %[[C0]]
// CHECK:         %[[M1:.*]] = arith.maxui %[[M]], %[[C1]] : index
// CHECK:         %[[MI:.*]] = arith.index_castui %[[M1]] : index to i64
// CHECK:         %[[MF:.*]] = arith.uitofp %[[MI]] : i64 to f32
// CHECK:         %[[MEAN:.*]] = linalg.generic {{.*}} outs(%[[SUM]] : tensor<32xf32>)
// CHECK:           arith.divf %{{.*}}, %[[MF]] : f32
// CHECK:         scf.for
// CHECK:           %[[XB:.*]] = linalg.copy
// CHECK:           %[[XC:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]], #[[$ID2]]], {{.*}} ins(%[[XB]], %[[MEAN]] : tensor<64x32xf32>, tensor<32xf32>)
// CHECK:           %[[XT:.*]] = linalg.transpose ins(%[[XC]] : tensor<64x32xf32>)
// CHECK:           %[[XN:.*]] = linalg.generic {{.*}} ins(%[[XT]] : tensor<32x64xf32>)
// CHECK:           scf.for
// CHECK:             %[[YS:.*]] = tensor.extract_slice %[[Y]]
// CHECK:             %[[YC:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]], #[[$ID2]]], {{.*}} ins(%[[YS]], %[[MEAN]] : tensor<64x32xf32>, tensor<32xf32>)
// CHECK:             %[[DOT:.*]] = linalg.generic {{.*}} ins(%[[YC]], %[[XT]] : tensor<64x32xf32>, tensor<32x64xf32>)
// CHECK:             %[[YN:.*]] = linalg.generic {{.*}} ins(%[[YC]] : tensor<64x32xf32>)
// s^T (and the block max) in place of the dot products.
// CHECK:             linalg.generic {indexing_maps = [#[[$D0]], #[[$D1]], #[[$D0]], #[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[YN]], %[[XN]], %{{.*}} : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%[[DOT]], %{{.*}} : tensor<64x64xf32>, tensor<64xf32>)
// CHECK:               arith.maximumf
func.func @kernel_lse_expanded(%x: tensor<64x32xf32>, %y: tensor<?x32xf32>, %eps: tensor<f32>, %g: tensor<?xf32>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<64x32xf32>, tensor<?x32xf32>, tensor<f32>) g(%g : tensor<?xf32>) outs(%o : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
