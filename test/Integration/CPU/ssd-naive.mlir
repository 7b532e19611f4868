// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=naive=true \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libomp.so,%mixer_lib_dir/libMixerRuntime.so \
// RUN: | FileCheck %s

// mixer.ssd through convert-mixer-to-loops, compiled and run. B = 1, L = 3,
// H = 2, P = 2, N = 2; head 0 has decay exp(0) = 1, head 1 decay
// exp(-0.693147182) = 0.5. S is P x N (rows p), S_t = a_t S_{t-1} + x_t b_t^T,
// y_t = S_t c_t.
//
//   x (t; h0, h1):  t0: [1,2], [2,0]   t1: [0,1], [1,1]   t2: [1,0], [0,3]
//   group 0:  b: t0 [1,0]  t1 [0,1]  t2 [1,1]    c: t0 [1,1]  t1 [1,0]  t2 [0,1]
//   group 1:  b: t0 [0,1]  t1 [1,0]  t2 [1,-1]   c: t0 [1,0]  t1 [1,1]  t2 [2,0]
//
// 1. @ssd: G = 1 (both heads read group 0), no init (S_{-1} = 0), B and L
//    dynamic.
//   h0: t0 S = [1,2]^T[1,0] = [[1,0],[2,0]]            y = S [1,1] = [1,2]
//       t1 S = S + [0,1]^T[0,1] = [[1,0],[2,1]]        y = S [1,0] = [1,2]
//       t2 S = S + [1,0]^T[1,1] = [[2,1],[2,1]]        y = S [0,1] = [1,1]
//   h1: t0 S = [2,0]^T[1,0] = [[2,0],[0,0]]            y = [2,0]
//       t1 S = S/2 + [1,1]^T[0,1] = [[1,1],[0,1]]      y = S [1,0] = [1,0]
//       t2 S = S/2 + [0,3]^T[1,1] = [[0.5,0.5],[3,3.5]] y = S [0,1] = [0.5,3.5]
//
// 2. @ssd_init: G = 2 (head h reads group h), init h0 = [[1,0],[0,1]],
//    h1 = [[2,2],[0,4]].
//   h0 (group 0, decay 1: the S of case 1 plus init):
//       t0 S = [[2,0],[2,1]]  y = [2,3];  t1 S = [[2,0],[2,2]]  y = [2,2];
//       t2 S = [[3,1],[2,2]]  y = [1,2]
//   h1 (group 1): t0 S = init/2 + [2,0]^T[0,1] = [[1,3],[0,2]]        y = S [1,0] = [1,0]
//                 t1 S = S/2 + [1,1]^T[1,0] = [[1.5,1.5],[1,1]]       y = S [1,1] = [3,2]
//                 t2 S = S/2 + [0,3]^T[1,-1] = [[0.75,0.75],[3.5,-2.5]] y = S [2,0] = [1.5,7]

func.func private @printMemrefF32(tensor<*xf32>)

func.func private @ssd(%x: tensor<?x?x2x2xf32>, %log_a: tensor<?x?x2xf32>,
                       %b: tensor<?x?x1x2xf32>, %c: tensor<?x?x1x2xf32>,
                       %y0: tensor<?x?x2x2xf32>, %s0: tensor<?x2x2x2xf32>)
    -> (tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>) {
  %y, %s = mixer.ssd chunk_size(2)
      ins(%x, %log_a, %b, %c : tensor<?x?x2x2xf32>, tensor<?x?x2xf32>,
                               tensor<?x?x1x2xf32>, tensor<?x?x1x2xf32>)
      outs(%y0, %s0 : tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>)
      -> tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>
  return %y, %s : tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>
}

func.func private @ssd_init(%x: tensor<1x3x2x2xf32>, %log_a: tensor<1x3x2xf32>,
                            %b: tensor<1x3x2x2xf32>, %c: tensor<1x3x2x2xf32>,
                            %init: tensor<1x2x2x2xf32>,
                            %y0: tensor<1x3x2x2xf32>, %s0: tensor<1x2x2x2xf32>)
    -> (tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>) {
  %y, %s = mixer.ssd chunk_size(2)
      ins(%x, %log_a, %b, %c : tensor<1x3x2x2xf32>, tensor<1x3x2xf32>,
                               tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>)
      init(%init : tensor<1x2x2x2xf32>)
      outs(%y0, %s0 : tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>)
      -> tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>
  return %y, %s : tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[[1.0, 2.0], [2.0, 0.0]],
                              [[0.0, 1.0], [1.0, 1.0]],
                              [[1.0, 0.0], [0.0, 3.0]]]]> : tensor<1x3x2x2xf32>
  %log_a = arith.constant dense<[[[0.0, -0.693147182],
                                  [0.0, -0.693147182],
                                  [0.0, -0.693147182]]]> : tensor<1x3x2xf32>
  %b1 = arith.constant dense<[[[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]]]]>
      : tensor<1x3x1x2xf32>
  %c1 = arith.constant dense<[[[[1.0, 1.0]], [[1.0, 0.0]], [[0.0, 1.0]]]]>
      : tensor<1x3x1x2xf32>
  %b2 = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]],
                               [[0.0, 1.0], [1.0, 0.0]],
                               [[1.0, 1.0], [1.0, -1.0]]]]> : tensor<1x3x2x2xf32>
  %c2 = arith.constant dense<[[[[1.0, 1.0], [1.0, 0.0]],
                               [[1.0, 0.0], [1.0, 1.0]],
                               [[0.0, 1.0], [2.0, 0.0]]]]> : tensor<1x3x2x2xf32>
  %init = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]],
                                 [[2.0, 2.0], [0.0, 4.0]]]]> : tensor<1x2x2x2xf32>

  // Case 1: dynamic B and L, G = 1, no init.
  %y0 = tensor.empty() : tensor<1x3x2x2xf32>
  %s0 = tensor.empty() : tensor<1x2x2x2xf32>
  %xd = tensor.cast %x : tensor<1x3x2x2xf32> to tensor<?x?x2x2xf32>
  %lad = tensor.cast %log_a : tensor<1x3x2xf32> to tensor<?x?x2xf32>
  %bd = tensor.cast %b1 : tensor<1x3x1x2xf32> to tensor<?x?x1x2xf32>
  %cd = tensor.cast %c1 : tensor<1x3x1x2xf32> to tensor<?x?x1x2xf32>
  %y0d = tensor.cast %y0 : tensor<1x3x2x2xf32> to tensor<?x?x2x2xf32>
  %s0d = tensor.cast %s0 : tensor<1x2x2x2xf32> to tensor<?x2x2x2xf32>
  %y, %s = call @ssd(%xd, %lad, %bd, %cd, %y0d, %s0d)
      : (tensor<?x?x2x2xf32>, tensor<?x?x2xf32>, tensor<?x?x1x2xf32>,
         tensor<?x?x1x2xf32>, tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>)
      -> (tensor<?x?x2x2xf32>, tensor<?x2x2x2xf32>)
  %yu = tensor.cast %y : tensor<?x?x2x2xf32> to tensor<*xf32>
  %su = tensor.cast %s : tensor<?x2x2x2xf32> to tensor<*xf32>
  // CHECK:      rank = 4 offset = 0 sizes = [1, 3, 2, 2]
  // CHECK-NEXT: {{\[}}[{{\[}}[1,   2],
  // CHECK-NEXT:    [2,   0]],
  // CHECK-NEXT:   {{\[}}[1,   2],
  // CHECK-NEXT:    [1,   0]],
  // CHECK-NEXT:   {{\[}}[1,   1],
  // CHECK-NEXT:    [0.5,   3.5]]]]
  call @printMemrefF32(%yu) : (tensor<*xf32>) -> ()
  // CHECK:      rank = 4 offset = 0 sizes = [1, 2, 2, 2]
  // CHECK-NEXT: {{\[}}[{{\[}}[2,   1],
  // CHECK-NEXT:    [2,   1]],
  // CHECK-NEXT:   {{\[}}[0.5,   0.5],
  // CHECK-NEXT:    [3,   3.5]]]]
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()

  // Case 2: static shapes, G = 2, with init.
  %y1 = tensor.empty() : tensor<1x3x2x2xf32>
  %s1 = tensor.empty() : tensor<1x2x2x2xf32>
  %yi, %si = call @ssd_init(%x, %log_a, %b2, %c2, %init, %y1, %s1)
      : (tensor<1x3x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2x2xf32>,
         tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x3x2x2xf32>,
         tensor<1x2x2x2xf32>)
      -> (tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>)
  %yiu = tensor.cast %yi : tensor<1x3x2x2xf32> to tensor<*xf32>
  %siu = tensor.cast %si : tensor<1x2x2x2xf32> to tensor<*xf32>
  // CHECK:      rank = 4 offset = 0 sizes = [1, 3, 2, 2]
  // CHECK-NEXT: {{\[}}[{{\[}}[2,   3],
  // CHECK-NEXT:    [1,   0]],
  // CHECK-NEXT:   {{\[}}[2,   2],
  // CHECK-NEXT:    [3,   2]],
  // CHECK-NEXT:   {{\[}}[1,   2],
  // CHECK-NEXT:    [1.5,   7]]]]
  call @printMemrefF32(%yiu) : (tensor<*xf32>) -> ()
  // CHECK:      rank = 4 offset = 0 sizes = [1, 2, 2, 2]
  // CHECK-NEXT: {{\[}}[{{\[}}[3,   1],
  // CHECK-NEXT:    [2,   2]],
  // CHECK-NEXT:   {{\[}}[0.75,   0.75],
  // CHECK-NEXT:    [3.5,   -2.5]]]]
  call @printMemrefF32(%siu) : (tensor<*xf32>) -> ()
  return
}
