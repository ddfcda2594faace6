#include "engine/train/events.h"

namespace adala {

std::vector<StepMetrics> RecordingSink::steps(const std::string& stage) const {
  std::vector<StepMetrics> out;
  for (const auto& e : events())
    if (const auto* s = std::get_if<StepMetrics>(&e); s && s->stage == stage) out.push_back(*s);
  return out;
}

}  // namespace adala
