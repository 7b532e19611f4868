// RUN: mixer-opt %s --mixer-contract-float-ops | FileCheck %s

// Every multiply, add and subtract, scalar or vector, f32 or f64, gains the
// `contract` flag; flags already there stay; other float ops are left as
// they are.

// CHECK-LABEL: func.func @multiply_adds
// CHECK:         arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:         arith.subf %{{.+}}, %{{.+}} fastmath<contract> : f64
// CHECK:         arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : vector<8xf32>
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<nnan,contract> : vector<8xf32>
// CHECK:         arith.divf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK:         arith.maximumf %{{.+}}, %{{.+}} : vector<8xf32>
func.func @multiply_adds(%a: f32, %b: f32, %c: f64, %d: f64,
                         %u: vector<8xf32>, %v: vector<8xf32>)
    -> (f32, f64, vector<8xf32>) {
  %p = arith.mulf %a, %b : f32
  %s = arith.addf %p, %a : f32
  %t = arith.subf %c, %d : f64
  %q = arith.mulf %u, %v : vector<8xf32>
  %r = arith.addf %q, %u fastmath<nnan> : vector<8xf32>
  %w = arith.divf %r, %v : vector<8xf32>
  %m = arith.maximumf %w, %u : vector<8xf32>
  return %s, %t, %m : f32, f64, vector<8xf32>
}
