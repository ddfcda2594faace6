#pragma once
// The plans `adala plan` weighs, from the per-block sensitivity: the teacher (every
// block softmax), all-linear, every single-softmax-block plan ("softmax-i": block i softmax,
// the others linear), the ranked plans keeping the k most sensitive blocks softmax
// (k = 1..depth-1, "softmax-<i>-<j>", block indices ascending) and window+linear everywhere
// ("window<K>"). A ranked plan equal to a single (k = 1) is one candidate, marked with its rank.
// Plain C++ (no LibTorch).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/attention_plan.h"
#include "engine/plan/plan_record.h"

namespace adala::plan {

struct PlanCandidate {
  std::string name;
  AttentionPlan plan;
  // k of the ranked plan this is (its k most sensitive blocks softmax); 0: not a ranked plan.
  // The teacher is rank `depth` and all-linear rank 0 by their softmax count, but keep 0 here.
  int64_t ranked_k = 0;
  std::vector<int64_t> softmax_blocks() const;
  bool is_teacher() const;
  bool is_window() const;
};

inline constexpr const char* kTeacherPlan = kTeacherPlanName;  // plan_record.h
inline constexpr const char* kAllLinearPlan = "all-linear";

// "teacher" when every block of `depth` is listed, "all-linear" when none, else
// "softmax-<i>-<j>..." (the blocks sorted).
std::string softmax_plan_name(std::vector<int64_t> softmax_blocks, int64_t depth);
// "window3"
std::string window_plan_name(int64_t window);

// Blocks from the most sensitive to the least: by `drop` descending, ties by `mse` descending
// (when given), then by block index. Throws std::invalid_argument when mse's length differs.
std::vector<int64_t> sensitivity_ranking(const std::vector<double>& drop,
                                         const std::vector<double>& mse = {});

// Every candidate in table order: teacher, all-linear, softmax-0..softmax-(depth-1), the ranked
// plans k = 2..depth-1, window<K> (window 0: none). `ranking`: sensitivity_ranking's order
// (a permutation of 0..depth-1, else std::invalid_argument); `linear` is the mode of the
// non-softmax blocks (the method's: linear).
std::vector<PlanCandidate> plan_candidates(int64_t depth, const std::vector<int64_t>& ranking,
                                           int64_t window,
                                           AttentionMode linear = AttentionMode::Linear);

// The candidate of that name, or nullptr.
const PlanCandidate* find_candidate(const std::vector<PlanCandidate>& candidates,
                                    const std::string& name);

inline constexpr const char* kSinglesShorthand = "singles";  // every softmax-<i>

// The candidates `requested` names, in the order given, each once; "singles" stands for every
// single-softmax-block plan. Throws std::invalid_argument naming an unknown name and listing the
// candidates.
std::vector<std::string> requested_candidates(const std::vector<PlanCandidate>& candidates,
                                              const std::vector<std::string>& requested,
                                              int64_t depth);

// The ranked neighbours of `name` among `candidates`: the plan with one softmax block fewer
// (its least sensitive softmax block made linear; all-linear for a single) and the one with one
// more (the most sensitive linear block made softmax), when they are candidates; never the
// teacher or a window plan. Names, fewer first.
std::vector<std::string> ranked_neighbours(const std::vector<PlanCandidate>& candidates,
                                           const std::vector<int64_t>& ranking,
                                           const std::string& name);

}  // namespace adala::plan
