//===- Passes.h - mixer conversion passes -----------------------*- C++ -*-===//

#ifndef MIXER_CONVERSION_PASSES_H
#define MIXER_CONVERSION_PASSES_H

#include "mixer/Conversion/MixerToLinalg/MixerToLinalg.h"
#include "mixer/Conversion/MixerToLoops/MixerToLoops.h"

namespace mlir::mixer {

#define GEN_PASS_REGISTRATION
#include "mixer/Conversion/Passes.h.inc"

} // namespace mlir::mixer

#endif // MIXER_CONVERSION_PASSES_H
