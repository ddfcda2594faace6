#include "app/gui/checkpoint_label.h"

#include <QFileInfo>

#include "engine/train/stage_catalog.h"
#include "widgets/runs/run_types.h"

namespace adala::gui {

int stageOfWeights(const QString& path) {
  const StageSpec* stage = stage_by_output_file(QFileInfo(path).fileName().toStdString());
  return stage ? stage->index : -1;
}

QString checkpointLabel(const QString& path, const QString& prefix) {
  const int stage = stageOfWeights(path);
  const QString label = stage >= 0 ? widgets::stageTitle(stage) : QFileInfo(path).fileName();
  return prefix.isEmpty() ? label : prefix + QStringLiteral(" · ") + label;
}

}  // namespace adala::gui
