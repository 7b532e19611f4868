//===- MixerDialect.cpp - mixer dialect, attributes and generated ops -----===//
//
// The only translation unit that includes the generated op definitions; the
// hand-written verifiers, builders and tiling of each op family live in
// ScanOps.cpp, KernelOps.cpp and MoEOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ParallelTilePolicies.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mixer;

#include "mixer/Dialect/Mixer/IR/MixerDialect.cpp.inc"
#include "mixer/Dialect/Mixer/IR/MixerEnums.cpp.inc"
#include "mixer/Dialect/Mixer/IR/MixerInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mixer/Dialect/Mixer/IR/MixerAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "mixer/Dialect/Mixer/IR/MixerOps.cpp.inc"

void MixerDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mixer/Dialect/Mixer/IR/MixerAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mixer/Dialect/Mixer/IR/MixerOps.cpp.inc"
      >();
  attachTilingInterfaceModels(*getContext());
  attachScanVjpModels(*getContext());
  attachKernelVjpModels(*getContext());
  attachMoEVjpModels(*getContext());
}
