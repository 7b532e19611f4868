// RUN: mixer-opt %s --mixer-insert-runtime-checks --split-input-file | FileCheck %s

// Dynamic lengths are compared with x's, log_a is reduced to its maximum
// and minimum (its heads first into one lane each, then the lanes), and
// the op runs only if every check holds; otherwise each failed check is
// reported and the outs pass through.

// CHECK-DAG: llvm.mlir.global internal constant @[[LEN:__mixer_check_message_[0-9]+]]("mixer.ssd: 'log_a' dim 1 (L) is {0}, but 'x' dim 1 (L) is {1}\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[DECAY:__mixer_check_message_[0-9]+]]("mixer.ssd: 'log_a' holds a positive, infinite or NaN value; it must be finite and <= 0 (a log-decay or log-gate)\00")
// CHECK-LABEL: func.func @ssd_dynamic_length
// CHECK-SAME:    (%[[X:.*]]: tensor<1x?x4x8xf32>, %[[LA:.*]]: tensor<1x?x4xf32>, {{.*}}, %[[Y0:.*]]: tensor<1x?x4x8xf32>, %[[S0:.*]]: tensor<1x4x8x16xf32>)
// CHECK:         %[[LLA:.*]] = tensor.dim %[[LA]], %{{.*}} : tensor<1x?x4xf32>
// CHECK:         %[[LLA64:.*]] = arith.index_cast %[[LLA]] : index to i64
// CHECK:         %[[LX:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<1x?x4x8xf32>
// CHECK:         %[[LX64:.*]] = arith.index_cast %[[LX]] : index to i64
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[LLA64]], %[[LX64]] : i64
// CHECK:         %[[LANES:.*]]:2 = linalg.generic {{.*}}iterator_types = ["reduction", "reduction", "parallel"]{{.*}} ins(%[[LA]] : tensor<1x?x4xf32>) outs({{.*}} : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:         %[[MAX:.*]]:2 = linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[LANES]]#0, %[[LANES]]#1 : tensor<4xf32>, tensor<4xf32>) outs({{.*}} : tensor<f32>, tensor<f32>)
// CHECK:         %[[MAXV:.*]] = tensor.extract %[[MAX]]#0[] : tensor<f32>
// CHECK:         %[[MINV:.*]] = tensor.extract %[[MAX]]#1[] : tensor<f32>
// CHECK:         %[[NONPOS:.*]] = arith.cmpf ole, %[[MAXV]], %{{.*}} : f32
// CHECK:         %[[FINITE:.*]] = arith.cmpf ogt, %[[MINV]], %{{.*}} : f32
// CHECK:         %[[DECAYOK:.*]] = arith.andi %[[NONPOS]], %[[FINITE]] : i1
// CHECK:         %[[OK:.*]] = arith.andi %{{.*}}, %[[DECAYOK]] : i1
// CHECK:         %[[R:.*]]:2 = scf.if %[[OK]]
// CHECK-NEXT:      %[[Y:.*]], %[[S:.*]] = mixer.ssd
// CHECK-NEXT:      scf.yield %[[Y]], %[[S]]
// CHECK-NEXT:    } else {
// CHECK:           %[[BAD:.*]] = arith.xori %[[SAME]], %{{.*}} : i1
// CHECK-NEXT:      scf.if %[[BAD]] {
// CHECK-NEXT:        %[[MSG:.*]] = llvm.mlir.addressof @[[LEN]] : !llvm.ptr
// CHECK-NEXT:        func.call @mixerRuntimeCheckFailed(%[[MSG]], %[[LLA64]], %[[LX64]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK:           llvm.mlir.addressof @[[DECAY]]
// CHECK:           scf.yield %[[Y0]], %[[S0]]
// CHECK:         return %[[R]]#0, %[[R]]#1
// CHECK:       func.func private @mixerRuntimeCheckFailed(!llvm.ptr, i64, i64)
func.func @ssd_dynamic_length(%x: tensor<1x?x4x8xf32>, %la: tensor<1x?x4xf32>, %b: tensor<1x?x1x16xf32>, %c: tensor<1x?x1x16xf32>, %y0: tensor<1x?x4x8xf32>, %s0: tensor<1x4x8x16xf32>) -> (tensor<1x?x4x8xf32>, tensor<1x4x8x16xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<1x?x4x8xf32>, tensor<1x?x4xf32>, tensor<1x?x1x16xf32>, tensor<1x?x1x16xf32>)
      outs(%y0, %s0 : tensor<1x?x4x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x?x4x8xf32>, tensor<1x4x8x16xf32>
  return %y, %s : tensor<1x?x4x8xf32>, tensor<1x4x8x16xf32>
}

// -----

// Static shapes and a linear kernel (no bandwidth to check): nothing to do.

// CHECK-LABEL: func.func @nothing_to_check
// CHECK-NEXT:    %[[R:.*]] = mixer.kernel_mv kernel(linear)
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:   mixerRuntimeCheckFailed
func.func @nothing_to_check(%x: tensor<5x3xf32>, %y: tensor<7x3xf32>, %v: tensor<7x2xf32>, %h: tensor<f32>, %o: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %r = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<5x3xf32>, tensor<7x3xf32>, tensor<7x2xf32>, tensor<f32>) outs(%o : tensor<5x2xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// -----

// The T*k slots against T times k, both dynamic, and the permutation's
// entries below T*k from one min/max/sum reduction.

// CHECK-DAG: @{{.*}}("mixer.moe_combine: 'expert_out' dim 0 (T*k) is {0}, but T*k ('weights' dim 0 (T) times 'weights' dim 1 (k)) is {1}\00")
// CHECK-DAG: @{{.*}}("mixer.moe_combine: 'permutation' holds index {0}, not below T*k = {1} ('expert_out' dim 0 (T*k))\00")
// CHECK-DAG: @{{.*}}("mixer.moe_combine: 'permutation' holds a negative index {0}\00")
// CHECK-LABEL: func.func @combine
// CHECK-SAME:    (%[[EO:.*]]: tensor<?x8xf32>, %[[P:.*]]: tensor<?xi32>, %[[W:.*]]: tensor<?x2xf32>
// CHECK-DAG:     %[[T:.*]] = tensor.dim %[[W]], %c0
// CHECK-DAG:     %[[SLOTS:.*]] = tensor.dim %[[EO]], %c0
// CHECK:         arith.muli
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<?xi32>)
// CHECK:           arith.extsi
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:           arith.addi
// CHECK:         scf.if
// CHECK-NEXT:      mixer.moe_combine
func.func @combine(%eo: tensor<?x8xf32>, %perm: tensor<?xi32>, %w: tensor<?x2xf32>, %out: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = mixer.moe_combine ins(%eo, %perm, %w : tensor<?x8xf32>, tensor<?xi32>, tensor<?x2xf32>)
      outs(%out : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// With T dynamic, the T*k slots must fit the i32 permutation; the expert ids
// must be below the attribute's E.

// CHECK-DAG: @{{.*}}("mixer.moe_dispatch: 'sorted' dim 0 (T*k) = {0} slots cannot be indexed by i32 elements\00")
// CHECK-DAG: @{{.*}}("mixer.moe_dispatch: 'expert_ids' holds index {0}, not below E = {1} (attribute 'num_experts')\00")
// CHECK-LABEL: func.func @dispatch_dynamic_tokens
// CHECK:         %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK-NEXT:    arith.cmpi sle, %{{.*}}, %[[MAX]] : i64
// CHECK:         scf.if
// CHECK-NEXT:      mixer.moe_dispatch
func.func @dispatch_dynamic_tokens(%x: tensor<?x32xf32>, %ids: tensor<?x2xi32>, %s0: tensor<?x32xf32>, %g0: tensor<4xi64>, %p0: tensor<?xi32>) -> (tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>) {
  %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<?x32xf32>, tensor<?x2xi32>)
      outs(%s0, %g0, %p0 : tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>) -> tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>
  return %sorted, %sizes, %perm : tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>
}
