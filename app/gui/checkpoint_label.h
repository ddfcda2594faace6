#pragma once
// How the workbench names a weights file: by the stage that wrote it, else by its file name.
#include <QString>

namespace adala::gui {

// Stage of a weights file the pipeline writes (stage_output_path), -1 if not one of them.
int stageOfWeights(const QString& path);

// "Stage 1 · attention alignment" (or the file name), after `prefix` and " · " if one is given.
QString checkpointLabel(const QString& path, const QString& prefix = {});

}  // namespace adala::gui
