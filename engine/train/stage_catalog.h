#pragma once
// The pipeline's stages, defined once: the name stored in events, checkpoints and the run
// database, the (untranslated) title people read, and the weights file the stage writes into
// its run folder. Plain C++ with no torch and no Qt, so the store, the report and the widgets
// can include it. Front ends translate `title` with the context kStageTitleContext; lupdate
// finds the titles in widgets/run_types.cpp, whose QT_TRANSLATE_NOOP copies are checked
// against this table at compile time.
#include <array>
#include <string>
#include <string_view>

namespace adala {

struct StageSpec {
  int index;
  const char* name;         // "attention_alignment"
  const char* title;        // "Stage 1 · attention alignment"
  const char* output_file;  // "student_stage1.safetensors"
};

inline constexpr const char* kStageTitleContext = "adala::stages";

inline constexpr std::array<StageSpec, 4> kStages = {{
    {0, "teacher", "Stage 0 · teacher pretraining", "teacher.safetensors"},
    {1, "attention_alignment", "Stage 1 · attention alignment", "student_stage1.safetensors"},
    {2, "feature_alignment", "Stage 2 · feature alignment", "student_stage2.safetensors"},
    {3, "fine_tuning", "Stage 3 · fine-tuning", "student.safetensors"},
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

inline const char* stage_name(int index) {
  const StageSpec* s = stage_by_index(index);
  return s ? s->name : "?";
}

inline std::string stage_output_path(const std::string& run_dir, int index) {
  return run_dir + "/" + stage_by_index(index)->output_file;
}

}  // namespace adala
