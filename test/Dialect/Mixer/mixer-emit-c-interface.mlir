// RUN: mixer-opt %s --mixer-emit-c-interface | FileCheck %s

// Every public function with a body gets llvm.emit_c_interface; private
// functions and external declarations are left alone.

// CHECK-LABEL: func.func @public_with_body
// CHECK-SAME:    attributes {llvm.emit_c_interface}
func.func @public_with_body(%m: memref<4xf32>) {
  return
}

// Existing attributes are kept.
// CHECK-LABEL: func.func @public_with_attrs
// CHECK-SAME:    attributes {llvm.emit_c_interface, mixer.keep = 1 : i64}
func.func @public_with_attrs() attributes {mixer.keep = 1 : i64} {
  return
}

// CHECK-LABEL: func.func private @private_with_body
// CHECK-NOT:     llvm.emit_c_interface
// CHECK:         return
func.func private @private_with_body(%m: memref<4xf32>) {
  return
}

// CHECK:       func.func private @external(memref<4xf32>)
// CHECK-NOT:     llvm.emit_c_interface
func.func private @external(memref<4xf32>)

// Functions in nested modules are not visited.
// CHECK:       module @nested
// CHECK:         func.func @inner()
// CHECK-NOT:       llvm.emit_c_interface
// CHECK:           return
module @nested {
  func.func @inner() {
    return
  }
}
