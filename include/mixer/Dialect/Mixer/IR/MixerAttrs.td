//===- MixerAttrs.td - mixer attributes --------------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERATTRS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERATTRS_TD

include "mixer/Dialect/Mixer/IR/MixerBase.td"
include "mlir/IR/EnumAttr.td"

def Mixer_KernelKind : I32EnumAttr<"KernelKind", "kernel function of a kernel reduction", [
    I32EnumAttrCase<"gaussian", 0>,
    I32EnumAttrCase<"laplacian", 1>,
    I32EnumAttrCase<"matern32", 2>,
    I32EnumAttrCase<"inverse_multiquadric", 3>,
    I32EnumAttrCase<"linear", 4>,
    I32EnumAttrCase<"sqeuclidean", 5>
  ]> {
  let cppNamespace = "::mlir::mixer";
  let genSpecializedAttr = 0;
}

def Mixer_KernelAttr : EnumAttr<Mixer_Dialect, Mixer_KernelKind, "kernel"> {
  let summary = "kernel (or cost) of a kernel reduction";
  let description = [{
    The kernel function k(x, y) of mixer.kernel_mv, or the cost c(x, y) of
    the log-domain ops mixer.kernel_lse and mixer.sinkhorn. With
    r = ||x - y||_2 and bandwidth h (a 0-d tensor operand of the op):

    ```
    kind                  kernel k (kernel_mv)                     cost c (kernel_lse, sinkhorn)
    gaussian              exp(-r^2 / (2 h^2))                      r^2 / 2
    laplacian             exp(-r / h)                              r
    matern32              (1 + sqrt(3) r / h) exp(-sqrt(3) r / h)  -
    inverse_multiquadric  1 / sqrt(1 + r^2 / h^2)                  -
    linear                <x, y>  (h ignored)                      -
    sqeuclidean           -                                        r^2
    ```

    A cost c at regularization eps gives the kernel exp(-c / eps): the
    gaussian cost is the gaussian kernel with h^2 = eps, the laplacian cost
    the laplacian kernel with h = eps. The ops' verifiers reject a kind
    outside their column. In the custom form of an op the kind is written as
    a bare keyword (`kernel(gaussian)`); as an attribute:

    ```mlir
    #mixer.kernel<gaussian>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERATTRS_TD
