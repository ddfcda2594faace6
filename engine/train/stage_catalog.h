#pragma once
// The pipeline's stages, defined once: the name stored in events, checkpoints and the run
// database, the (untranslated) title people read, the weights file the stage writes into its
// run folder, the data it reads, what its model starts from, the attention it trains, and the
// evaluation it records. run_pipeline, the launcher, the run overview, the report and the
// progress events iterate over this table; each stage's runner sits beside it in the same
// order (engine/train/stage_runners.h). Plain C++ with no torch and no Qt, so the store, the
// report and the widgets can include it. Front ends translate `title` with the context
// kStageTitleContext; lupdate finds the titles in widgets/runs/run_types.cpp, whose
// QT_TRANSLATE_NOOP copies are checked against this table at compile time.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace adala {

// The data block a stage reads: data.train (labelled) or data.alignment (images only).
enum class StageDataRole { Train, Alignment };
// What the stage's model starts from: new weights (or teacher.weights), the teacher, or the
// student of the latest selected earlier stage.
enum class StageStart { Fresh, Teacher, LatestStudent };
// The attention the stage trains: the softmax teacher; the linear branch of each block the
// student's plan linearises, fitted to the softmax path beside it; or the student as a whole,
// each block running the attention of the plan (engine/model/attention_plan.h: softmax, linear
// or window+linear; without a plan every block linear).
enum class StageAttention { Softmax, LinearBranch, Linear };

struct StageSpec {
  int index;
  const char* name;         // "attention_alignment"
  const char* title;        // "Stage 1 · attention alignment"
  const char* output_file;  // "student_stage1.safetensors"
  StageDataRole data;
  StageStart start;
  StageAttention attention;
  // The metric the stage records on the evaluation data after training (its key is
  // "name/metric", evaluation_key()); nullptr: none.
  const char* evaluation;
};

inline constexpr const char* kStageTitleContext = "adala::stages";

inline constexpr std::array<StageSpec, 4> kStages = {{
    {0, "teacher", "Stage 0 · teacher pretraining", "teacher.safetensors", StageDataRole::Train,
     StageStart::Fresh, StageAttention::Softmax, "top1"},
    {1, "attention_alignment", "Stage 1 · attention alignment", "student_stage1.safetensors",
     StageDataRole::Alignment, StageStart::Teacher, StageAttention::LinearBranch, nullptr},
    // The student keeps the teacher's head: its top-1 through that head.
    {2, "feature_alignment", "Stage 2 · feature alignment", "student_stage2.safetensors",
     StageDataRole::Alignment, StageStart::LatestStudent, StageAttention::Linear,
     "top1_teacher_head"},
    {3, "fine_tuning", "Stage 3 · fine-tuning", "student.safetensors", StageDataRole::Train,
     StageStart::LatestStudent, StageAttention::Linear, "top1"},
}};

inline constexpr int kStageCount = static_cast<int>(kStages.size());

// The stage of that index, or nullptr.
inline const StageSpec* stage_by_index(int index) {
  return index >= 0 && index < kStageCount ? &kStages[static_cast<size_t>(index)] : nullptr;
}

// The stage of that engine name, or nullptr.
inline const StageSpec* stage_by_name(std::string_view name) {
  for (const auto& s : kStages)
    if (name == s.name) return &s;
  return nullptr;
}

// -1 for a name that is not a stage.
inline int stage_index(std::string_view name) {
  const StageSpec* s = stage_by_name(name);
  return s ? s->index : -1;
}

// The stage whose output file this is (by file name, e.g. "student_stage2.safetensors"), or
// nullptr.
inline const StageSpec* stage_by_output_file(std::string_view file_name) {
  for (const auto& s : kStages)
    if (file_name == s.output_file) return &s;
  return nullptr;
}

inline bool is_stage_index(int index) { return stage_by_index(index) != nullptr; }

// "0..3": the stage indices, for messages.
inline std::string stage_index_range() { return "0.." + std::to_string(kStageCount - 1); }

inline const char* stage_name(int index) {
  const StageSpec* s = stage_by_index(index);
  return s ? s->name : "?";
}

inline std::string stage_output_path(const std::string& run_dir, int index) {
  return run_dir + "/" + stage_by_index(index)->output_file;
}

// The key of an evaluation in events, the run database and reports: "fine_tuning/top1".
inline std::string evaluation_key(const StageSpec& stage, std::string_view metric) {
  return std::string(stage.name) + "/" + std::string(metric);
}
inline std::string evaluation_key(const StageSpec& stage) {
  return evaluation_key(stage, stage.evaluation ? stage.evaluation : "");
}

// The teacher's top-1: the evaluation of the stage that trains softmax attention.
inline std::string teacher_top1_key() { return evaluation_key(kStages.front()); }

// The evaluations of the linear-attention student, the most adapted stage first
// ("fine_tuning/top1", then "feature_alignment/top1_teacher_head"): a run's student accuracy is
// the first of them it has.
inline std::vector<std::string> student_top1_keys() {
  std::vector<std::string> keys;
  for (auto it = kStages.rbegin(); it != kStages.rend(); ++it)
    if (it->evaluation && it->attention == StageAttention::Linear)
      keys.push_back(evaluation_key(*it));
  return keys;
}

}  // namespace adala
