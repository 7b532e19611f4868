//===- HostMemory.cpp - the bench's host buffers --------------------------===//

#include "HostMemory.h"

#include <algorithm>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

void *mixer::bench::allocateHostBuffer(size_t bytes) {
  bytes = std::max<size_t>(bytes, 1);
  size_t alignment = bytes >= kHugePageAdviceBytes ? kHugePageBytes : 64;
  // aligned_alloc wants a multiple of the alignment.
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void *data = std::aligned_alloc(alignment, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // A hint: it fails only where the kernel has no transparent huge pages.
  if (data && alignment == kHugePageBytes)
    (void)madvise(data, rounded, MADV_HUGEPAGE);
#endif
  return data;
}
