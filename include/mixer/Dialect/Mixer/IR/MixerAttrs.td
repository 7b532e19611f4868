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
    With r = ||x - y|| and bandwidth h (a 0-d tensor operand of the op):
    `gaussian` exp(-r^2 / (2 h^2)); `laplacian` exp(-r / h);
    `matern32` (1 + sqrt(3) r / h) exp(-sqrt(3) r / h);
    `inverse_multiquadric` 1 / sqrt(1 + r^2 / h^2); `linear` <x, y>.
    `sqeuclidean` is a cost only (c = r^2), for the log-domain ops.

    ```mlir
    #mixer.kernel<gaussian>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERATTRS_TD
