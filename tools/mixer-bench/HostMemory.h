//===- HostMemory.h - the bench's host buffers ------------------*- C++ -*-===//
//
// The buffers that the bench passes to compiled code, allocated as numpy
// allocates its arrays, so that mixer's rows and those of the Python
// libraries (numpy arrays, and the tensors made from them) run on the same
// kind of pages: numpy asks Linux for transparent huge pages for every
// array of 4 MiB or more (madvise MADV_HUGEPAGE), as do users' arrays
// passed through the Python front end. Where the kernel's setting is
// "madvise" (as here), the bench's buffers were otherwise on
// 4 KiB pages while the comparisons' were not.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_HOSTMEMORY_H
#define MIXER_TOOLS_MIXER_BENCH_HOSTMEMORY_H

#include <cstddef>

namespace mixer::bench {

/// Buffers of at least this many bytes ask for huge pages (numpy's bound).
inline constexpr size_t kHugePageAdviceBytes = size_t(4) << 20;
/// Their alignment: a transparent huge page's size on x86-64.
inline constexpr size_t kHugePageBytes = size_t(2) << 20;

/// `bytes` (at least 1) of uninitialized memory, 64-byte aligned, or
/// aligned to kHugePageBytes and advised to use huge pages from
/// kHugePageAdviceBytes on (where the kernel has them; a hint). Free with
/// std::free; null when out of memory.
void *allocateHostBuffer(size_t bytes);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_HOSTMEMORY_H
