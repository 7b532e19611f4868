//===- ScriptOutput.cpp - what a comparison script prints and reads -------===//

#include "ScriptOutput.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <cstring>
#include <fstream>

using namespace mixer::bench;
namespace json = llvm::json;

int mixer::bench::runCommand(const std::string &cmd, std::string &output) {
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return -1;
  char chunk[4096];
  for (size_t n; (n = fread(chunk, 1, sizeof(chunk), pipe)) > 0;)
    output.append(chunk, n);
  return pclose(pipe);
}

std::vector<Row> mixer::bench::parseScriptOutput(llvm::StringRef output,
                                                 json::Object &versions) {
  std::vector<Row> rows;
  llvm::SmallVector<llvm::StringRef> lines;
  output.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (!line.starts_with("{"))
      continue;
    llvm::Expected<json::Value> parsed = json::parse(line);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      continue;
    }
    json::Object *o = parsed->getAsObject();
    if (!o)
      continue;
    if (json::Object *v = o->getObject("versions")) {
      for (auto &kv : *v)
        versions[kv.first] = kv.second;
      continue;
    }
    // Rows name at least their op, case and implementation.
    if (!o->getString("op") || !o->getString("case") || !o->getString("impl"))
      continue;
    rows.push_back(fromJson(*o));
  }
  return rows;
}

std::string mixer::bench::npyHeader(llvm::StringRef descr,
                                    const std::vector<int64_t> &shape) {
  std::string dims;
  for (int64_t d : shape)
    dims += std::to_string(d) + ", ";
  // numpy writes (3,) for rank 1 and (3, 4) for rank 2: no trailing comma.
  if (shape.size() > 1)
    dims.resize(dims.size() - 2);
  else if (shape.size() == 1)
    dims.resize(dims.size() - 1);
  std::string dict = "{'descr': '" + descr.str() +
                     "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic (6) + version (2) + length (2) + dict + padding + '\n'.
  size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += '\x01';
  header += '\x00';
  header += char(dict.size() & 0xff);
  header += char(dict.size() >> 8);
  return header + dict;
}

bool mixer::bench::writeNpy(const std::string &path, llvm::StringRef descr,
                            const std::vector<int64_t> &shape, const void *data,
                            size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  std::string header = npyHeader(descr, shape);
  out.write(header.data(), header.size());
  out.write(static_cast<const char *>(data), bytes);
  return bool(out);
}

