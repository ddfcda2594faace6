#pragma once
// Reads one JSON object field by field, checking type and range, and rejects keys it was
// never asked for. Every error is a ConfigError naming the dotted field path.
#include <set>
#include <string>
#include <vector>

#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

// The upper bound of a count in a config (steps, limits, intervals): far above any real run,
// low enough that products of two such counts stay inside int64.
inline constexpr int64_t kMaxConfigCount = int64_t(1) << 40;

class ConfigReader {
 public:
  ConfigReader(const Json& object, std::string path);

  double number(const std::string& key, double fallback, double min, double max,
                bool min_exclusive = false);
  int64_t integer(const std::string& key, int64_t fallback, int64_t min, int64_t max);
  std::string string(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed = {});
  bool boolean(const std::string& key, bool fallback);
  // An array of integers, each in [min, max]; an empty array is allowed when min_count is 0.
  std::vector<int64_t> integers(const std::string& key, const std::vector<int64_t>& fallback,
                                int64_t min, int64_t max, size_t min_count = 0);
  // An array of strings, each non-empty.
  std::vector<std::string> strings(const std::string& key,
                                   const std::vector<std::string>& fallback);
  // An array of numbers, each in [min, max], with min_count..max_count entries.
  std::vector<double> numbers(const std::string& key, const std::vector<double>& fallback,
                              double min, double max, size_t min_count, size_t max_count);
  // A nested object (an empty one when absent).
  ConfigReader child(const std::string& key);
  bool has(const std::string& key) const { return object_.contains(key); }
  // Throws on any key that no accessor asked for.
  void finish() const;
  std::string field(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }

 private:
  const Json* take(const std::string& key);

  const Json& object_;
  std::string path_;
  std::set<std::string> known_;
};

// One stage's optimisation block (epochs, batch_size, lr, ...), defaults from `defaults`.
// Stage 2's own keys (trainable other than "all", align_blocks) are errors unless
// `feature_alignment`.
StageConfig read_stage_config(ConfigReader reader, const StageConfig& defaults,
                              bool feature_alignment = false);
// A list of distinct 1-based block numbers, each at most `max_block`, at least one.
std::vector<int64_t> read_distinct_blocks(ConfigReader& reader, const std::string& key,
                                          const std::vector<int64_t>& fallback, int64_t max_block);
// The "data" block: the per-stage sources (or the Fashion-MNIST shorthand) and the loader.
DataConfig read_data_config(ConfigReader reader, const ViTConfig& model);
// The "attention" block: the student's plan, one mode per block ("blocks") or the blocks that
// stay softmax ("softmax_blocks") with the others' mode ("mode", default the method's), and the
// window's k ("window", odd, default 3). Without the block: every block the method's mode.
AttentionPlan read_attention_plan(ConfigReader reader, const ViTConfig& model,
                                  LinearisationMethod method, const std::string& device);
// The "segmentation" block; block numbers are checked against the model's depth.
SegmentationConfig read_segmentation_config(ConfigReader reader, const ViTConfig& model,
                                            const std::string& default_root);

}  // namespace adala
