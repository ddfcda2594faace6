#pragma once
#include <cstdint>
#include <stdexcept>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/json/json.h"
#include "engine/model/attention_plan.h"
#include "engine/model/vit_config.h"
#include "engine/data/image_transform.h"
#include "engine/train/linearisation_method.h"
#include "engine/train/config/segmentation_config.h"
#include "engine/train/config/stage_config.h"

namespace adala {

// A config problem, always naming the field (dotted path) and the reason.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, const std::string& reason)
      : std::runtime_error(field + ": " + reason), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// One stage's data source: data.train (Stages 0 and 3), data.eval (every top-1) or
// data.alignment (Stages 1-2, labels unused).
struct DataSourceConfig {
  std::string source = "fashion-mnist";  // fashion-mnist | image-folder | image-list
  std::string root;             // idx folder, class-folder root, image tree, or base of list paths
  std::string list;             // image-list: a `path[<TAB>label]` file (empty: `root` is the tree)
  std::string split = "train";  // fashion-mnist: train | test
  std::string classes;          // image-folder: a class list file (empty: sorted folder names)
  int64_t limit = 0;            // > 0: the first `limit` items
  int64_t channels = 1;
  TransformSpec transform;  // resolution: "res", default the model's img_size
};

struct DataConfig {
  std::string dataset = "fashion-mnist";
  std::string root;         // default: the Debian package's folder
  int64_t train_limit = 0;  // 0: the whole split
  int64_t test_limit = 0;
  int64_t alignment_limit = 0;  // images used by Stages 1-2 (labels unused); 0: train split
  // Per-stage sources. Absent ones: eval and alignment use train's; without any, train is
  // Fashion-MNIST's train split, eval its test split (the limits above apply).
  DataSourceConfig train, eval, alignment;
  int64_t decode_threads = 2;    // 0: decode in the training thread
  int64_t prefetch = 4;          // batches decoded ahead
  bool skip_bad_images = false;  // data.on_bad_image: "error" (default) or "skip"
};

struct ExperimentConfig {
  std::string name = "experiment";
  int64_t seed = 0;
  std::string device = "auto";
  int64_t threads = 0;
  ViTConfig model;
  std::string teacher_weights;  // non-empty: Stage 0 loads these instead of training
  // model.preset left out with teacher.weights given: the model is the file's (adala.config or
  // the matching preset), the config's fields on top. With model.num_classes left out (preset or
  // file), the pipeline sets it to data.train's class count (Stage 3 then starts a fresh head
  // when the file's differs).
  bool model_from_weights = false;
  bool num_classes_from_data = false;
  DataConfig data;
  // How the softmax teacher becomes a linear student (linearisation_method.h): "method",
  // "lora_rank" / "lora_alpha" (lolcats' Stage 3), "attention_rows" (hedgehog's sampled query
  // rows per image and head in Stage 1).
  LinearisationMethod method = LinearisationMethod::Adala;
  int64_t lora_rank = 8;
  double lora_alpha = 16.0;
  int64_t attention_rows = 64;
  // The student's attention per block and the window's k ("attention": read_attention_plan in
  // config_reader.h). The parser fills one mode per block; empty (a config built in code): every
  // block the method's mode (student_attention_plan).
  AttentionPlan attention;
  StageConfig teacher, attention_alignment, feature_alignment, fine_tuning;
  SegmentationConfig segmentation;  // the optional "segmentation" block (Stage 3, dense)
  std::string runs_dir = "runs";
  Json source;  // the validated document, stored with the run

  const StageConfig& stage(int index) const;
};

// The plan the student stages run: config.attention, or for a config without one every block
// in the method's mode (linear; window+linear for lolcats) with the default window. Throws
// ConfigError("attention.blocks") when its length is not model.depth.
AttentionPlan student_attention_plan(const ExperimentConfig& config);

// Validates every field; throws ConfigError naming the first bad one. Nothing runs before.
ExperimentConfig parse_experiment_config(const Json& document);
// The document with its relative paths (teacher.weights; data.{train,eval,alignment}.{root,
// list,classes}) made absolute against `base_dir`: a config file's folder, or for a document
// edited in the workbench, the folder of the file it came from.
Json resolve_config_paths(Json document, const std::filesystem::path& base_dir);
// A document's text whose relative paths point from `base_dir` (empty: the working folder), as
// the workbench hands an edited experiment to the engine: parse, resolve, validate.
ExperimentConfig parse_experiment_text(const std::string& text,
                                       const std::filesystem::path& base_dir);
// Reads a config file; its relative paths are relative to its folder (resolve_config_paths).
ExperimentConfig load_experiment_config(const std::string& path);

}  // namespace adala
