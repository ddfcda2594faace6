#pragma once
// Minimum-cost assignment (the Hungarian method with potentials, in the shortest augmenting
// path form of Jonker & Volgenant): O(n^2 m) for an n x m matrix, n <= m.
#include <cstdint>
#include <vector>

namespace adala {

// cost: rows x cols, row-major, finite. Every row is assigned a distinct column when
// rows <= cols; otherwise every column gets a distinct row and the remaining rows get -1.
// Returns, per row, its column or -1. The assignment minimises the sum of the chosen costs.
// Throws std::invalid_argument on a size mismatch or a non-finite cost.
std::vector<int64_t> solve_assignment(const std::vector<double>& cost, int64_t rows, int64_t cols);

// Sum of cost[r][assignment[r]] over assigned rows.
double assignment_cost(const std::vector<double>& cost, int64_t cols,
                       const std::vector<int64_t>& assignment);

}  // namespace adala
