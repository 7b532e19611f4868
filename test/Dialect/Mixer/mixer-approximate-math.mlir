// RUN: mixer-opt %s --mixer-approximate-math | FileCheck %s --implicit-check-not=math.exp

// math.exp on a vector becomes the polynomial of MLIR's math dialect on the
// same vector type, with the power of two from one FMA: x clamped to
// [-87.8, 88.8] by selects that let NaN through, t = x log2(e) + 1.5 * 2^23
// + 127 rounded by the FMA and clamped so that n = t - (1.5 * 2^23 + 127)
// is at most 127, range reduction by ln(2), a polynomial in fmas, and 2^n
// from t's low bits shifted into the exponent field. No floor, no
// float-to-int conversion, no libm call.

// CHECK-LABEL: func.func @exp_vector
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>) -> vector<16xf32>
// CHECK-DAG:     %[[HIGHEST:.*]] = arith.constant dense<8.880000e+01> : vector<16xf32>
// CHECK-DAG:     %[[LOWEST:.*]] = arith.constant dense<-8.780000e+01> : vector<16xf32>
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant dense<1.44269502> : vector<16xf32>
// CHECK-DAG:     %[[SHIFTER:.*]] = arith.constant dense<0x4B40007F> : vector<16xf32>
// CHECK-DAG:     %[[TMAX:.*]] = arith.constant dense<0x4B4000FE> : vector<16xf32>
// CHECK-DAG:     %[[MANT:.*]] = arith.constant dense<23> : vector<16xi32>
// CHECK:         %[[LE:.*]] = arith.cmpf ule, %[[X]], %[[HIGHEST]] : vector<16xf32>
// CHECK:         %[[H:.*]] = arith.select %[[LE]], %[[X]], %[[HIGHEST]] : vector<16xi1>, vector<16xf32>
// CHECK:         %[[GE:.*]] = arith.cmpf uge, %[[H]], %[[LOWEST]] : vector<16xf32>
// CHECK:         %[[C:.*]] = arith.select %[[GE]], %[[H]], %[[LOWEST]] : vector<16xi1>, vector<16xf32>
// CHECK:         %[[T0:.*]] = math.fma %[[C]], %[[LOG2E]], %[[SHIFTER]] : vector<16xf32>
// CHECK:         %[[TLE:.*]] = arith.cmpf ule, %[[T0]], %[[TMAX]] : vector<16xf32>
// CHECK:         %[[T:.*]] = arith.select %[[TLE]], %[[T0]], %[[TMAX]] : vector<16xi1>, vector<16xf32>
// CHECK:         %[[N:.*]] = arith.subf %[[T]], %[[SHIFTER]] : vector<16xf32>
// CHECK-NOT:     math.floor
// CHECK-COUNT-7: math.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     arith.fptosi
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[T]] : vector<16xf32> to vector<16xi32>
// CHECK-NEXT:    %[[SH:.*]] = arith.shli %[[BITS]], %[[MANT]] : vector<16xi32>
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

// exp(min(x, 0)) (the lowerings' exp of values <= 0): the same polynomial
// without the clamps that x <= 0 makes redundant, and 2^n from the low bits
// of x log2(e) + 1.5 * 2^23 + 127 (one FMA): no floor, no float-to-int
// conversion, one clamp.
// CHECK-LABEL: func.func @exp_non_positive
// CHECK-SAME:    (%[[X:.*]]: vector<8xf32>) -> vector<8xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-DAG:     %[[LOWEST:.*]] = arith.constant dense<-8.780000e+01> : vector<8xf32>
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK-DAG:     %[[SHIFTER:.*]] = arith.constant dense<0x4B40007F> : vector<8xf32>
// CHECK-DAG:     %[[MANT:.*]] = arith.constant dense<23> : vector<8xi32>
// CHECK:         %[[M:.*]] = arith.minimumf %[[X]], %[[ZERO]] : vector<8xf32>
// CHECK:         %[[GE:.*]] = arith.cmpf uge, %[[M]], %[[LOWEST]] : vector<8xf32>
// CHECK:         %[[C:.*]] = arith.select %[[GE]], %[[M]], %[[LOWEST]] : vector<8xi1>, vector<8xf32>
// CHECK-NOT:     arith.cmpf
// CHECK:         %[[T:.*]] = math.fma %[[C]], %[[LOG2E]], %[[SHIFTER]] : vector<8xf32>
// CHECK:         %[[N:.*]] = arith.subf %[[T]], %[[SHIFTER]] : vector<8xf32>
// CHECK-COUNT-7: math.fma {{.*}} : vector<8xf32>
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[T]] : vector<8xf32> to vector<8xi32>
// CHECK:         %[[SH:.*]] = arith.shli %[[BITS]], %[[MANT]] : vector<8xi32>
// CHECK:         %[[P2:.*]] = arith.bitcast %[[SH]] : vector<8xi32> to vector<8xf32>
// CHECK:         %[[R:.*]] = arith.mulf %{{.*}}, %[[P2]] : vector<8xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     math.floor
func.func @exp_non_positive(%x: vector<8xf32>) -> vector<8xf32> {
  %z = arith.constant dense<0.0> : vector<8xf32>
  %m = arith.minimumf %x, %z : vector<8xf32>
  %0 = math.exp %m : vector<8xf32>
  return %0 : vector<8xf32>
}

// A scalar exp(min(x, -1)) takes the same form; min(x, 1) can be positive
// and takes the general one, clamped above.
// CHECK-LABEL: func.func @exp_min_bounds
// CHECK:         arith.minimumf
// CHECK-NOT:     arith.cmpf ule
// CHECK:         arith.shli %{{.*}} : i32
// CHECK:         arith.minimumf
// CHECK:         arith.cmpf ule
// CHECK:         arith.shli %{{.*}} : i32
// CHECK:         return
func.func @exp_min_bounds(%x: f32) -> (f32, f32) {
  %c = arith.constant -1.0 : f32
  %one = arith.constant 1.0 : f32
  %m = arith.minimumf %x, %c : f32
  %0 = math.exp %m : f32
  %p = arith.minimumf %x, %one : f32
  %1 = math.exp %p : f32
  return %0, %1 : f32, f32
}
