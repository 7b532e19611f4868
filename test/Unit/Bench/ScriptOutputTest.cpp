//===- ScriptOutputTest.cpp - the comparison scripts' protocol ------------===//

#include "ScriptOutput.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace mixer::bench;
namespace json = llvm::json;

TEST(ParseScriptOutput, RowsVersionsAndNoise) {
  json::Object versions{{"llvm", "22"}};
  std::vector<Row> rows = parseScriptOutput(
      "W0000 some XLA warning on stdout\n"
      "{\"versions\": {\"jax\": \"0.8.1\", \"python\": \"3.11\"}}\n"
      "{\"op\": \"ssd\", \"case\": \"c1\", \"impl\": \"jax-chunked\", "
      "\"library\": \"jax\", \"version\": \"0.8.1\", \"median_ms\": 2.5, "
      "\"rel_error\": 3e-7, \"status\": \"ok\", \"reason\": \"\"}\n"
      "{\"op\": \"ssd\", \"case\": \"c1\", \"impl\": \"mamba2-jax\", "
      "\"library\": \"mamba2-jax\", \"version\": \"1.1.2\", \"median_ms\": "
      "null, \"rel_error\": \"inf\", \"status\": \"error\", \"reason\": "
      "\"ImportError: no\"}\n"
      "{\"not\": \"a row\"}\n"
      "{broken json\n",
      versions);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].impl, "jax-chunked");
  EXPECT_EQ(rows[0].library, "jax");
  EXPECT_EQ(rows[0].version, "0.8.1");
  ASSERT_TRUE(rows[0].medianMs.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].medianMs, 2.5);
  EXPECT_DOUBLE_EQ(*rows[0].relError, 3e-7);
  EXPECT_EQ(rows[1].status, "error");
  EXPECT_EQ(rows[1].reason, "ImportError: no");
  EXPECT_FALSE(rows[1].medianMs.has_value());
  EXPECT_TRUE(std::isinf(*rows[1].relError));
  EXPECT_EQ(versions.getString("jax"), llvm::StringRef("0.8.1"));
  EXPECT_EQ(versions.getString("llvm"), llvm::StringRef("22"));
}

TEST(ParseScriptOutput, LibraryAndVersionRoundTrip) {
  Row row;
  row.op = "sinkhorn";
  row.name = "c";
  row.impl = "ott-jax";
  row.library = "ott-jax";
  row.version = "0.6.0";
  json::Object o = toJson(row);
  EXPECT_EQ(o.getString("library"), llvm::StringRef("ott-jax"));
  Row back = fromJson(o);
  EXPECT_EQ(back.library, "ott-jax");
  EXPECT_EQ(back.version, "0.6.0");
  // mixer's own rows keep the fields they always had.
  Row mixer;
  mixer.impl = "mixer";
  EXPECT_FALSE(toJson(mixer).get("library"));
}

TEST(Npy, HeaderIsAlignedAndDescribesTheArray) {
  for (const std::vector<int64_t> &shape :
       {std::vector<int64_t>{}, {7}, {2, 3}, {1, 100, 8, 64}}) {
    std::string h = npyHeader("<f4", shape);
    EXPECT_EQ(h.size() % 64, 0u);
    EXPECT_EQ(h.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(h[6], '\x01');
    size_t length = uint8_t(h[8]) | (size_t(uint8_t(h[9])) << 8);
    EXPECT_EQ(length + 10, h.size());
    EXPECT_EQ(h.back(), '\n');
    EXPECT_NE(h.find("'descr': '<f4'"), std::string::npos);
  }
  EXPECT_NE(npyHeader("<f8", {}).find("'shape': ()"), std::string::npos);
  EXPECT_NE(npyHeader("<f8", {7}).find("'shape': (7,)"), std::string::npos);
  EXPECT_NE(npyHeader("<i8", {2, 3}).find("'shape': (2, 3)"),
            std::string::npos);
}

TEST(Npy, WritesHeaderThenData) {
  std::string path = ::testing::TempDir() + "/mixer-bench-npy-test.npy";
  float data[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_TRUE(writeNpy(path, "<f4", {2, 3}, data, sizeof(data)));
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string bytes = buf.str();
  std::string header = npyHeader("<f4", {2, 3});
  ASSERT_EQ(bytes.size(), header.size() + sizeof(data));
  EXPECT_EQ(bytes.substr(0, header.size()), header);
  float last;
  std::memcpy(&last, bytes.data() + bytes.size() - 4, 4);
  EXPECT_EQ(last, 6.0f);
  std::remove(path.c_str());
}
