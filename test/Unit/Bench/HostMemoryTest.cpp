//===- HostMemoryTest.cpp - the bench's host buffers ----------------------===//
//
// Small buffers are 64-byte aligned; buffers of 4 MiB and more are aligned
// to 2 MiB, writable to their end, and (where the kernel takes the advice:
// madvise(MADV_HUGEPAGE) succeeds on a mapping of the test's own) their
// mapping carries the huge-page advice: "hg" among its VmFlags in
// /proc/self/smaps.
//
//===----------------------------------------------------------------------===//

#include "HostMemory.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/mman.h>

using namespace mixer::bench;

namespace {

uintptr_t addressOf(const void *p) { return reinterpret_cast<uintptr_t>(p); }

/// The VmFlags of the mapping of /proc/self/smaps that holds `p` ("" when
/// none is found).
std::string vmFlagsOf(const void *p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= addressOf(p) && addressOf(p) < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

/// Whether this process may advise huge pages (the kernel has transparent
/// huge pages, and they are not disabled for the process).
bool kernelTakesHugePageAdvice() {
  size_t bytes = kHugePageBytes * 2;
  void *probe = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED)
    return false;
  bool taken = madvise(probe, bytes, MADV_HUGEPAGE) == 0;
  munmap(probe, bytes);
  return taken;
}

TEST(HostMemory, SmallBuffersAreCacheLineAligned) {
  for (size_t bytes : {size_t(0), size_t(1), size_t(1000), size_t(1) << 20}) {
    void *p = allocateHostBuffer(bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_EQ(addressOf(p) % 64, 0u) << bytes;
    std::memset(p, 1, bytes);
    std::free(p);
  }
}

TEST(HostMemory, LargeBuffersAreHugePageAlignedAndAdvised) {
  size_t bytes = kHugePageAdviceBytes + 12345;
  void *p = allocateHostBuffer(bytes);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(addressOf(p) % kHugePageBytes, 0u);
  std::memset(p, 7, bytes);
  EXPECT_EQ(static_cast<unsigned char *>(p)[bytes - 1], 7);
  if (kernelTakesHugePageAdvice()) {
    std::string flags = vmFlagsOf(p);
    std::printf("mapping of a %zu-byte buffer: %s\n", bytes, flags.c_str());
    EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  } else {
    std::printf("madvise(MADV_HUGEPAGE) is refused here: advice not checked\n");
  }
  std::free(p);
}

} // namespace
