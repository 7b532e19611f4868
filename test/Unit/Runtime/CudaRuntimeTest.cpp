//===- CudaRuntimeTest.cpp - failures of the mgpu* functions --------------===//
//
// What libMixerCudaRuntime does where no kernel can run (this suite runs
// with the toolkit's stub driver where there is no GPU): every failure is
// recorded with its reason, nothing crashes, later calls on the null
// handles say what is missing. The same assertions hold on a GPU, where
// the failures come from invalid input instead.
//
//===----------------------------------------------------------------------===//

#include "mixer/Runtime/CudaRuntime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

namespace {

std::string takeFailure() {
  const char *failure = mixerCudaGetFailure();
  std::string text = failure ? failure : "";
  mixerCudaClearFailure();
  return text;
}

class CudaRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { mixerCudaClearFailure(); }
};

TEST_F(CudaRuntimeTest, DeviceErrorNamesTheReason) {
  const char *deviceError = mixerCudaGetDeviceError();
  void *stream = mgpuStreamCreate();
  std::string failure = takeFailure();
  if (deviceError) {
    // No device (or only the stub driver): the first call says why.
    EXPECT_NE(std::string(deviceError).find("CUDA error"), std::string::npos)
        << deviceError;
    EXPECT_EQ(stream, nullptr);
    EXPECT_NE(failure.find(deviceError), std::string::npos) << failure;
    EXPECT_NE(failure.find("creating a stream"), std::string::npos) << failure;
  } else {
    EXPECT_NE(stream, nullptr);
    EXPECT_EQ(failure, "");
    mgpuStreamDestroy(stream);
    EXPECT_EQ(takeFailure(), "");
  }
}

TEST_F(CudaRuntimeTest, InvalidModuleFailsWithoutCrashing) {
  static const char garbage[] = "not a cubin";
  void *module = mgpuModuleLoad(const_cast<char *>(garbage), sizeof(garbage));
  EXPECT_EQ(module, nullptr);
  std::string failure = takeFailure();
  EXPECT_NE(failure.find("loading a kernel module"), std::string::npos)
      << failure;

  // The lowered code goes on with the null module: each step says what is
  // missing and repeats why the module did not load.
  void *function = mgpuModuleGetFunction(module, "mixer_kernel");
  EXPECT_EQ(function, nullptr);
  failure = takeFailure();
  EXPECT_NE(failure.find("'mixer_kernel'"), std::string::npos) << failure;
  EXPECT_NE(failure.find("loading a kernel module"), std::string::npos)
      << failure;

  void *params[1] = {nullptr};
  mgpuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr, 1);
  failure = takeFailure();
  EXPECT_NE(failure.find("the kernel is null while launching"),
            std::string::npos)
      << failure;
  mgpuLaunchClusterKernel(function, 2, 1, 1, 2, 1, 1, 32, 1, 1, 0, nullptr,
                          params, nullptr, 1);
  EXPECT_NE(takeFailure().find("clusters"), std::string::npos);
}

TEST_F(CudaRuntimeTest, FirstFailureIsKeptUntilCleared) {
  mgpuSetDefaultDevice(-1);
  mgpuStreamSynchronize(nullptr);
  std::string failure = takeFailure();
  EXPECT_NE(failure.find("device -1 is out of range"), std::string::npos)
      << failure;
  EXPECT_EQ(mixerCudaGetFailure(), nullptr);
  EXPECT_EQ(mixerCudaGetDefaultDevice(), 0);
  mgpuStreamSynchronize(nullptr);
  EXPECT_NE(takeFailure().find("the stream is null"), std::string::npos);
}

TEST_F(CudaRuntimeTest, FailuresArePerThread) {
  std::string other;
  std::thread([&] {
    mgpuEventSynchronize(nullptr);
    const char *failure = mixerCudaGetFailure();
    other = failure ? failure : "";
  }).join();
  EXPECT_NE(other.find("the event is null"), std::string::npos) << other;
  EXPECT_EQ(mixerCudaGetFailure(), nullptr);
}

TEST_F(CudaRuntimeTest, EmptyAndNullArgumentsDoNothing) {
  // Nothing to allocate, copy, fill or free: no driver call, no failure.
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  mgpuMemFree(nullptr, nullptr);
  mgpuMemcpy(nullptr, nullptr, 0, nullptr);
  mgpuMemset32(nullptr, 0, 0, nullptr);
  mgpuMemset16(nullptr, 0, 0, nullptr);
  mgpuModuleUnload(nullptr);
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  float storage[1];
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } empty = {storage, storage, 0, {0, 4}, {4, 1}};
  mgpuMemHostRegisterMemRef(2, &empty, sizeof(float));
  mgpuMemHostUnregisterMemRef(2, &empty, sizeof(float));
  EXPECT_EQ(takeFailure(), "");

  // A copy with a missing side is reported, not attempted.
  float value = 1.0f;
  mgpuMemcpy(nullptr, &value, sizeof(value), nullptr);
  EXPECT_NE(takeFailure().find("the destination is null"), std::string::npos);
}

} // namespace
