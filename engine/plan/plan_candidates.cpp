#include "engine/plan/plan_candidates.h"

#include <algorithm>
#include <stdexcept>

namespace adala::plan {

std::vector<int64_t> PlanCandidate::softmax_blocks() const {
  std::vector<int64_t> out;
  for (size_t b = 0; b < plan.modes.size(); ++b)
    if (plan.modes[b] == AttentionMode::Softmax) out.push_back(int64_t(b));
  return out;
}

bool PlanCandidate::is_teacher() const {
  return !plan.modes.empty() && int64_t(softmax_blocks().size()) == int64_t(plan.modes.size());
}

bool PlanCandidate::is_window() const { return plan.uses_window(); }

std::string softmax_plan_name(std::vector<int64_t> softmax_blocks, int64_t depth) {
  std::sort(softmax_blocks.begin(), softmax_blocks.end());
  softmax_blocks.erase(std::unique(softmax_blocks.begin(), softmax_blocks.end()),
                       softmax_blocks.end());
  if (softmax_blocks.empty()) return kAllLinearPlan;
  if (int64_t(softmax_blocks.size()) == depth) return kTeacherPlan;
  std::string name = "softmax";
  for (int64_t b : softmax_blocks) name += "-" + std::to_string(b);
  return name;
}

std::string window_plan_name(int64_t window) { return "window" + std::to_string(window); }

std::vector<int64_t> sensitivity_ranking(const std::vector<double>& drop,
                                         const std::vector<double>& mse) {
  if (!mse.empty() && mse.size() != drop.size())
    throw std::invalid_argument("sensitivity_ranking: " + std::to_string(mse.size()) +
                                " MSE values for " + std::to_string(drop.size()) + " blocks");
  std::vector<int64_t> order(drop.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int64_t(i);
  // NaN counts as the least sensitive.
  auto key = [](double v) { return v == v ? v : -1e300; };
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const double da = key(drop[size_t(a)]), db = key(drop[size_t(b)]);
    if (da != db) return da > db;
    if (!mse.empty()) {
      const double ma = key(mse[size_t(a)]), mb = key(mse[size_t(b)]);
      if (ma != mb) return ma > mb;
    }
    return a < b;
  });
  return order;
}

namespace {

AttentionPlan softmax_at(int64_t depth, const std::vector<int64_t>& blocks, AttentionMode linear,
                         int64_t window) {
  AttentionPlan plan = uniform_attention_plan(depth, linear, window > 0 ? window : 3);
  for (int64_t b : blocks) plan.modes[size_t(b)] = AttentionMode::Softmax;
  return plan;
}

void check_ranking(int64_t depth, const std::vector<int64_t>& ranking) {
  std::vector<int64_t> sorted = ranking;
  std::sort(sorted.begin(), sorted.end());
  bool ok = int64_t(sorted.size()) == depth;
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == int64_t(i);
  if (!ok)
    throw std::invalid_argument("plan_candidates: the ranking is not a permutation of the " +
                                std::to_string(depth) + " blocks");
}

}  // namespace

std::vector<PlanCandidate> plan_candidates(int64_t depth, const std::vector<int64_t>& ranking,
                                           int64_t window, AttentionMode linear) {
  if (depth < 1) throw std::invalid_argument("plan_candidates: depth must be >= 1");
  if (linear == AttentionMode::Softmax)
    throw std::invalid_argument("plan_candidates: the linearised mode cannot be softmax");
  check_ranking(depth, ranking);
  std::vector<PlanCandidate> out;
  auto add = [&](std::vector<int64_t> blocks, int64_t ranked_k) {
    PlanCandidate c;
    c.name = softmax_plan_name(blocks, depth);
    c.plan = softmax_at(depth, blocks, linear, window);
    c.ranked_k = ranked_k;
    for (auto& seen : out)
      if (seen.name == c.name) {  // merged: the ranked plan is a single (or all-linear)
        if (ranked_k > 0) seen.ranked_k = ranked_k;
        return;
      }
    out.push_back(std::move(c));
  };
  std::vector<int64_t> all(static_cast<size_t>(depth));
  for (int64_t b = 0; b < depth; ++b) all[size_t(b)] = b;
  add(all, 0);
  add({}, 0);
  for (int64_t b = 0; b < depth; ++b) add({b}, 0);
  for (int64_t k = 1; k < depth; ++k)
    add(std::vector<int64_t>(ranking.begin(), ranking.begin() + k), k);
  if (window > 0) {
    PlanCandidate w;
    w.name = window_plan_name(window);
    w.plan = uniform_attention_plan(depth, AttentionMode::WindowLinear, window);
    out.push_back(std::move(w));
  }
  return out;
}

const PlanCandidate* find_candidate(const std::vector<PlanCandidate>& candidates,
                                    const std::string& name) {
  for (const auto& c : candidates)
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::string> ranked_neighbours(const std::vector<PlanCandidate>& candidates,
                                           const std::vector<int64_t>& ranking,
                                           const std::string& name) {
  const PlanCandidate* c = find_candidate(candidates, name);
  if (!c || c->is_window() || c->is_teacher()) return {};
  const int64_t depth = int64_t(c->plan.modes.size());
  const std::vector<int64_t> softmax = c->softmax_blocks();
  auto is_softmax = [&](int64_t b) {
    return std::find(softmax.begin(), softmax.end(), b) != softmax.end();
  };
  std::vector<std::string> out;
  auto keep = [&](const std::string& n) {
    const PlanCandidate* found = find_candidate(candidates, n);
    if (found && !found->is_teacher() && !found->is_window() && n != name) out.push_back(n);
  };
  if (!softmax.empty()) {
    // One fewer: drop the least sensitive of its softmax blocks.
    std::vector<int64_t> fewer = softmax;
    for (auto it = ranking.rbegin(); it != ranking.rend(); ++it)
      if (is_softmax(*it)) {
        fewer.erase(std::find(fewer.begin(), fewer.end(), *it));
        break;
      }
    keep(softmax_plan_name(fewer, depth));
  }
  for (int64_t b : ranking)
    if (!is_softmax(b)) {
      std::vector<int64_t> more = softmax;
      more.push_back(b);
      keep(softmax_plan_name(more, depth));
      break;
    }
  return out;
}

std::vector<std::string> requested_candidates(const std::vector<PlanCandidate>& candidates,
                                              const std::vector<std::string>& requested,
                                              int64_t depth) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (!find_candidate(candidates, name)) {
      std::string known;
      for (const auto& c : candidates) known += (known.empty() ? "" : ", ") + c.name;
      throw std::invalid_argument("--train-plans: \"" + name + "\" is not a candidate (" + known +
                                  ", or " + kSinglesShorthand + ")");
    }
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const auto& name : requested) {
    if (name == kSinglesShorthand) {
      for (int64_t b = 0; b < depth; ++b) add(softmax_plan_name({b}, depth));
    } else {
      add(name);
    }
  }
  return out;
}

}  // namespace adala::plan
