//===- SteadinessTest.cpp - the unsteady-machine note ---------------------===//

#include "Steadiness.h"

#include "gtest/gtest.h"

using namespace mixer::bench;

namespace {

TEST(Steadiness, DriftIsAFractionOfTheHigherMeasurement) {
  EXPECT_DOUBLE_EQ(ceilingDrift(200, 150), 0.25);
  EXPECT_DOUBLE_EQ(ceilingDrift(150, 200), 0.25);
  EXPECT_DOUBLE_EQ(ceilingDrift(200, 200), 0.0);
  // A calibration that did not run says nothing.
  EXPECT_DOUBLE_EQ(ceilingDrift(0, 200), 0.0);
  EXPECT_DOUBLE_EQ(ceilingDrift(200, -1), 0.0);
}

TEST(Steadiness, ASteadyMachineGetsNoNote) {
  EXPECT_EQ(unsteadyMachineNote(230.0, 228.0), "");
  EXPECT_EQ(unsteadyMachineNote(230.0, 207.0), ""); // exactly 10%
}

TEST(Steadiness, ADriftPastTenPercentIsSaidInWords) {
  // A run on a Zen 4 whose FMA peak fell from 226.9 to 175.3 GFLOP/s.
  EXPECT_EQ(unsteadyMachineNote(226.9, 175.3),
            "unsteady machine: the FMA peak fell 23% between the "
            "calibrations before and after the cases (226.9, then 175.3 "
            "GFLOP/s); times measured minutes apart are not comparable "
            "(compare builds with --ab)");
  EXPECT_NE(unsteadyMachineNote(150.0, 200.0).find("rose 25%"),
            std::string::npos);
}

} // namespace
