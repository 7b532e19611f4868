// RUN: mixer-opt %s --mixer-approximate-math | FileCheck %s --implicit-check-not=math.exp

// math.exp on a vector becomes the polynomial of MLIR's math dialect on the
// same vector type: range reduction by ln(2), a polynomial in fmas, and the
// power of two built in the exponent bits. No libm call is left.

// CHECK-LABEL: func.func @exp_vector
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>) -> vector<16xf32>
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant dense<1.44269502> : vector<16xf32>
// CHECK-DAG:     %[[BIAS:.*]] = arith.constant dense<127> : vector<16xi32>
// CHECK-DAG:     %[[MANT:.*]] = arith.constant dense<23> : vector<16xi32>
// CHECK:         arith.cmpf uge, %[[X]], %{{.*}} : vector<16xf32>
// CHECK:         arith.select %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK:         math.fma %{{.*}}, %[[LOG2E]], %{{.*}} : vector<16xf32>
// CHECK:         math.floor %{{.*}} : vector<16xf32>
// CHECK-COUNT-5: math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:         %[[I:.*]] = arith.fptosi %{{.*}} : vector<16xf32> to vector<16xi32>
// CHECK-NEXT:    %[[E:.*]] = arith.addi %[[I]], %[[BIAS]] : vector<16xi32>
// CHECK-NEXT:    %[[SH:.*]] = arith.shli %[[E]], %[[MANT]] : vector<16xi32>
// CHECK-NEXT:    %[[P2:.*]] = arith.bitcast %[[SH]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %{{.*}}, %[[P2]] : vector<16xf32>
// CHECK-NEXT:    return %[[R]] : vector<16xf32>
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// f16 is widened to f32 for the polynomial and truncated back.

// CHECK-LABEL: func.func @exp_f16
// CHECK:         arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK:         math.fma {{.*}} : vector<4xf32>
// CHECK:         arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
func.func @exp_f16(%x: vector<4xf16>) -> vector<4xf16> {
  %0 = math.exp %x : vector<4xf16>
  return %0 : vector<4xf16>
}

// log and tanh have polynomials too.

// CHECK-LABEL: func.func @log_tanh
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK:         math.fma {{.*}} : vector<8xf32>
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK:         return
func.func @log_tanh(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.log %x : vector<8xf32>
  %1 = math.tanh %0 : vector<8xf32>
  return %1 : vector<8xf32>
}
