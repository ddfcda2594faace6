#include "widgets/runs/run_types.h"

#include <QCoreApplication>

#include "engine/train/stage_catalog.h"

namespace adala::widgets {

namespace {

// lupdate reads the stage titles here (it does not scan engine/, which has no Qt); the
// static_assert below keeps them the catalog's titles.
constexpr const char* kStageTitlesForLupdate[] = {
    QT_TRANSLATE_NOOP("adala::stages", "Stage 0 · teacher pretraining"),
    QT_TRANSLATE_NOOP("adala::stages", "Stage 1 · attention alignment"),
    QT_TRANSLATE_NOOP("adala::stages", "Stage 2 · feature alignment"),
    QT_TRANSLATE_NOOP("adala::stages", "Stage 3 · fine-tuning"),
};

constexpr bool sameText(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

constexpr bool titlesAreTheCatalogs() {
  if (std::size(kStageTitlesForLupdate) != kStages.size()) return false;
  for (size_t i = 0; i < kStages.size(); ++i)
    if (!sameText(kStageTitlesForLupdate[i], kStages[i].title)) return false;
  return true;
}
static_assert(titlesAreTheCatalogs(),
              "the titles marked for lupdate differ from engine/train/stage_catalog.h");
static_assert(sameText(kStageTitleContext, "adala::stages"),
              "lupdate context differs from kStageTitleContext");

}  // namespace

const QStringList& stageNames() {
  static const QStringList names = [] {
    QStringList list;
    for (const auto& stage : kStages) list << QString::fromLatin1(stage.name);
    return list;
  }();
  return names;
}

int stageIndex(const QString& stage) { return adala::stage_index(stage.toStdString()); }

QString stageTitle(int index) {
  if (const StageSpec* stage = stage_by_index(index))
    return QCoreApplication::translate(kStageTitleContext, stage->title);
  return QCoreApplication::translate("adala::widgets", "unknown stage");
}

}  // namespace adala::widgets
