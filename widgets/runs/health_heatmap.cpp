#include "widgets/runs/health_heatmap.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QMouseEvent>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "engine/train/stage_catalog.h"
#include "widgets/common/log_axis_ticker.h"
#include "widgets/common/plot_style.h"
#include "widgets/runs/health_heatmap_grid.h"

#include "engine/store/run_store.h"

namespace adala::widgets {

namespace {

const char* const kMinNormaliser = "health.min_normaliser";
const char* const kLowShare = "health.low_normaliser_share";
const char* const kAttentionNonfinite = "health.attention_nonfinite";
const char* const kActivationNonfinite = "health.activation_nonfinite";
const char* const kGradNonfinite = "health.grad_nonfinite";
const char* const kMaxAbsActivation = "health.max_abs_activation";
const char* const kBlockMse = "block_mse";
const char* const kAllStages = "*";

QStringList nonfiniteHealthKeys() {
  return {QLatin1String(kAttentionNonfinite), QLatin1String(kActivationNonfinite),
          QLatin1String(kGradNonfinite)};
}

QString stageLabel(const QString& stage) {
  const int index = stage_index(stage.toStdString());
  return index >= 0 ? QStringLiteral("%1 · %2").arg(index).arg(stage) : stage;
}

}  // namespace

QStringList HealthHeatmap::healthKeys() {
  return {QLatin1String(kMinNormaliser),       QLatin1String(kLowShare),
          QLatin1String(kMaxAbsActivation),    QLatin1String(kAttentionNonfinite),
          QLatin1String(kActivationNonfinite), QLatin1String(kGradNonfinite)};
}

QString HealthHeatmap::alignmentKey() { return QLatin1String(kBlockMse); }
QString HealthHeatmap::allStages() { return QLatin1String(kAllStages); }

bool HealthHeatmap::logScaleKey(const QString& key) {
  return key == QLatin1String(kMinNormaliser) || key == QLatin1String(kMaxAbsActivation) ||
         key == QLatin1String(kBlockMse);
}

HealthHeatmap::HealthHeatmap(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* toolbar = new QHBoxLayout;
  toolbar->addWidget(new QLabel(tr("Stage:"), this));
  stageBox_ = new QComboBox(this);
  stageBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  stageBox_->setToolTip(tr("The stage whose health metrics are shown"));
  toolbar->addWidget(stageBox_);
  toolbar->addWidget(new QLabel(tr("Metric:"), this));
  keyBox_ = new QComboBox(this);
  keyBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  keyBox_->addItem(tr("smallest linear-attention normaliser"), QLatin1String(kMinNormaliser));
  keyBox_->addItem(tr("share of normalisers below the threshold"), QLatin1String(kLowShare));
  keyBox_->addItem(tr("largest |activation|"), QLatin1String(kMaxAbsActivation));
  keyBox_->addItem(tr("non-finite attention outputs"), QLatin1String(kAttentionNonfinite));
  keyBox_->addItem(tr("non-finite block outputs"), QLatin1String(kActivationNonfinite));
  keyBox_->addItem(tr("non-finite gradients"), QLatin1String(kGradNonfinite));
  keyBox_->addItem(tr("alignment MSE (Stage 1 attention output, Stage 2 hidden state)"),
                   QLatin1String(kBlockMse));
  keyBox_->setToolTip(
      tr("The health metric shown per block and step; cells with non-finite "
         "values (attention, block output or gradient) are outlined in red"));
  toolbar->addWidget(keyBox_);
  summary_ = new QLabel(this);
  summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // combos first
  toolbar->addWidget(summary_, 1);
  layout->addLayout(toolbar);

  buildPlot();
  layout->addWidget(plot_, 1);

  connect(stageBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redraw(); });
  connect(keyBox_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redraw(); });
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton) return;  // dragging
    lastHover_ = hoverText(event->position().toPoint());
    if (lastHover_.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(event->globalPosition().toPoint(), lastHover_, plot_);
  });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
    plot_->rescaleAxes();
    plot_->replot();
  });
  applyTheme();
  redraw();
}

// The colour map (viridis; grey where no value was recorded) with its scale and title.
void HealthHeatmap::buildPlot() {
  plot_ = new QCustomPlot(this);
  plot_->setMinimumHeight(160);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->plotLayout()->insertRow(0);
  title_ =
      new QCPTextElement(plot_, tr("Numerical health per block"),
                         QFont(plot_->font().family(), plot_->font().pointSize() + 1, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  plot_->xAxis->setLabel(tr("step"));
  plot_->yAxis->setLabel(tr("block"));
  plot_->yAxis->setRangeReversed(true);  // block 0 at the top, as the model stacks them
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->yAxis->setTicker(ticker);
  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  scale_ = new QCPColorScale(plot_);
  plot_->plotLayout()->addElement(1, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  map_->setColorScale(scale_);
  QCPColorGradient gradient;  // viridis: ordered in lightness, readable in grey and for CVD
  gradient.setColorStopAt(0.0, QColor(68, 1, 84));
  gradient.setColorStopAt(0.25, QColor(59, 82, 139));
  gradient.setColorStopAt(0.5, QColor(33, 145, 140));
  gradient.setColorStopAt(0.75, QColor(94, 201, 98));
  gradient.setColorStopAt(1.0, QColor(253, 231, 37));
  gradient.setNanHandling(QCPColorGradient::nhNanColor);
  gradient.setNanColor(QColor(160, 160, 160, 90));  // no value recorded
  map_->setGradient(gradient);
  auto* group = new QCPMarginGroup(plot_);
  plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
}

bool HealthHeatmap::loadRun(const QString& dbPath, qint64 runId, QString* error) {
  QVector<HealthSample> loaded;
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    const QStringList keys = healthKeys() + QStringList{alignmentKey()};
    for (const QString& key : keys)
      for (const auto& row : db.metrics(runId, "", key.toStdString()))
        if (row.block >= 0)
          loaded.push_back(
              HealthSample{QString::fromStdString(row.stage), row.step, key, row.block, row.value});
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  // Rows come per key; order them by stage as the pipeline runs them.
  std::stable_sort(loaded.begin(), loaded.end(), [](const HealthSample& a, const HealthSample& b) {
    return stage_index(a.stage.toStdString()) < stage_index(b.stage.toStdString());
  });
  runId_ = runId;
  setSamples(loaded);
  return true;
}

void HealthHeatmap::setSamples(const QVector<HealthSample>& samples) {
  samples_ = samples;
  rebuildStages();
  redraw();
}

void HealthHeatmap::clear() {
  runId_ = 0;
  setSamples({});
}

bool HealthHeatmap::setKey(const QString& key) {
  const int i = keyBox_->findData(key);
  if (i < 0) return false;
  keyBox_->setCurrentIndex(i);
  return true;
}

bool HealthHeatmap::setStage(const QString& stage) {
  const int i = stageBox_->findData(stage);
  if (i < 0) return false;
  stageBox_->setCurrentIndex(i);
  return true;
}

QString HealthHeatmap::key() const { return keyBox_->currentData().toString(); }
QString HealthHeatmap::stage() const { return stageBox_->currentData().toString(); }

QStringList HealthHeatmap::stages() const {
  QStringList out;
  for (int i = 0; i < stageBox_->count(); ++i) out << stageBox_->itemData(i).toString();
  return out;
}

bool HealthHeatmap::isMarked(int block, qint64 step) const {
  return marked_.contains(qMakePair(block, step));
}

void HealthHeatmap::rebuildStages() {
  const QString previous = stage();
  QStringList names;
  for (const auto& s : samples_)
    if (!names.contains(s.stage)) names << s.stage;
  const QSignalBlocker block(stageBox_);
  stageBox_->clear();
  for (const auto& name : names) stageBox_->addItem(stageLabel(name), name);
  if (names.size() > 1)
    stageBox_->addItem(tr("all stages (one step axis)"), QLatin1String(kAllStages));
  const int keep = stageBox_->findData(previous);
  // The chosen stage is kept while the run has it; otherwise the latest stage is shown.
  stageBox_->setCurrentIndex(keep >= 0 ? keep : int(names.size()) - 1);
}

void HealthHeatmap::redraw() {
  const QString key = this->key();
  const QString stage = this->stage();
  const bool all = stage == QLatin1String(kAllStages);
  const HeatmapStages stages = heatmapStages(samples_, key, stage, all);
  const HeatmapCells cells = heatmapCells(samples_, key, nonfiniteHealthKeys(), stages, all);

  clearOverlays();
  const bool log = logScaleKey(key);
  applyKeyToAxes(key, all, log);

  if (cells.steps.isEmpty() || cells.blocks == 0) {
    map_->data()->clear();
    map_->setVisible(false);
    summary_->setText(samples_.isEmpty() ? tr("No health metrics recorded for this run.")
                                         : tr("No health metrics for this stage."));
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  map_->setVisible(true);

  const HeatmapColumns columns = heatmapColumns(cells.steps);
  columnSteps_ = columns.steps;
  const QHash<QString, int> firstColumn = fillCells(cells, columns);
  map_->setDataRange(heatmapColourRange(cells.values, log));
  outlineNonfinite(cells, columns);
  if (all) drawStageBoundaries(stages, firstColumn, columns.halfWidth());

  const double halfWidth = columns.halfWidth();
  plot_->xAxis->setRange(columns.x0() - halfWidth,
                         (columns.count > 1 ? columns.x1() : columns.x0()) + halfWidth);
  plot_->yAxis->setRange(-0.5, cells.blocks - 0.5);
  summary_->setText(tr("%1 blocks × %2 steps (%3 – %4); %5 cells with non-finite values")
                        .arg(cells.blocks)
                        .arg(cells.steps.size())
                        .arg(columns.first)
                        .arg(columns.last)
                        .arg(marked_.size()));
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HealthHeatmap::clearOverlays() {
  for (auto* item : std::as_const(markedItems_)) plot_->removeItem(item);
  markedItems_.clear();
  marked_.clear();
  for (auto* item : std::as_const(boundaryItems_)) plot_->removeItem(item);
  boundaryItems_.clear();
  boundarySteps_.clear();
}

void HealthHeatmap::applyKeyToAxes(const QString& key, bool all, bool log) {
  title_->setText(key == QLatin1String(kBlockMse) ? tr("Alignment MSE per block")
                                                  : tr("Numerical health per block"));
  plot_->xAxis->setLabel(all ? tr("global step (stages one after another)") : tr("step"));
  scale_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log) {
    scale_->axis()->setTicker(QSharedPointer<LogAxisTicker>::create());  // every decade labelled
    scale_->axis()->setNumberFormat("gb");
    scale_->axis()->setNumberPrecision(3);
  } else {
    scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
    scale_->axis()->setNumberFormat("g");
    scale_->axis()->setNumberPrecision(4);
  }
  scale_->axis()->setLabel(keyBox_->currentText() + (log ? tr(" (log scale)") : QString()));
}

QHash<QString, int> HealthHeatmap::fillCells(const HeatmapCells& cells,
                                             const HeatmapColumns& columns) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double x0 = columns.x0();
  map_->data()->setSize(int(columns.count), cells.blocks);
  // A single column or block still needs a non-empty range (the cell sits at the lower end).
  map_->data()->setRange(QCPRange(x0, columns.count > 1 ? columns.x1() : x0 + 1),
                         QCPRange(0, cells.blocks > 1 ? cells.blocks - 1 : 1));
  map_->data()->fill(nan);
  QHash<QString, int> firstColumn;  // per stage, the first column it fills
  for (auto it = cells.values.cbegin(); it != cells.values.cend(); ++it) {
    const HeatmapExtent e = cells.extent.value(it.key());
    int c = int(std::lower_bound(columnSteps_.cbegin(), columnSteps_.cend(), e.from) -
                columnSteps_.cbegin());
    if (c < columnSteps_.size() && columnSteps_[c] <= e.to)
      firstColumn[e.stage] = std::min(firstColumn.value(e.stage, c), c);
    for (; c < columnSteps_.size() && columnSteps_[c] <= e.to; ++c)
      map_->data()->setCell(c, it.key().first, it.value());
  }
  return firstColumn;
}

void HealthHeatmap::outlineNonfinite(const HeatmapCells& cells, const HeatmapColumns& columns) {
  const double halfWidth = columns.halfWidth();
  for (auto it = cells.nonfinite.cbegin(); it != cells.nonfinite.cend(); ++it) {
    const int block = it.key().first;
    const qint64 step = it.key().second;
    marked_ << it.key();
    if (markedItems_.size() >= 2000) continue;  // drawn: the first 2000; counted: all
    double x = 0, y = 0;
    map_->data()->cellToCoord(columns.columnOf(step), block, &x, &y);
    auto* rect = new QCPItemRect(plot_);
    rect->setClipToAxisRect(true);
    rect->topLeft->setCoords(x - halfWidth, y - 0.5);
    rect->bottomRight->setCoords(x + halfWidth, y + 0.5);
    rect->setPen(QPen(QColor(230, 20, 20), 2));
    rect->setBrush(Qt::NoBrush);
    markedItems_ << rect;
  }
}

// Stage boundaries: a line at the left edge of each later stage's first cell, and each stage's
// name where it begins.
void HealthHeatmap::drawStageBoundaries(const HeatmapStages& stages,
                                        const QHash<QString, int>& firstColumn, double halfWidth) {
  const QColor ink = palette().color(QPalette::WindowText);
  QColor paper = palette().color(QPalette::Base);
  paper.setAlpha(200);
  for (int i = 0; i < stages.shown.size(); ++i) {
    const QString& name = stages.shown[i];
    if (!firstColumn.contains(name)) continue;
    const double x = double(columnSteps_[firstColumn[name]]) - halfWidth;
    if (i > 0) {
      // Its first global step: its first row's, or the one after the previous stage's end.
      boundarySteps_ << stages.offset.value(name) + (stages.firstStep.value(name) == 0 ? 0 : 1);
      auto* line = new QCPItemStraightLine(plot_);
      line->setClipToAxisRect(true);
      line->point1->setCoords(x, 0);
      line->point2->setCoords(x, 1);
      line->setPen(QPen(ink, 2, Qt::DashLine));
      boundaryItems_ << line;
    }
    auto* label = new QCPItemText(plot_);
    label->setClipToAxisRect(true);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.0);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(stageLabel(name));
    label->setColor(ink);
    label->setBrush(paper);
    label->setPadding(QMargins(4, 2, 4, 2));
    boundaryItems_ << label;
  }
}

void HealthHeatmap::applyTheme() {
  applyPlotPalette(plot_, palette(), font());
  scale_->axis()->setBasePen(plot_->xAxis->basePen());
  scale_->axis()->setTickPen(plot_->xAxis->tickPen());
  scale_->axis()->setSubTickPen(plot_->xAxis->subTickPen());
  scale_->axis()->setTickLabelColor(plot_->xAxis->tickLabelColor());
  scale_->axis()->setLabelColor(plot_->xAxis->labelColor());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HealthHeatmap::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) {
    applyTheme();
    redraw();  // the boundary lines and labels take the palette's colours
  }
  QWidget::changeEvent(event);
}

QString HealthHeatmap::hoverText(const QPoint& pixel) const {
  if (!map_->visible() || !plot_->axisRect()->rect().contains(pixel)) return QString();
  const double key = plot_->xAxis->pixelToCoord(pixel.x());
  const double value = plot_->yAxis->pixelToCoord(pixel.y());
  int column = -1, row = -1;
  map_->data()->coordToCell(key, value, &column, &row);
  if (column < 0 || row < 0 || column >= map_->data()->keySize() ||
      row >= map_->data()->valueSize() || column >= columnSteps_.size())
    return QString();
  const double v = map_->data()->cell(column, row);
  const QString shown = std::isnan(v) ? tr("no value recorded") : QString::number(v, 'g', 6);
  return tr("block %1, step %2\n%3: %4")
      .arg(row)
      .arg(columnSteps_[column])
      .arg(keyBox_->currentText(), shown);
}

}  // namespace adala::widgets
