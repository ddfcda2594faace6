#pragma once
// A RecordingSink that asks the job to stop once a logged step reaches `after` (never when
// `after` <= 0): the suites' way to interrupt a stage at a known step and resume it.
#include <cstdint>
#include <variant>

#include "engine/train/cancellation.h"
#include "engine/train/events.h"

namespace adala_test {

class CancelAfterSink : public adala::RecordingSink {
 public:
  CancelAfterSink(adala::JobControl& control, int64_t after) : control_(control), after_(after) {}
  void on_event(const adala::Event& e) override {
    RecordingSink::on_event(e);
    if (const auto* m = std::get_if<adala::StepMetrics>(&e); m && after_ > 0 && m->step >= after_)
      control_.request_cancel();
  }

 private:
  adala::JobControl& control_;
  int64_t after_;
};

}  // namespace adala_test
