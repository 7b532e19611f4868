// RUN: mixer-opt %s --mixer-generate-vjp | FileCheck %s
// RUN: mixer-opt %s --mixer-generate-vjp --mixer-generate-vjp | FileCheck %s --check-prefix=TWICE

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#chan = affine_map<(d0, d1, d2) -> (d2)>

// y * silu(z): the gradient generic reads the inputs and the cotangent and
// writes both input cotangents; no loop is summed.
// CHECK-LABEL: func.func @silu_gate_vjp(
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<2x8x4xf32>, %[[Z:[^:]+]]: tensor<2x8x4xf32>,
// CHECK-SAME:    %[[DOUT:[^:]+]]: tensor<2x8x4xf32>,
// CHECK-SAME:    %[[DY0:[^:]+]]: tensor<2x8x4xf32> {bufferization.writable = true},
// CHECK-SAME:    %[[DZ0:[^:]+]]: tensor<2x8x4xf32> {bufferization.writable = true})
// CHECK-SAME:    -> (tensor<2x8x4xf32>, tensor<2x8x4xf32>) attributes {mixer.vjp}
// CHECK:         %[[G:.+]]:2 = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[Y]], %[[Z]], %[[DOUT]] :
// CHECK:           math.exp
// CHECK:           linalg.yield
// CHECK:         %[[RY:.+]] = linalg.copy ins(%[[G]]#0 {{.*}} outs(%[[DY0]]
// CHECK:         %[[RZ:.+]] = linalg.copy ins(%[[G]]#1 {{.*}} outs(%[[DZ0]]
// CHECK:         return %[[RY]], %[[RZ]]
// TWICE-LABEL: func.func @silu_gate_vjp(
// TWICE-NOT:   func.func @silu_gate_vjp_vjp
func.func @silu_gate(%y: tensor<2x8x4xf32>, %z: tensor<2x8x4xf32>,
                     %out: tensor<2x8x4xf32> {bufferization.writable = true})
    -> tensor<2x8x4xf32> {
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %z : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%out : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %nb = arith.negf %b : f32
    %e = math.exp %nb : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %b, %d : f32
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}

// x * softplus(dt + bias): dt is broadcast over the channels and bias over
// the rows, so their cotangents are sums, each a generic of its own with
// reduction loops into a zero-filled tensor; x's is elementwise.
// CHECK-LABEL: func.func @dt_softplus_vjp(
// CHECK-SAME:    -> (tensor<2x8x4xf32>, tensor<2x8xf32>, tensor<4xf32>)
// CHECK:         %[[DX:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           math.log1p
// CHECK:         %[[Z1:.+]] = linalg.fill
// CHECK:         %[[DDT:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      outs(%[[Z1]] : tensor<2x8xf32>)
// CHECK:         ^bb0({{.*}}, %[[ACC:[^:]+]]: f32):
// CHECK:           %[[S:.+]] = arith.addf %[[ACC]],
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         %[[Z2:.+]] = linalg.fill
// CHECK:         %[[DB:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "reduction", "parallel"]
// CHECK-SAME:      outs(%[[Z2]] : tensor<4xf32>)
// CHECK:         linalg.copy ins(%[[DX]]
// CHECK:         linalg.copy ins(%[[DDT]]
// CHECK:         linalg.copy ins(%[[DB]]
// CHECK:         return
func.func @dt_softplus(%x: tensor<2x8x4xf32>, %dt: tensor<2x8xf32>, %bias: tensor<4xf32>,
                       %out: tensor<2x8x4xf32> {bufferization.writable = true})
    -> tensor<2x8x4xf32> {
  %r = linalg.generic {indexing_maps = [#id3, #row, #chan, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %dt, %bias : tensor<2x8x4xf32>, tensor<2x8xf32>, tensor<4xf32>)
      outs(%out : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %t: f32, %c: f32, %o: f32):
    %v = arith.addf %t, %c : f32
    %e = math.exp %v : f32
    %sp = math.log1p %e : f32
    %m = arith.mulf %a, %sp : f32
    linalg.yield %m : f32
  } -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}

// A value used twice (x feeds both generics and the second generic reads it
// twice): its cotangents are summed with an elementwise add.
// CHECK-LABEL: func.func @reuse_vjp(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?xf32>, %[[DR:[^:]+]]: tensor<?xf32>
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:         linalg.copy
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @reuse(%x: tensor<?xf32>, %out: tensor<?xf32> {bufferization.writable = true})
    -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %th = math.tanh %a : f32
    linalg.yield %th : f32
  } -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%t, %x, %x : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%out : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m = arith.mulf %b, %c : f32
    %s = arith.addf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Named ops are generalized: the matmul's reduction only accumulates, so
// each operand's cotangent is a contraction of the other with the
// cotangent, summing over the loop it lacks, and its initial value gets the
// cotangent as it is (here dropped by the fill); the transpose's is the
// transposed cotangent. The index input gets no gradient.
// CHECK-LABEL: func.func @matmul_transpose_vjp(
// CHECK-SAME:    %{{[^:]+}}: tensor<4x6xf32>, %{{[^:]+}}: tensor<5x6xf32>, %{{[^:]+}}: tensor<3xi32>,
// CHECK-SAME:    %{{[^:]+}}: tensor<4x5xf32>, %{{[^:]+}}: tensor<3xi32>,
// CHECK-SAME:    tensor<4x6xf32> {bufferization.writable = true}, %{{[^:]+}}: tensor<5x6xf32> {bufferization.writable = true})
// CHECK-SAME:    -> (tensor<4x6xf32>, tensor<5x6xf32>)
// CHECK:         %[[BT:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:         %[[DA:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %[[BT]], %{{.+}} :
// CHECK:         %[[DBT:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "parallel"]
// CHECK:         %[[DB:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[DBT]] :
// CHECK:         linalg.copy ins(%[[DA]]
// CHECK:         linalg.copy ins(%[[DB]]
// CHECK:         return
func.func @matmul_transpose(%a: tensor<4x6xf32>, %b: tensor<5x6xf32>, %idx: tensor<3xi32>,
                            %out: tensor<4x5xf32> {bufferization.writable = true},
                            %iout: tensor<3xi32> {bufferization.writable = true})
    -> (tensor<4x5xf32>, tensor<3xi32>) {
  %e = tensor.empty() : tensor<6x5xf32>
  %bt = linalg.transpose ins(%b : tensor<5x6xf32>) outs(%e : tensor<6x5xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%out : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %bt : tensor<4x6xf32>, tensor<6x5xf32>)
                     outs(%acc : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r, %idx : tensor<4x5xf32>, tensor<3xi32>
}

// Slices: the extracted window's cotangent is inserted into zeros; the
// inserted slice gets the window of the cotangent and the destination the
// rest.
// CHECK-LABEL: func.func @slices_vjp(
// CHECK:         tensor.extract_slice %{{.+}}[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
// CHECK:         return
func.func @slices(%x: tensor<8xf32>, %y: tensor<8xf32>,
                  %out: tensor<8xf32> {bufferization.writable = true}) -> tensor<8xf32> {
  %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = tensor.insert_slice %s into %y[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// Private functions are not differentiated.
// CHECK-NOT: func.func @helper_vjp
func.func private @helper(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
