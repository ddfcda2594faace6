#pragma once
// The two legends of the segmentation viewer. ClassLegend: one row per class (colour swatch,
// name) with the teacher's and the student's IoU as numbers and bars, and their difference.
// AgreementLegend: the colours of the disagreement map with each category's share of the
// image.
#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

#include "widgets/segmentation/segmentation_metrics.h"
#include "widgets/segmentation/segmentation_results.h"

class QLabel;
class QTableWidget;

namespace adala::widgets {

class ClassLegend : public QWidget {
  Q_OBJECT
 public:
  enum Column { ClassColumn, TeacherColumn, StudentColumn, DeltaColumn, ColumnCount };
  static constexpr int kColorRole = Qt::UserRole + 1;
  static constexpr int kValueRole = Qt::UserRole + 2;  // IoU (NaN: class absent)

  explicit ClassLegend(QWidget* parent = nullptr);

  void setClasses(const QVector<SegmentationClass>& classes);
  // One IoU per class (NaN: absent; empty list: not recorded), and what they are over.
  void setIou(const QVector<double>& teacher, const QVector<double>& student, const QString& scope);
  // Emphasises one class (the one under the cursor); -1: none.
  void setHighlightedClass(int index);

  QTableWidget* table() const { return table_; }
  int classCount() const;
  // Where the colour swatch of a class cell is drawn, inside the cell's rectangle.
  static QRect swatchRect(const QRect& cell);

 private:
  QLabel* scope_ = nullptr;
  QTableWidget* table_ = nullptr;
  int highlighted_ = -1;
};

class AgreementLegend : public QWidget {
  Q_OBJECT
 public:
  explicit AgreementLegend(QWidget* parent = nullptr);
  // Shares of the current image (an empty map clears them).
  void setMap(const AgreementMap& map);
  QString shareText(Agreement a) const;

 private:
  QLabel* shares_[kAgreementCount] = {};
};

}  // namespace adala::widgets
