#include "widgets/plans/plan_frontier_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QButtonGroup>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "engine/store/run_store.h"
#include "widgets/common/plot_style.h"

namespace adala::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kRunRole = Qt::UserRole + 1;
constexpr int kSquare = 9;  // a block's square in the plot's strips, pixels

QColor letterColor(char letter) {
  for (const auto& m : kAttentionModes)
    if (m.letter == letter) return modeColor(QString::fromLatin1(m.name));
  return QColor(Qt::gray);
}

// The x of a cost on the plot: ms, or MB of peak memory.
double shownCost(double cost, FrontierCost axis) {
  return axis == FrontierCost::PeakBytes ? cost / 1e6 : cost;
}

// A plan's point label: its name, and under it one coloured square per block (block 0 first).
// Drawn to the right of the point, or to its left in the right half of the axis rect.
class PlanMarker : public QCPAbstractItem {
 public:
  PlanMarker(QCustomPlot* plot, const QString& name, const QString& strip, const QColor& text)
      : QCPAbstractItem(plot),
        position(createPosition(QStringLiteral("position"))),
        name_(name),
        strip_(strip),
        text_(text) {}
  QCPItemPosition* const position;

  double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

 protected:
  void draw(QCPPainter* painter) override {
    const QPointF at = position->pixelPosition();
    const QRect frame = clipRect();
    const QFontMetrics metrics(mParentPlot->font());
    const int width =
        std::max(metrics.horizontalAdvance(name_), int(strip_.size()) * (kSquare + 1) - 1);
    const bool left = at.x() + 8 + width > frame.right() - 2;
    const double x0 = left ? at.x() - 8 - width : at.x() + 8;
    const double top = at.y() - metrics.height() - 2;
    painter->setFont(mParentPlot->font());
    painter->setPen(text_);
    painter->drawText(QPointF(x0, top + metrics.ascent()), name_);
    const double y = top + metrics.height() + 1;
    for (int b = 0; b < strip_.size(); ++b) {
      const QRectF square(x0 + b * (kSquare + 1), y, kSquare, kSquare);
      const QColor c = letterColor(strip_[b].toLatin1());
      painter->setPen(QPen(c.darker(130), 1));
      painter->setBrush(c);
      painter->drawRect(square);
    }
  }

 private:
  QString name_, strip_;
  QColor text_;
};

// The Blocks column: one coloured cell per block with its letter (the item's text, "SLLW").
class StripDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  static constexpr int kCell = 16;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString strip = opt.text;
    opt.text.clear();
    opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    QFont font = opt.font;
    font.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.8));
    font.setBold(true);
    painter->setFont(font);
    const int y = opt.rect.top() + (opt.rect.height() - kCell) / 2;
    for (int b = 0; b < strip.size(); ++b) {
      const QRect cell(opt.rect.left() + 4 + b * (kCell + 1), y, kCell, kCell);
      const QColor c = letterColor(strip[b].toLatin1());
      painter->fillRect(cell, c);
      painter->setPen(Qt::white);
      painter->drawText(cell, Qt::AlignCenter, QString(strip[b]));
    }
    painter->restore();
  }
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    const int n = index.data(Qt::DisplayRole).toString().size();
    return QSize(8 + n * (kCell + 1), std::max(kCell + 4, option.fontMetrics.height() + 4));
  }
};

QTableWidgetItem* cell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

// Orange: apart from the strips' colours.
QColor planFrontierColor() { return seriesColor(1); }

QString fixed(double v, int decimals) {
  return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
}

}  // namespace

PlanFrontierView::PlanFrontierView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(buildControls());

  stack_ = new QStackedWidget(this);
  empty_ = new QLabel(this);
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setWordWrap(true);
  empty_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  empty_->setObjectName(QStringLiteral("planFrontierEmpty"));
  stack_->addWidget(empty_);
  stack_->addWidget(buildContent());
  layout->addWidget(stack_, 1);

  pointsGraph_ = plot_->addGraph();
  frontierGraph_ = plot_->addGraph();
  pointsGraph_->setName(tr("plans"));
  frontierGraph_->setName(tr("frontier"));
  pointsGraph_->setLineStyle(QCPGraph::lsNone);
  frontierGraph_->setLineStyle(QCPGraph::lsStepLeft);
  plot_->yAxis->setLabel(tr("top-1 (%)"));

  connectControls();
  showEmpty(emptyHint());
}

// Session, resolution, cost axis and Refresh.
QHBoxLayout* PlanFrontierView::buildControls() {
  auto* controls = new QHBoxLayout;
  plannerCombo_ = new QComboBox(this);
  plannerCombo_->setToolTip(tr("The planning session (the folder of one `adala plan` run)"));
  plannerCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  resolutionCombo_ = new QComboBox(this);
  resolutionCombo_->setToolTip(tr("The input side at which every plan shown has a cost"));
  msButton_ = new QRadioButton(tr("ms / image"), this);
  peakButton_ = new QRadioButton(tr("Peak memory (MB)"), this);
  msButton_->setChecked(true);
  costGroup_ = new QButtonGroup(this);
  costGroup_->addButton(msButton_);
  costGroup_->addButton(peakButton_);
  refreshButton_ = new QPushButton(tr("Refresh"), this);
  refreshButton_->setToolTip(tr("Read the database again (F5)"));
  auto* sessionLabel = new QLabel(tr("&Session:"), this);
  sessionLabel->setBuddy(plannerCombo_);
  auto* resolutionLabel = new QLabel(tr("&Resolution:"), this);
  resolutionLabel->setBuddy(resolutionCombo_);
  controls->addWidget(sessionLabel);
  controls->addWidget(plannerCombo_);
  controls->addSpacing(12);
  controls->addWidget(resolutionLabel);
  controls->addWidget(resolutionCombo_);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("Cost:"), this));
  controls->addWidget(msButton_);
  controls->addWidget(peakButton_);
  controls->addStretch(1);
  controls->addWidget(refreshButton_);
  return controls;
}

// The summary line, then the plot (with its legend) above the table of plans.
QWidget* PlanFrontierView::buildContent() {
  auto* content = new QWidget(this);
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  summary_ = new QLabel(content);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  contentLayout->addWidget(summary_);
  auto* splitter = new QSplitter(Qt::Vertical, content);
  auto* plotBox = new QWidget(splitter);
  auto* plotLayout = new QVBoxLayout(plotBox);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  plot_ = new QCustomPlot(plotBox);
  plot_->setMinimumHeight(240);
  plot_->setMouseTracking(true);
  plotLayout->addWidget(plot_, 1);
  legend_ = new QLabel(plotBox);
  legend_->setAlignment(Qt::AlignCenter);
  plotLayout->addWidget(legend_);
  table_ = new QTableWidget(0, ColumnCount, splitter);
  table_->setHorizontalHeaderLabels({tr("Plan"), tr("Session"), tr("Blocks"), tr("Top-1 (%)"),
                                     tr("Gap to teacher (pt)"), tr("ms / image"), tr("Peak MB"),
                                     tr("Run"), tr("Frontier")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setItemDelegateForColumn(BlocksColumn, new StripDelegate(table_));
  table_->setToolTip(tr("Double-click a plan (or press Enter) to open its run"));
  splitter->addWidget(plotBox);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  contentLayout->addWidget(splitter, 1);
  return content;
}

void PlanFrontierView::connectControls() {
  connect(plannerCombo_, &QComboBox::currentIndexChanged, this, [this] {
    if (updating_) return;
    choosePoints();
    redraw();
  });
  connect(resolutionCombo_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) redraw();
  });
  connect(costGroup_, &QButtonGroup::buttonToggled, this, [this](QAbstractButton* b, bool on) {
    if (!on) return;
    axis_ = b == peakButton_ ? FrontierCost::PeakBytes : FrontierCost::MsPerImage;
    if (!updating_) redraw();
  });
  connect(refreshButton_, &QPushButton::clicked, this, &PlanFrontierView::refresh);
  connect(plot_, &QCustomPlot::mousePress, this, &PlanFrontierView::onPlotPress);
  connect(plot_, &QCustomPlot::mouseRelease, this, &PlanFrontierView::onPlotRelease);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlanFrontierView::onPlotMove);
  connect(table_, &QTableWidget::activated, this, [this](const QModelIndex& index) {
    const qint64 run = runAtRow(index.row());
    if (run >= 0) emit runOpened(run);
  });
}

QString PlanFrontierView::emptyHint() {
  return tr(
      "No trained attention plans in this run database.\n\nTrain some with\n"
      "    adala plan CONFIG --res R --train\n"
      "(each plan's top-1 and its cost at R px are recorded here), then refresh (F5).");
}

void PlanFrontierView::setDatabasePath(const QString& path) {
  dbPath_ = path;
  refresh();
}

void PlanFrontierView::refresh() {
  all_.clear();
  QString error;
  if (!dbPath_.isEmpty() && QFileInfo::exists(dbPath_)) {
    try {
      store::RunStore db(dbPath_.toStdString(), store::OpenMode::ReadOnly);
      all_ = read_plan_points(db);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
  }
  // The session combo: "all" first, then the folders; the one shown stays where it can.
  const QString shown = planner();
  updating_ = true;
  plannerCombo_->clear();
  plannerCombo_->addItem(tr("All sessions"), QString());
  for (const auto& folder : plan_planners(all_)) {
    const QString f = QString::fromStdString(folder);
    plannerCombo_->addItem(f, f);
  }
  const int keep = plannerCombo_->findData(shown);
  plannerCombo_->setCurrentIndex(keep < 0 ? 0 : keep);
  updating_ = false;
  choosePoints();
  if (!error.isEmpty()) {
    showEmpty(tr("Cannot read the run database %1:\n%2").arg(dbPath_, error));
    return;
  }
  redraw();
}

QString PlanFrontierView::planner() const { return plannerCombo_->currentData().toString(); }

bool PlanFrontierView::setPlanner(const QString& folder) {
  const int i = plannerCombo_->findData(folder);
  if (i < 0) return false;
  plannerCombo_->setCurrentIndex(i);
  return true;
}

QStringList PlanFrontierView::planners() const {
  QStringList list;
  for (int i = 0; i < plannerCombo_->count(); ++i) list << plannerCombo_->itemData(i).toString();
  return list;
}

qint64 PlanFrontierView::resolution() const {
  return resolutionCombo_->currentIndex() < 0 ? 0 : resolutionCombo_->currentData().toLongLong();
}

bool PlanFrontierView::setResolution(qint64 resolution) {
  const int i = resolutionCombo_->findData(resolution);
  if (i < 0) return false;
  resolutionCombo_->setCurrentIndex(i);
  return true;
}

QVector<qint64> PlanFrontierView::resolutions() const {
  QVector<qint64> list;
  for (int i = 0; i < resolutionCombo_->count(); ++i)
    list << resolutionCombo_->itemData(i).toLongLong();
  return list;
}

void PlanFrontierView::setCostAxis(FrontierCost axis) {
  (axis == FrontierCost::PeakBytes ? peakButton_ : msButton_)->setChecked(true);
}

void PlanFrontierView::choosePoints() {
  const std::string folder = planner().toStdString();
  points_.clear();
  for (const auto& p : all_)
    if (folder.empty() || p.planner == folder) points_.push_back(p);
  const qint64 shown = resolution();
  updating_ = true;
  resolutionCombo_->clear();
  for (int64_t r : common_resolutions(points_))
    resolutionCombo_->addItem(tr("%1 px").arg(r), qint64(r));
  const int keep = resolutionCombo_->findData(shown);
  // Default: the largest, usually the resolution the plans were made for (adala plan --res).
  if (resolutionCombo_->count() > 0)
    resolutionCombo_->setCurrentIndex(keep < 0 ? resolutionCombo_->count() - 1 : keep);
  updating_ = false;
}

void PlanFrontierView::showEmpty(const QString& text) {
  empty_->setText(text);
  stack_->setCurrentWidget(empty_);
  rows_.clear();
  plotted_.clear();
  table_->setRowCount(0);
}

bool PlanFrontierView::showsEmptyState() const { return stack_->currentWidget() == empty_; }

QString PlanFrontierView::message() const {
  return showsEmptyState() ? empty_->text() : summary_->text();
}

void PlanFrontierView::redraw() {
  if (points_.empty()) {
    showEmpty(emptyHint());
    return;
  }
  stack_->setCurrentIndex(1);
  rows_ = plan_rows(points_, resolution(), axis_);
  fillTable();
  drawPlot();
}

QString PlanFrontierView::pointText(const PlanPoint& p) const {
  return tr("%1 (run %2): %3, top-1 %4%")
      .arg(QString::fromStdString(p.name))
      .arg(p.run)
      .arg(QString::fromStdString(plan_strip(p.modes)), fixed(100.0 * p.top1, 2));
}

void PlanFrontierView::fillTable() {
  const qint64 res = resolution();
  const bool sessions = planner().isEmpty() && plan_planners(points_).size() > 1;
  table_->setColumnHidden(SessionColumn, !sessions);
  table_->setRowCount(int(rows_.size()));
  for (int r = 0; r < int(rows_.size()); ++r) {
    const PlanRow& row = rows_[size_t(r)];
    const PlanPoint& p = points_[row.index];
    const PlanCost* c = res > 0 ? p.cost_at(res) : nullptr;
    const double gap = row.gap_points;
    const QString gapText = std::isfinite(gap)
                                ? (gap > 0 ? QStringLiteral("+") : QString()) + fixed(gap, 2)
                                : QStringLiteral("–");
    QTableWidgetItem* items[ColumnCount] = {
        cell(QString::fromStdString(p.name)),
        cell(QString::fromStdString(p.planner)),
        cell(QString::fromStdString(plan_strip(p.modes))),
        cell(fixed(100.0 * p.top1, 2), true),
        cell(gapText, true),
        cell(fixed(c ? cost_value(*c, FrontierCost::MsPerImage) : kNaN, 3), true),
        cell(fixed(c ? cost_value(*c, FrontierCost::PeakBytes) / 1e6 : kNaN, 2), true),
        cell(QString::number(p.run), true),
        cell(row.on_frontier ? QStringLiteral("●") : QString())};
    items[FrontierColumn]->setTextAlignment(Qt::AlignCenter);
    if (row.on_frontier) items[FrontierColumn]->setToolTip(tr("On the accuracy-cost frontier"));
    QStringList modes;
    for (auto m : p.modes) modes << QString::fromLatin1(to_string(m));
    items[BlocksColumn]->setToolTip(modes.join(QStringLiteral(", ")));
    for (int col = 0; col < ColumnCount; ++col) {
      items[col]->setData(kRunRole, qint64(p.run));
      table_->setItem(r, col, items[col]);
    }
  }
  table_->resizeColumnsToContents();
}

void PlanFrontierView::drawPlot() {
  const qint64 res = resolution();
  plot_->clearItems();
  plotted_.clear();
  const QPalette pal = palette();
  applyPlotPalette(plot_, pal, font());
  const QColor text = pal.color(QPalette::Text);
  const bool ms = axis_ == FrontierCost::MsPerImage;
  plot_->xAxis->setLabel(
      res > 0 ? (ms ? tr("ms / image at %1 px") : tr("peak memory (MB) at %1 px")).arg(res)
              : QString());
  plotPoints(text, pal.color(QPalette::Base));
  addPlotItems(text);
  fitPlotRanges();
  updateLegend();
  updateSummary(res);
  plot_->replot();
}

// The plans with a cost and a top-1 (plotted_), cheapest first, and the frontier among them.
void PlanFrontierView::plotPoints(const QColor& text, const QColor& base) {
  QVector<double> xs, ys, fx, fy;
  for (const auto& row : rows_) {  // cheapest first
    const PlanPoint& p = points_[row.index];
    if (!std::isfinite(row.cost) || !std::isfinite(p.top1)) continue;
    Plotted d{row.index, shownCost(row.cost, axis_), 100.0 * p.top1};
    plotted_.push_back(d);
    xs << d.x;
    ys << d.y;
    if (row.on_frontier) {
      fx << d.x;
      fy << d.y;
    }
  }
  const QColor pointColor = text;
  pointsGraph_->setPen(QPen(pointColor));
  pointsGraph_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(pointColor, 1.5), base, 8));
  pointsGraph_->setData(xs, ys, true);
  const QColor frontierColor = planFrontierColor();
  frontierGraph_->setPen(QPen(frontierColor, 2));
  frontierGraph_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(frontierColor), frontierColor, 6));
  frontierGraph_->setData(fx, fy, true);
}

// Each plotted plan's name and block strip, and the teacher's top-1 across the plot when one
// session is shown.
void PlanFrontierView::addPlotItems(const QColor& text) {
  for (const auto& d : plotted_) {
    const PlanPoint& p = points_[d.index];
    auto* marker = new PlanMarker(plot_, QString::fromStdString(p.name),
                                  QString::fromStdString(plan_strip(p.modes)), text);
    marker->position->setCoords(d.x, d.y);
  }
  const auto sessions = plan_planners(points_);
  if (sessions.size() <= 1) {
    if (const PlanPoint* teacher =
            plan_teacher(points_, sessions.empty() ? std::string() : sessions.front())) {
      auto* line = new QCPItemStraightLine(plot_);
      line->point1->setCoords(0, 100.0 * teacher->top1);
      line->point2->setCoords(1, 100.0 * teacher->top1);
      line->setPen(QPen(modeColor(QStringLiteral("teacher")), 1, Qt::DashLine));
    }
  }
}

// The axes around the plotted plans, with room for their labels.
void PlanFrontierView::fitPlotRanges() {
  if (plotted_.empty()) return;
  double x0 = plotted_.front().x, x1 = x0, y0 = plotted_.front().y, y1 = y0;
  for (const auto& d : plotted_) {
    x0 = std::min(x0, d.x);
    x1 = std::max(x1, d.x);
    y0 = std::min(y0, d.y);
    y1 = std::max(y1, d.y);
  }
  const double dx = x1 > x0 ? x1 - x0 : std::max(std::abs(x0) * 0.2, 0.01);
  const double dy = y1 > y0 ? y1 - y0 : 2.0;
  plot_->xAxis->setRange(x0 - 0.12 * dx, x1 + 0.12 * dx);
  plot_->yAxis->setRange(y0 - 0.12 * dy, y1 + 0.25 * dy);
}

void PlanFrontierView::updateLegend() {
  const auto swatch = [](const QColor& c) {
    return QStringLiteral("<span style=\"color:%1\">■</span>").arg(c.name());
  };
  QStringList entries;
  for (const auto& m : kAttentionModes)
    entries << swatch(modeColor(QString::fromLatin1(m.name))) +
                   QStringLiteral(" %1 %2").arg(QChar(m.letter)).arg(QString::fromLatin1(m.name));
  entries << QStringLiteral("<span style=\"color:%1\">━●</span> ").arg(planFrontierColor().name()) +
                 tr("frontier");
  entries << tr("○ plan (click: open its run)");
  legend_->setText(entries.join(QStringLiteral(" &nbsp;&nbsp; ")));
}

void PlanFrontierView::updateSummary(qint64 res) {
  QStringList frontier;
  for (const auto& row : rows_)
    if (row.on_frontier) frontier << QString::fromStdString(points_[row.index].name);
  const QString session = planner().isEmpty() ? tr("every session") : planner();
  if (res <= 0)
    summary_->setText(tr("%n plan(s) of %1. They share no resolution at which each has a cost: "
                         "measure them with adala plan CONFIG --res R.",
                         nullptr, int(points_.size()))
                          .arg(session));
  else
    summary_->setText(
        tr("%n plan(s) of %1 at %2 px. Frontier, cheapest first: %3", nullptr, int(points_.size()))
            .arg(session)
            .arg(res)
            .arg(frontier.join(QStringLiteral(" → "))));
}

qint64 PlanFrontierView::runAtRow(int row) const {
  if (row < 0 || row >= int(rows_.size())) return -1;
  return points_[rows_[size_t(row)].index].run;
}

bool PlanFrontierView::frontierAtRow(int row) const {
  return row >= 0 && row < int(rows_.size()) && rows_[size_t(row)].on_frontier;
}

double PlanFrontierView::plottedX(qint64 run) const {
  for (const auto& d : plotted_)
    if (points_[d.index].run == run) return d.x;
  return kNaN;
}

QPoint PlanFrontierView::pointPosition(qint64 run) const {
  for (const auto& d : plotted_)
    if (points_[d.index].run == run)
      return QPointF(plot_->xAxis->coordToPixel(d.x), plot_->yAxis->coordToPixel(d.y)).toPoint();
  return QPoint(-1, -1);
}

qint64 PlanFrontierView::runAt(const QPoint& pixel, double radius) const {
  qint64 best = -1;
  double bestDistance = radius;
  for (const auto& d : plotted_) {
    const QPointF at(plot_->xAxis->coordToPixel(d.x), plot_->yAxis->coordToPixel(d.y));
    const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = points_[d.index].run;
    }
  }
  return best;
}

void PlanFrontierView::selectRun(qint64 run) {
  for (int r = 0; r < int(rows_.size()); ++r)
    if (runAtRow(r) == run) {
      table_->selectRow(r);
      table_->scrollToItem(table_->item(r, PlanColumn));
    }
}

void PlanFrontierView::onPlotPress(QMouseEvent* event) {
  pressPos_ = event->button() == Qt::LeftButton ? event->pos() : QPoint(-1, -1);
}

void PlanFrontierView::onPlotRelease(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || pressPos_.x() < 0) return;
  const bool click = (event->pos() - pressPos_).manhattanLength() <= 4;
  pressPos_ = QPoint(-1, -1);
  if (!click) return;
  const qint64 run = runAt(event->pos());
  if (run < 0) return;
  selectRun(run);
  emit runOpened(run);
}

void PlanFrontierView::onPlotMove(QMouseEvent* event) {
  const qint64 run = runAt(event->pos());
  QString tip;
  for (const auto& p : points_)
    if (p.run == run) tip = pointText(p) + QLatin1Char('\n') + tr("Click to open the run.");
  plot_->setToolTip(tip);
  plot_->setCursor(run >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void PlanFrontierView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && !showsEmptyState()) drawPlot();
}

}  // namespace adala::widgets
