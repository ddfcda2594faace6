#include "engine/store/run_store_sink.h"

namespace adala::store {

void RunStoreSink::on_event(const Event& event) {
  if (const auto* m = std::get_if<StepMetrics>(&event)) {
    store_.add_metric(run_, m->stage, m->step, "loss", -1, m->loss);
    store_.add_metric(run_, m->stage, m->step, "lr", -1, m->lr);
    store_.add_metric(run_, m->stage, m->step, "images_per_second", -1, m->images_per_second);
    for (const auto& [key, value] : m->extra) store_.add_metric(run_, m->stage, m->step, key, -1, value);
    for (size_t b = 0; b < m->per_block_mse.size(); ++b)
      store_.add_metric(run_, m->stage, m->step, "block_mse", static_cast<int>(b), m->per_block_mse[b]);
    store_.flush();
  } else if (const auto* e = std::get_if<EvalMetrics>(&event)) {
    store_.add_evaluation(run_, e->stage, e->key, e->value);
  } else if (const auto* s = std::get_if<StageEvent>(&event)) {
    switch (s->kind) {
      case StageEvent::Kind::Started:
        store_.begin_stage(run_, s->stage, adala::stage_index(s->stage), s->total_steps);
        store_.delete_metrics_after(run_, s->stage, s->step);
        break;
      case StageEvent::Kind::Finished:
        store_.end_stage(run_, s->stage, RunStatus::Done);
        break;
      case StageEvent::Kind::Cancelled:
        store_.end_stage(run_, s->stage, RunStatus::Interrupted);
        break;
      case StageEvent::Kind::Failed:
        store_.end_stage(run_, s->stage, RunStatus::Failed);
        break;
    }
  } else if (const auto* a = std::get_if<ArtifactEvent>(&event)) {
    store_.add_artifact(run_, a->kind, a->path);
  }
}

}  // namespace adala::store
