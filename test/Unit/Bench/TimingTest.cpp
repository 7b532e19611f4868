//===- TimingTest.cpp - calls timed in turn (mixer-bench --ab) ------------===//

#include "Timing.h"

#include "gtest/gtest.h"

using namespace mixer::bench;

namespace {

/// A timed call that returns the given times one after the other and
/// counts its calls.
struct FakeCall {
  std::vector<double> ms;
  size_t calls = 0;
  llvm::Expected<double> operator()() { return ms[calls++ % ms.size()]; }
};

TEST(TimeInTurn, PairsEachCallWithTheSecondBuildsNext) {
  FakeCall a{{2.0, 4.0, 6.0}}, b{{1.0, 2.0, 4.0}};
  llvm::Expected<TimesInTurn> times = timeInTurn(3, std::ref(a), std::ref(b));
  ASSERT_TRUE(static_cast<bool>(times));
  EXPECT_EQ(times->first, (std::vector<double>{2.0, 4.0, 6.0}));
  EXPECT_EQ(times->second, (std::vector<double>{1.0, 2.0, 4.0}));
  EXPECT_EQ(times->ratios, (std::vector<double>{2.0, 2.0, 1.5}));
}

TEST(TimeInTurn, WithoutASecondBuildOnlyTheFirstIsCalled) {
  FakeCall a{{3.0}};
  llvm::Expected<TimesInTurn> times = timeInTurn(4, std::ref(a), TimedCall());
  ASSERT_TRUE(static_cast<bool>(times));
  EXPECT_EQ(a.calls, 4u);
  EXPECT_EQ(times->first.size(), 4u);
  EXPECT_TRUE(times->second.empty());
  EXPECT_TRUE(times->ratios.empty());
}

TEST(TimeInTurn, AtLeastOneCallWhateverTheRepeat) {
  FakeCall a{{3.0}};
  llvm::Expected<TimesInTurn> times = timeInTurn(0, std::ref(a), TimedCall());
  ASSERT_TRUE(static_cast<bool>(times));
  EXPECT_EQ(a.calls, 1u);
}

TEST(TimeInTurn, StopsAtTheFirstErrorWithItsMessageAndItsBuild) {
  FakeCall a{{1.0}};
  int secondCalls = 0;
  TimedCall failing = [&]() -> llvm::Expected<double> {
    if (++secondCalls == 2)
      return llvm::createStringError("bad shape");
    return 1.0;
  };
  llvm::Expected<TimesInTurn> times = timeInTurn(5, std::ref(a), failing);
  ASSERT_FALSE(static_cast<bool>(times));
  EXPECT_EQ(llvm::toString(times.takeError()), "--ab call failed: bad shape");
  EXPECT_EQ(a.calls, 2u);
}

} // namespace
