#include "widgets/segmentation/segmentation_legend.h"

#include <QApplication>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtNumeric>

#include <algorithm>
#include <cmath>

#include "widgets/segmentation/segmentation_render.h"

namespace adala::widgets {

namespace {

// Colours of the teacher's and the student's IoU bars (as in the per-image titles).
const QColor kTeacherBar(70, 130, 230, 120);
const QColor kStudentBar(240, 150, 40, 130);

void drawItemBackground(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) {
  QStyleOptionViewItem o = option;
  o.text.clear();
  o.icon = QIcon();
  o.features &= ~QStyleOptionViewItem::HasDisplay;
  o.features &= ~QStyleOptionViewItem::HasDecoration;
  const QWidget* w = option.widget;
  (w ? w->style() : QApplication::style())->drawControl(QStyle::CE_ItemViewItem, &o, p, w);
  Q_UNUSED(index);
}

QColor textColor(const QStyleOptionViewItem& option) {
  return option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                    : QPalette::Text);
}

// Swatch and name.
class ClassCellDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* p, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    drawItemBackground(p, option, index);
    p->save();
    const QRect swatch = ClassLegend::swatchRect(option.rect);
    p->fillRect(swatch, index.data(ClassLegend::kColorRole).value<QColor>());
    p->setPen(option.palette.color(QPalette::Mid));
    p->drawRect(swatch.adjusted(0, 0, -1, -1));
    QFont f = option.font;
    if (const QVariant font = index.data(Qt::FontRole); font.isValid()) f = font.value<QFont>();
    p->setFont(f);
    p->setPen(textColor(option));
    const QRect text = option.rect.adjusted(swatch.right() - option.rect.left() + 6, 0, -2, 0);
    p->drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(f).elidedText(index.data().toString(), Qt::ElideRight, text.width()));
    p->restore();
  }
};

// IoU as a number over a bar of its length.
class IouBarDelegate : public QStyledItemDelegate {
 public:
  IouBarDelegate(QColor bar, QObject* parent) : QStyledItemDelegate(parent), bar_(bar) {}
  void paint(QPainter* p, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    drawItemBackground(p, option, index);
    p->save();
    const double v = index.data(ClassLegend::kValueRole).toDouble();
    const QRect inner = option.rect.adjusted(2, 3, -2, -3);
    if (!qIsNaN(v))
      p->fillRect(QRectF(inner.left(), inner.top(), inner.width() * std::clamp(v, 0.0, 1.0),
                         inner.height()),
                  bar_);
    p->setPen(textColor(option));
    p->drawText(option.rect.adjusted(2, 0, -4, 0), Qt::AlignVCenter | Qt::AlignRight,
                index.data().toString());
    p->restore();
  }

 private:
  QColor bar_;
};

QString iouText(const QVector<double>& values, int i) {
  if (i >= values.size() || qIsNaN(values[i])) return QStringLiteral("—");
  return QString::number(values[i], 'f', 3);
}

}  // namespace

ClassLegend::ClassLegend(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  scope_ = new QLabel(this);
  scope_->setWordWrap(true);
  layout->addWidget(scope_);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setHorizontalHeaderLabels({tr("Class"), tr("Teacher"), tr("Student"), tr("Δ")});
  table_->horizontalHeaderItem(TeacherColumn)->setToolTip(tr("Teacher IoU of the class"));
  table_->horizontalHeaderItem(StudentColumn)->setToolTip(tr("Student IoU of the class"));
  table_->horizontalHeaderItem(DeltaColumn)->setToolTip(tr("Student IoU − teacher IoU"));
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(std::max(20, fontMetrics().height() + 6));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->setShowGrid(false);
  table_->setItemDelegateForColumn(ClassColumn, new ClassCellDelegate(table_));
  table_->setItemDelegateForColumn(TeacherColumn, new IouBarDelegate(kTeacherBar, table_));
  table_->setItemDelegateForColumn(StudentColumn, new IouBarDelegate(kStudentBar, table_));
  auto* header = table_->horizontalHeader();
  header->setSectionResizeMode(ClassColumn, QHeaderView::Stretch);
  for (int c : {TeacherColumn, StudentColumn, DeltaColumn}) {
    header->setSectionResizeMode(c, QHeaderView::Fixed);
    header->resizeSection(c, fontMetrics().horizontalAdvance(QStringLiteral("−0.000")) + 16);
  }
  table_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("T-shirt/top")) + 40 +
                          3 * (fontMetrics().horizontalAdvance(QStringLiteral("−0.000")) + 16));
  table_->setToolTip(tr("Per-class IoU of the teacher (blue bars) and the student (orange bars)"));
  layout->addWidget(table_, 1);
}

QRect ClassLegend::swatchRect(const QRect& cell) {
  const int side = std::max(8, cell.height() - 8);
  return QRect(cell.left() + 4, cell.top() + (cell.height() - side) / 2, side, side);
}

int ClassLegend::classCount() const { return table_->rowCount(); }

void ClassLegend::setClasses(const QVector<SegmentationClass>& classes) {
  highlighted_ = -1;
  table_->setRowCount(int(classes.size()));
  for (int i = 0; i < classes.size(); ++i) {
    auto* name = new QTableWidgetItem(classes[i].name);
    name->setData(kColorRole, classes[i].color);
    name->setToolTip(tr("class %1: %2 (%3)").arg(i).arg(classes[i].name, classes[i].color.name()));
    table_->setItem(i, ClassColumn, name);
    for (int c : {TeacherColumn, StudentColumn, DeltaColumn}) {
      auto* item = new QTableWidgetItem;
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      item->setData(kValueRole, qQNaN());
      table_->setItem(i, c, item);
    }
  }
  // As tall as its rows (up to 12 of them), no taller.
  const int rows = std::max(1, int(classes.size()));
  const int chrome = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth() + 2;
  const int row = table_->verticalHeader()->defaultSectionSize();
  table_->setMaximumHeight(chrome + rows * row);
  table_->setMinimumHeight(chrome + std::min(rows, 12) * row);  // more classes scroll
}

void ClassLegend::setIou(const QVector<double>& teacher, const QVector<double>& student,
                         const QString& scope) {
  scope_->setText(scope);
  for (int i = 0; i < table_->rowCount(); ++i) {
    const double t = i < teacher.size() ? teacher[i] : qQNaN();
    const double s = i < student.size() ? student[i] : qQNaN();
    table_->item(i, TeacherColumn)->setText(iouText(teacher, i));
    table_->item(i, TeacherColumn)->setData(kValueRole, t);
    table_->item(i, StudentColumn)->setText(iouText(student, i));
    table_->item(i, StudentColumn)->setData(kValueRole, s);
    auto* delta = table_->item(i, DeltaColumn);
    const double d = s - t;
    delta->setData(kValueRole, d);
    if (qIsNaN(d)) {
      delta->setText(QStringLiteral("—"));
      delta->setData(Qt::ForegroundRole, QVariant());
    } else {
      delta->setText((d < -0.0005 ? QStringLiteral("−") : QStringLiteral("+")) +
                     QString::number(std::abs(d), 'f', 3));
      if (d < -0.02)
        delta->setForeground(QColor(210, 50, 50));
      else if (d > 0.02)
        delta->setForeground(QColor(40, 150, 60));
      else
        delta->setData(Qt::ForegroundRole, QVariant());
    }
  }
}

void ClassLegend::setHighlightedClass(int index) {
  if (index == highlighted_) return;
  for (int row : {highlighted_, index}) {
    if (row < 0 || row >= table_->rowCount()) continue;
    QFont f = table_->font();
    f.setBold(row == index);
    table_->item(row, ClassColumn)->setFont(f);
  }
  highlighted_ = index;
}

AgreementLegend::AgreementLegend(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setHorizontalSpacing(6);
  grid->setVerticalSpacing(2);
  const int side = std::max(10, fontMetrics().height() - 2);
  for (int i = 0; i < kAgreementCount; ++i) {
    const auto a = static_cast<Agreement>(i);
    auto* swatch = new QLabel(this);
    QPixmap pixmap(side, side);
    if (a == Agreement::Ignore) {
      // Ignored pixels show the image: a checkerboard stands for "see-through".
      pixmap.fill(Qt::white);
      QPainter p(&pixmap);
      const int half = side / 2;
      p.fillRect(half, 0, side - half, half, QColor(170, 170, 170));
      p.fillRect(0, half, half, side - half, QColor(170, 170, 170));
    } else {
      pixmap.fill(agreementColor(a));
    }
    {
      QPainter frame(&pixmap);  // a frame keeps the dark swatches visible on a dark theme
      frame.setPen(QColor(128, 128, 128));
      frame.drawRect(0, 0, side - 1, side - 1);
    }
    swatch->setPixmap(pixmap);
    swatch->setFixedSize(side, side);
    grid->addWidget(swatch, i, 0);
    auto* name = new QLabel(agreementName(a), this);
    grid->addWidget(name, i, 1);
    shares_[i] = new QLabel(this);
    shares_[i]->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    shares_[i]->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("100.0 %")) + 4);
    grid->addWidget(shares_[i], i, 2);
  }
  grid->setColumnStretch(1, 1);
}

void AgreementLegend::setMap(const AgreementMap& map) {
  for (int i = 0; i < kAgreementCount; ++i) {
    const double f = map.values.isEmpty() ? qQNaN() : map.fraction(static_cast<Agreement>(i));
    shares_[i]->setText(qIsNaN(f) ? QStringLiteral("—") : tr("%1 %").arg(100.0 * f, 0, 'f', 1));
  }
}

QString AgreementLegend::shareText(Agreement a) const { return shares_[int(a)]->text(); }

}  // namespace adala::widgets
