#include "widgets/run_types.h"

#include <QCoreApplication>

namespace adala::widgets {

const QStringList& stageNames() {
  static const QStringList names = {"teacher", "attention_alignment", "feature_alignment", "fine_tuning"};
  return names;
}

int stageIndex(const QString& stage) { return static_cast<int>(stageNames().indexOf(stage)); }

QString stageTitle(int index) {
  switch (index) {
    case 0: return QCoreApplication::translate("adala::widgets", "Stage 0 · teacher");
    case 1: return QCoreApplication::translate("adala::widgets", "Stage 1 · attention alignment");
    case 2: return QCoreApplication::translate("adala::widgets", "Stage 2 · feature alignment");
    case 3: return QCoreApplication::translate("adala::widgets", "Stage 3 · fine-tuning");
    default: return QCoreApplication::translate("adala::widgets", "unknown stage");
  }
}

}  // namespace adala::widgets
