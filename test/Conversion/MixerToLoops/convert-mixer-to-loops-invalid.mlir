// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file -verify-diagnostics

// The scalar loops take any sizes, dynamic ones included; a composite op is
// expanded by mixer-decompose-composites first and is an error here.

func.func @sinkhorn(%x: tensor<?x2xf32>, %y: tensor<?x2xf32>, %la: tensor<?xf32>, %lb: tensor<?xf32>, %eps: tensor<f32>, %f0: tensor<?xf32>, %g0: tensor<?xf32>, %c0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mixer.sinkhorn' op cannot be lowered: it is a composite op: run mixer-decompose-composites first}}
  %f, %g, %c = mixer.sinkhorn cost(laplacian) iterations(5) ins(%x, %y, %la, %lb, %eps : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>, tensor<?xf32>, tensor<f32>
  return %c : tensor<f32>
}
