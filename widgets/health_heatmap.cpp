#include "widgets/health_heatmap.h"

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
#include <numeric>

#include <qcustomplot.h>

#include "engine/train/stage_catalog.h"
#include "widgets/log_axis_ticker.h"
#include "widgets/plot_style.h"

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

bool isNonfiniteKey(const QString& key) {
  return key == QLatin1String(kAttentionNonfinite) || key == QLatin1String(kActivationNonfinite) ||
         key == QLatin1String(kGradNonfinite);
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
  const double nan = std::numeric_limits<double>::quiet_NaN();

  const bool all = stage == QLatin1String(kAllStages);

  // The stages shown, in pipeline order, each with the offset that puts its steps on the x
  // axis: one stage at its own steps; all stages (those with rows of the key) one after
  // another. A stage logged from step 0 logs at the start of each interval (a value covers
  // [s, s + interval)) and lasts until one interval after its last row; one logged from a
  // later step counts its steps from 1 (a value covers (s - interval, s]) and ends at its
  // last row.
  QStringList shown;
  QHash<QString, qint64> offset, interval, firstStep;
  if (!all) {
    shown << stage;
    offset[stage] = 0;
  } else {
    QHash<QString, QVector<qint64>> stageSteps;
    for (const auto& s : samples_) {
      if (s.key != key) continue;
      if (!shown.contains(s.stage)) shown << s.stage;
      stageSteps[s.stage] << s.step;
    }
    qint64 next = 0;
    for (const QString& name : std::as_const(shown)) {
      auto& st = stageSteps[name];
      std::sort(st.begin(), st.end());
      qint64 gap = 0;
      for (int i = 1; i < st.size(); ++i) gap = std::gcd(gap, st[i] - st[0]);
      interval[name] = gap > 0 ? gap : 1;
      firstStep[name] = st.first();
      offset[name] = next;
      next += st.last() + (st.first() == 0 ? interval[name] : 0);
    }
  }

  // Cells: the (global) steps of the stages shown (any health key), every block seen. With
  // all stages, a value covers its stage's logging interval, so stages logged at different
  // intervals share one grid without empty columns between their rows.
  struct Extent {
    qint64 from = 0, to = 0;  // the global steps a value covers
    QString stage;
  };
  QVector<qint64> steps;
  int blocks = 0;
  QMap<QPair<int, qint64>, double> values, nonfinite;
  QMap<QPair<int, qint64>, Extent> extent;
  QMap<QPair<int, qint64>, QString> valueStage;
  QHash<QString, QVector<qint64>> logged;  // per stage, the (global) steps that logged `key`
  for (const auto& s : samples_) {
    if (!offset.contains(s.stage)) continue;
    const qint64 step = offset[s.stage] + s.step;
    steps << step;
    blocks = std::max(blocks, s.block + 1);
    if (s.key == key) {
      values[qMakePair(s.block, step)] = s.value;
      valueStage[qMakePair(s.block, step)] = s.stage;
      logged[s.stage] << step;
    }
    if (isNonfiniteKey(s.key) && (s.value > 0 || std::isnan(s.value)))
      nonfinite[qMakePair(s.block, step)] += 1;
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  // A value covers the steps up to the next logged one (a stage logging from step 0 logs at
  // the start of each interval) or back to the previous one (logging at its end, as the
  // training loop does), where that gap is no longer than the stage's usual logging interval:
  // its cells are contiguous even where the last step breaks the interval (936 after 930),
  // and a longer gap (steps that logged nothing) stays empty.
  QHash<QString, qint64> usualGap;
  for (auto it = logged.begin(); it != logged.end(); ++it) {
    auto& st = it.value();
    std::sort(st.begin(), st.end());
    st.erase(std::unique(st.begin(), st.end()), st.end());
    QMap<qint64, int> gaps;
    for (int i = 1; i < st.size(); ++i) ++gaps[st[i] - st[i - 1]];
    qint64 usual = 0;
    int seen = 0;
    for (auto g = gaps.cbegin(); g != gaps.cend(); ++g)  // the most frequent, the smallest of ties
      if (g.value() > seen) usual = g.key(), seen = g.value();
    usualGap[it.key()] = usual;
  }
  for (auto it = values.cbegin(); it != values.cend(); ++it) {
    const QString& stage = valueStage[it.key()];
    const auto& st = logged[stage];
    const qint64 step = it.key().second, usual = usualGap[stage];
    const auto i = std::lower_bound(st.begin(), st.end(), step) - st.begin();
    Extent e{step, step, stage};
    if (st.first() - offset[stage] == 0) {
      if (i + 1 < st.size() && st[i + 1] - step <= usual) e.to = st[i + 1] - 1;
    } else if (i > 0 && step - st[i - 1] <= usual) {
      e.from = st[i - 1] + 1;
    } else if (i == 0 && all && usual > 0) {
      e.from = std::max(offset[stage] + 1, step - usual + 1);  // the stage's first interval
    }
    extent[it.key()] = e;
  }

  for (auto* item : std::as_const(markedItems_)) plot_->removeItem(item);
  markedItems_.clear();
  marked_.clear();
  for (auto* item : std::as_const(boundaryItems_)) plot_->removeItem(item);
  boundaryItems_.clear();
  boundarySteps_.clear();
  title_->setText(key == QLatin1String(kBlockMse) ? tr("Alignment MSE per block")
                                                  : tr("Numerical health per block"));
  plot_->xAxis->setLabel(all ? tr("global step (stages one after another)") : tr("step"));

  const bool log = logScaleKey(key);
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

  if (steps.isEmpty() || blocks == 0) {
    map_->data()->clear();
    map_->setVisible(false);
    summary_->setText(samples_.isEmpty() ? tr("No health metrics recorded for this run.")
                                         : tr("No health metrics for this stage."));
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  map_->setVisible(true);

  // Steps on a regular grid (their greatest common spacing), so the x axis reads in steps;
  // a step without rows is an empty (grey) cell.
  qint64 spacing = 0;
  for (int i = 1; i < steps.size(); ++i) spacing = std::gcd(spacing, steps[i] - steps[0]);
  if (spacing <= 0) spacing = 1;
  const qint64 first = steps.first(), last = steps.last();
  qint64 columns = (last - first) / spacing + 1;
  if (columns > 4096) {  // very long runs: one column per recorded step instead
    spacing = 0;
    columns = steps.size();
  }
  columnSteps_.clear();
  if (spacing > 0)
    for (qint64 st = first; st <= last; st += spacing) columnSteps_ << st;
  else
    columnSteps_ = steps;
  auto columnOf = [&](qint64 step) -> int {
    if (spacing > 0) return int((step - first) / spacing);
    return int(std::lower_bound(steps.begin(), steps.end(), step) - steps.begin());
  };
  const double x0 = double(first);
  const double x1 = spacing > 0 ? double(last) : double(first + columns - 1);
  map_->data()->setSize(int(columns), blocks);
  // A single column or block still needs a non-empty range (the cell sits at the lower end).
  map_->data()->setRange(QCPRange(x0, columns > 1 ? x1 : x0 + 1),
                         QCPRange(0, blocks > 1 ? blocks - 1 : 1));
  map_->data()->fill(nan);
  QHash<QString, int> firstColumn;  // per stage, the first column it fills
  for (auto it = values.cbegin(); it != values.cend(); ++it) {
    const Extent e = extent.value(it.key());
    int c = int(std::lower_bound(columnSteps_.cbegin(), columnSteps_.cend(), e.from) -
                columnSteps_.cbegin());
    if (c < columnSteps_.size() && columnSteps_[c] <= e.to)
      firstColumn[e.stage] = std::min(firstColumn.value(e.stage, c), c);
    for (; c < columnSteps_.size() && columnSteps_[c] <= e.to; ++c)
      map_->data()->setCell(c, it.key().first, it.value());
  }
  // Colour range over the values the scale can draw (positive ones on a log scale).
  QCPRange range;
  bool any = false;
  for (double v : std::as_const(values)) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    if (!any) range = QCPRange(v, v);
    range.expand(v);
    any = true;
  }
  if (!any) range = log ? QCPRange(1e-6, 1) : QCPRange(0, 1);
  if (range.size() <= 0)
    range = log ? QCPRange(range.lower / 2, range.upper * 2)
                : QCPRange(range.lower - 0.5, range.upper + 0.5);
  map_->setDataRange(range);

  const double halfWidth = spacing > 0 ? 0.5 * double(spacing) : 0.5;
  for (auto it = nonfinite.cbegin(); it != nonfinite.cend(); ++it) {
    const int block = it.key().first;
    const qint64 step = it.key().second;
    marked_ << it.key();
    if (markedItems_.size() >= 2000) continue;  // drawn: the first 2000; counted: all
    double x = 0, y = 0;
    map_->data()->cellToCoord(columnOf(step), block, &x, &y);
    auto* rect = new QCPItemRect(plot_);
    rect->setClipToAxisRect(true);
    rect->topLeft->setCoords(x - halfWidth, y - 0.5);
    rect->bottomRight->setCoords(x + halfWidth, y + 0.5);
    rect->setPen(QPen(QColor(230, 20, 20), 2));
    rect->setBrush(Qt::NoBrush);
    markedItems_ << rect;
  }

  // Stage boundaries: a line at the left edge of each later stage's first cell, and each
  // stage's name where it begins.
  if (all) {
    const QColor ink = palette().color(QPalette::WindowText);
    QColor paper = palette().color(QPalette::Base);
    paper.setAlpha(200);
    for (int i = 0; i < shown.size(); ++i) {
      const QString& name = shown[i];
      if (!firstColumn.contains(name)) continue;
      const double x = double(columnSteps_[firstColumn[name]]) - halfWidth;
      if (i > 0) {
        // Its first global step: its first row's, or the one after the previous stage's end.
        boundarySteps_ << offset[name] + (firstStep[name] == 0 ? 0 : 1);
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
      label->setText(stageLabel(shown[i]));
      label->setColor(ink);
      label->setBrush(paper);
      label->setPadding(QMargins(4, 2, 4, 2));
      boundaryItems_ << label;
    }
  }

  plot_->xAxis->setRange(x0 - halfWidth, (columns > 1 ? x1 : x0) + halfWidth);
  plot_->yAxis->setRange(-0.5, blocks - 0.5);
  summary_->setText(tr("%1 blocks × %2 steps (%3 – %4); %5 cells with non-finite values")
                        .arg(blocks)
                        .arg(steps.size())
                        .arg(first)
                        .arg(last)
                        .arg(marked_.size()));
  plot_->replot(QCustomPlot::rpQueuedReplot);
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
