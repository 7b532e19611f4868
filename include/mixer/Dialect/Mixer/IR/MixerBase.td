//===- MixerBase.td - mixer dialect definition -------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERBASE_TD
#define MIXER_DIALECT_MIXER_IR_MIXERBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mixer_Dialect : Dialect {
  let name = "mixer";
  let cppNamespace = "::mlir::mixer";
  let summary = "Chunked linear-recurrence scans, kernel reductions and grouped GEMMs";
  let description = [{
    The `mixer` dialect describes the non-softmax building blocks of modern
    sequence models and probabilistic ML at the level at which they are
    written down: chunked linear-recurrence scans (Mamba-2 SSD, the Mamba
    selective scan, causal linear attention, Gated DeltaNet), kernel
    reductions that never materialize the N x M kernel matrix (kernel
    mat-vec, log-domain kernel logsumexp, Sinkhorn), and the MoE grouped GEMM
    with its routing.

    All ops work on ranked tensors in time-major layout
    `[batch, length, heads, dim]`, are in destination-passing style (the
    `outs` operands give the result shapes). Ops with independent work
    state their loops and one indexing map per operand
    (`MixerStructuredOpInterface`), from which one model implements
    `TilingInterface` over their tileable parallel dimensions (batch and
    heads of a scan, rows of a kernel sum, columns of a grouped GEMM) and
    their fusion with producers and consumers; the composites
    (`mixer.sinkhorn`) and the global sort of `mixer.moe_dispatch` do not. The exact math of each op is in its
    description; `include/mixer/Reference` holds an independent fp64
    implementation of each.
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERBASE_TD
