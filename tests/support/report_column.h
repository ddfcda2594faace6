#pragma once
// The cells of one column of a report table, by header ("" headers never match): what the
// report suites compare against the numbers they wrote.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/report/report_document.h"

namespace adala_test {

inline std::vector<std::string> column(const adala::report::ReportTable& t,
                                       const std::string& header) {
  const auto it = std::find(t.header.begin(), t.header.end(), header);
  std::vector<std::string> cells;
  if (it == t.header.end()) return cells;
  const size_t c = size_t(it - t.header.begin());
  for (const auto& row : t.rows) cells.push_back(row.at(c));
  return cells;
}

}  // namespace adala_test
