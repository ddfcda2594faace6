#include "engine/seg/hungarian.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace adala {

std::vector<int64_t> solve_assignment(const std::vector<double>& cost, int64_t rows, int64_t cols) {
  if (rows < 0 || cols < 0 || int64_t(cost.size()) != rows * cols)
    throw std::invalid_argument("solve_assignment: cost has " + std::to_string(cost.size()) +
                                " entries, expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
  for (double c : cost)
    if (!std::isfinite(c)) throw std::invalid_argument("solve_assignment: non-finite cost");
  std::vector<int64_t> result(size_t(rows), -1);
  if (rows == 0 || cols == 0) return result;

  // The algorithm assigns each of n "workers" to one of m >= n "jobs".
  const bool transposed = rows > cols;
  const int64_t n = transposed ? cols : rows, m = transposed ? rows : cols;
  auto a = [&](int64_t i, int64_t j) {  // 0-based worker i, job j
    return transposed ? cost[size_t(j * cols + i)] : cost[size_t(i * cols + j)];
  };
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based potentials u (workers) and v (jobs); p[j]: worker on job j (0 = free); index 0 is
  // the virtual job the augmenting path starts from.
  std::vector<double> u(size_t(n + 1), 0.0), v(size_t(m + 1), 0.0), minv(size_t(m + 1));
  std::vector<int64_t> p(size_t(m + 1), 0), way(size_t(m + 1), 0);
  std::vector<char> used(size_t(m + 1));
  for (int64_t i = 1; i <= n; ++i) {
    p[0] = i;
    int64_t j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {  // Dijkstra-like growth of the alternating tree on reduced costs
      used[size_t(j0)] = 1;
      const int64_t i0 = p[size_t(j0)];
      double delta = inf;
      int64_t j1 = 0;
      for (int64_t j = 1; j <= m; ++j) {
        if (used[size_t(j)]) continue;
        const double cur = a(i0 - 1, j - 1) - u[size_t(i0)] - v[size_t(j)];
        if (cur < minv[size_t(j)]) minv[size_t(j)] = cur, way[size_t(j)] = j0;
        if (minv[size_t(j)] < delta) delta = minv[size_t(j)], j1 = j;
      }
      for (int64_t j = 0; j <= m; ++j) {
        if (used[size_t(j)]) {
          u[size_t(p[size_t(j)])] += delta;
          v[size_t(j)] -= delta;
        } else {
          minv[size_t(j)] -= delta;
        }
      }
      j0 = j1;
    } while (p[size_t(j0)] != 0);
    do {  // flip the augmenting path
      const int64_t j1 = way[size_t(j0)];
      p[size_t(j0)] = p[size_t(j1)];
      j0 = j1;
    } while (j0 != 0);
  }
  for (int64_t j = 1; j <= m; ++j) {
    if (p[size_t(j)] == 0) continue;
    const int64_t worker = p[size_t(j)] - 1, job = j - 1;
    if (transposed)
      result[size_t(job)] = worker;
    else
      result[size_t(worker)] = job;
  }
  return result;
}

double assignment_cost(const std::vector<double>& cost, int64_t cols,
                       const std::vector<int64_t>& assignment) {
  double total = 0;
  for (size_t r = 0; r < assignment.size(); ++r)
    if (assignment[r] >= 0) total += cost[r * size_t(cols) + size_t(assignment[r])];
  return total;
}

}  // namespace adala
