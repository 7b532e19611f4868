// Every mixer op at static shapes: the input of the GPU pipeline tests.

func.func @ssd(%x: tensor<2x256x4x64xf32>, %la: tensor<2x256x4xf32>,
               %b: tensor<2x256x2x64xf32>, %c: tensor<2x256x2x64xf32>,
               %y0: tensor<2x256x4x64xf32>, %s0: tensor<2x4x64x64xf32>)
    -> (tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<2x256x4x64xf32>, tensor<2x256x4xf32>,
                            tensor<2x256x2x64xf32>, tensor<2x256x2x64xf32>)
      outs(%y0, %s0 : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>)
      -> tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
  return %y, %s : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
}

func.func @selective_scan(%u: tensor<2x128x256xf32>, %dt: tensor<2x128x256xf32>,
    %A: tensor<256x16xf32>, %b: tensor<2x128x1x16xf32>, %c: tensor<2x128x1x16xf32>,
    %d: tensor<256xf32>, %z: tensor<2x128x256xf32>, %db: tensor<256xf32>,
    %y0: tensor<2x128x256xf32>, %s0: tensor<2x256x16xf32>)
    -> (tensor<2x128x256xf32>, tensor<2x256x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<2x128x256xf32>, tensor<2x128x256xf32>,
          tensor<256x16xf32>, tensor<2x128x1x16xf32>, tensor<2x128x1x16xf32>)
      D_skip(%d : tensor<256xf32>) z(%z : tensor<2x128x256xf32>)
      delta_bias(%db : tensor<256xf32>)
      outs(%y0, %s0 : tensor<2x128x256xf32>, tensor<2x256x16xf32>)
      -> tensor<2x128x256xf32>, tensor<2x256x16xf32>
  return %y, %s : tensor<2x128x256xf32>, tensor<2x256x16xf32>
}

func.func @linear_attention(%q: tensor<2x256x4x64xf32>, %k: tensor<2x256x4x64xf32>,
    %v: tensor<2x256x4x64xf32>, %o0: tensor<2x256x4x64xf32>,
    %s0: tensor<2x4x64x64xf32>) -> (tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64)
      ins(%q, %k, %v : tensor<2x256x4x64xf32>, tensor<2x256x4x64xf32>, tensor<2x256x4x64xf32>)
      outs(%o0, %s0 : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>)
      -> tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
  return %o, %s : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
}

func.func @gated_delta_rule(%q: tensor<2x256x4x64xf32>, %k: tensor<2x256x4x64xf32>,
    %v: tensor<2x256x4x64xf32>, %g: tensor<2x256x4xf32>, %beta: tensor<2x256x4xf32>,
    %o0: tensor<2x256x4x64xf32>, %s0: tensor<2x4x64x64xf32>)
    -> (tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64)
      ins(%q, %k, %v, %g, %beta : tensor<2x256x4x64xf32>, tensor<2x256x4x64xf32>,
          tensor<2x256x4x64xf32>, tensor<2x256x4xf32>, tensor<2x256x4xf32>)
      outs(%o0, %s0 : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>)
      -> tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
  return %o, %s : tensor<2x256x4x64xf32>, tensor<2x4x64x64xf32>
}

func.func @kernel_mv(%x: tensor<4096x8xf32>, %y: tensor<4096x8xf32>,
    %v: tensor<4096x16xf32>, %h: tensor<f32>, %o: tensor<4096x16xf32>) -> tensor<4096x16xf32> {
  %r = mixer.kernel_mv kernel(gaussian)
      ins(%x, %y, %v, %h : tensor<4096x8xf32>, tensor<4096x8xf32>, tensor<4096x16xf32>, tensor<f32>)
      outs(%o : tensor<4096x16xf32>) -> tensor<4096x16xf32>
  return %r : tensor<4096x16xf32>
}

func.func @kernel_lse(%x: tensor<4096x8xf32>, %y: tensor<4096x8xf32>, %eps: tensor<f32>,
    %g: tensor<4096xf32>, %o: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean)
      ins(%x, %y, %eps : tensor<4096x8xf32>, tensor<4096x8xf32>, tensor<f32>)
      g(%g : tensor<4096xf32>) outs(%o : tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}

func.func @transport_cost(%x: tensor<4096x8xf32>, %y: tensor<4096x8xf32>, %u: tensor<4096xf32>,
    %v: tensor<4096xf32>, %eps: tensor<f32>, %o: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = mixer.transport_cost cost(sqeuclidean)
      ins(%x, %y, %u, %v, %eps : tensor<4096x8xf32>, tensor<4096x8xf32>, tensor<4096xf32>,
          tensor<4096xf32>, tensor<f32>)
      outs(%o : tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}

func.func @sinkhorn(%x: tensor<1024x8xf32>, %y: tensor<1024x8xf32>, %la: tensor<1024xf32>,
    %lb: tensor<1024xf32>, %eps: tensor<f32>, %f0: tensor<1024xf32>, %g0: tensor<1024xf32>,
    %c0: tensor<f32>) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10)
      ins(%x, %y, %la, %lb, %eps : tensor<1024x8xf32>, tensor<1024x8xf32>, tensor<1024xf32>,
          tensor<1024xf32>, tensor<f32>)
      outs(%f0, %g0, %c0 : tensor<1024xf32>, tensor<1024xf32>, tensor<f32>)
      -> tensor<1024xf32>, tensor<1024xf32>, tensor<f32>
  return %f, %g, %c : tensor<1024xf32>, tensor<1024xf32>, tensor<f32>
}

func.func @grouped_matmul(%lhs: tensor<512x128xf32>, %rhs: tensor<8x128x256xf32>,
    %gs: tensor<8xi64>, %o: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %r = mixer.grouped_matmul
      ins(%lhs, %rhs, %gs : tensor<512x128xf32>, tensor<8x128x256xf32>, tensor<8xi64>)
      outs(%o : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}

func.func @grouped_swiglu(%x: tensor<512x128xf32>, %wg: tensor<8x128x256xf32>,
    %wu: tensor<8x128x256xf32>, %gs: tensor<8xi64>, %o: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %r = mixer.grouped_swiglu
      ins(%x, %wg, %wu, %gs : tensor<512x128xf32>, tensor<8x128x256xf32>,
          tensor<8x128x256xf32>, tensor<8xi64>)
      outs(%o : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}

func.func @topk_router(%l: tensor<256x8xf32>, %w0: tensor<256x2xf32>, %i0: tensor<256x2xi32>)
    -> (tensor<256x2xf32>, tensor<256x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<256x8xf32>)
      outs(%w0, %i0 : tensor<256x2xf32>, tensor<256x2xi32>) -> tensor<256x2xf32>, tensor<256x2xi32>
  return %w, %ids : tensor<256x2xf32>, tensor<256x2xi32>
}

func.func @moe_dispatch(%x: tensor<256x64xf32>, %ids: tensor<256x2xi32>, %s0: tensor<512x64xf32>,
    %g0: tensor<8xi64>, %p0: tensor<512xi32>)
    -> (tensor<512x64xf32>, tensor<8xi64>, tensor<512xi32>) {
  %s, %g, %p = mixer.moe_dispatch num_experts(8) ins(%x, %ids : tensor<256x64xf32>, tensor<256x2xi32>)
      outs(%s0, %g0, %p0 : tensor<512x64xf32>, tensor<8xi64>, tensor<512xi32>)
      -> tensor<512x64xf32>, tensor<8xi64>, tensor<512xi32>
  return %s, %g, %p : tensor<512x64xf32>, tensor<8xi64>, tensor<512xi32>
}

func.func @moe_combine(%eo: tensor<512x64xf32>, %p: tensor<512xi32>, %w: tensor<256x2xf32>,
    %o: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<512x64xf32>, tensor<512xi32>, tensor<256x2xf32>)
      outs(%o : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}
