#include "engine/plan/held_out_data.h"

#include "engine/plan/plan_request.h"

namespace adala::plan {

SliceDataset::SliceDataset(std::shared_ptr<const Dataset> base, int64_t first, int64_t count)
    : base_(std::move(base)), first_(first), count_(count) {
  if (!base_ || first_ < 0 || count_ < 0 || first_ + count_ > base_->size())
    throw std::invalid_argument("SliceDataset: the slice is outside its dataset");
}

Sample SliceDataset::get(int64_t index) const { return base_->get(first_ + index); }

std::string SliceDataset::item_name(int64_t index) const {
  return base_->item_name(first_ + index);
}

std::string SliceDataset::describe() const {
  return base_->describe() + ", items " + std::to_string(first_) + ".." +
         std::to_string(first_ + count_ - 1);
}

StageData open_training_data(const ExperimentConfig& config) {
  return open_stage_data(config.data.train, config.data, "data.train");
}

StageData held_out_slice(const StageData& train, int64_t held_out) {
  check_held_out(held_out, train.size());
  StageData out = train;
  out.dataset = std::make_shared<SliceDataset>(train.dataset, train.size() - held_out, held_out);
  return out;
}

ExperimentConfig config_without_held_out(const ExperimentConfig& config, int64_t training_images,
                                         int64_t held_out) {
  check_held_out(held_out, training_images);
  const int64_t keep = training_images - held_out;
  Json doc = config.source;
  if (!doc.contains("data") || !doc["data"].is_object()) doc["data"] = Json::object();
  Json& data = doc["data"];
  if (data.contains("train") && data["train"].is_object()) {
    // Per-stage sources: data.alignment without its own source reads data.train's copy.
    data["train"]["limit"] = Json(keep);
  } else {
    data["train_limit"] = Json(keep);
    if (data.contains("alignment_limit") && data["alignment_limit"].is_number_integer() &&
        data["alignment_limit"].get<int64_t>() > keep)
      data["alignment_limit"] = Json(keep);
  }
  return parse_experiment_config(doc);
}

}  // namespace adala::plan
