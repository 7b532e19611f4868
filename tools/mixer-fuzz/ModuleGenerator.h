//===- ModuleGenerator.h - random small modules of one mixer op -*- C++ -*-===//
//
// Turns fuzz input bytes into the text of a module with one public function
// holding one mixer op: the op kind, small shapes (a dimension is sometimes
// 0 or dynamic), attributes and optional operands all come from the bytes.
// The shapes are consistent by construction; some attribute values are out
// of range on purpose so that the verifier's rejections are exercised too.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_FUZZ_MODULEGENERATOR_H
#define MIXER_TOOLS_MIXER_FUZZ_MODULEGENERATOR_H

#include <fuzzer/FuzzedDataProvider.h>

#include <string>

namespace mlir::mixer::fuzz {

/// The text of a module with a function @f holding one mixer op.
std::string generateModule(FuzzedDataProvider &bytes);

} // namespace mlir::mixer::fuzz

#endif // MIXER_TOOLS_MIXER_FUZZ_MODULEGENERATOR_H
