//===- TimingBudgetTest.cpp - the GPU suites' --max-case-seconds ----------===//

#include "TimingBudget.h"

#include "gtest/gtest.h"

using namespace mixer::bench;

namespace {

TEST(TimingBudget, StopsAtRepeatWithinTheBudget) {
  EXPECT_TRUE(takeAnotherTimedCall(0, 10, 0.0, 20));
  EXPECT_TRUE(takeAnotherTimedCall(9, 10, 1.0, 20));
  EXPECT_FALSE(takeAnotherTimedCall(10, 10, 1.0, 20));
}

TEST(TimingBudget, StopsOnceTheMeasuredTimeReachesTheBudget) {
  // kernel_mv at N = 1M: about 9 s a call, so three calls within 20 s.
  EXPECT_TRUE(takeAnotherTimedCall(2, 10, 18.0, 20));
  EXPECT_FALSE(takeAnotherTimedCall(3, 10, 27.0, 20));
  EXPECT_FALSE(takeAnotherTimedCall(1, 10, 20.0, 20));
}

TEST(TimingBudget, TimesAtLeastOneCall) {
  // Even with the budget spent before the first timed call.
  EXPECT_TRUE(takeAnotherTimedCall(0, 10, 100.0, 20));
  EXPECT_FALSE(takeAnotherTimedCall(1, 10, 100.0, 20));
}

TEST(TimingBudget, TheRowSaysHowManyCallsWereTimed) {
  EXPECT_EQ(timedCallsNote(3, 10, 20),
            "timed 3 of 10 calls (--max-case-seconds 20 reached)");
  EXPECT_EQ(timedCallsNote(1, 10, 2.5),
            "timed 1 of 10 calls (--max-case-seconds 2.5 reached)");
  EXPECT_EQ(timedCallsNote(10, 10, 20), "");
}

} // namespace
