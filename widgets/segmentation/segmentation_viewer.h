#pragma once
// Teacher vs student segmentation, side by side. A first line says how the models were made
// (resolution, frozen or fine-tuned backbone, head); where the results carry a resolution sweep,
// a small table compares teacher and student (mIoU, images/s, peak memory) at each resolution
// and against the paper's numbers. Below, the image, the ground truth, the teacher's and the
// student's predictions and their disagreement map, in panes that zoom (Ctrl + wheel, + / -,
// 0 to fit) and pan (drag) together and name the class under the cursor in every pane. A class
// legend with per-class IoU of both models, the disagreement map's own legend, the split's
// summary, stepping through the images (buttons, Left / Right, Page Up / Page Down, the spin
// box) in file order or sorted by disagreement, student mIoU or the student's IoU deficit, and
// a head selector when the results folder holds several heads. Reads a results folder
// (SegmentationResults); computes nothing heavy.
#include <QImage>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "widgets/segmentation/segmentation_metrics.h"
#include "widgets/segmentation/segmentation_results.h"

class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QTableWidget;
class QVBoxLayout;

namespace adala::widgets {

class AgreementLegend;
class ClassLegend;
class SegmentationPaneGrid;
class ZoomImagePane;

class SegmentationViewer : public QWidget {
  Q_OBJECT
 public:
  enum Pane { ImagePane, TruthPane, TeacherPane, StudentPane, DisagreementPane, PaneCount };
  enum SortOrder { FileOrder, DisagreementDescending, StudentMiouAscending, GapAscending };
  enum IouScope { SplitIou, ImageIou };
  // The sweep table's columns: the resolution, then engine/report/sweep_columns.h's in its
  // order (ratios are student / teacher).
  enum SweepColumn {
    SweepResolution,
    SweepTeacherMiou,
    SweepStudentMiou,
    SweepMiouGap,  // student − teacher, percentage points
    SweepTeacherSpeed,
    SweepStudentSpeed,
    SweepSpeedRatio,
    SweepTeacherPeak,
    SweepStudentPeak,
    SweepMemoryRatio,
    SweepColumnCount
  };

  explicit SegmentationViewer(QWidget* parent = nullptr);

  // A results folder, a folder of them (one per head: segmentation/), or a run folder that has
  // segmentation/. False (with the reason, naming the file) when there is nothing to show.
  bool openFolder(const QString& path, QString* error = nullptr);
  QString folder() const { return folder_; }
  QStringList headDirs() const { return headDirs_; }
  int currentHead() const { return head_; }
  bool setHead(int index);
  bool hasResults() const { return loaded_; }
  const SegmentationResults& results() const { return results_; }
  QString errorText() const;

  // Stepping, in the current sort order: position 0 .. imageCount() - 1.
  int imageCount() const { return int(order_.size()); }
  int position() const { return position_; }
  void setPosition(int position);
  void next() { setPosition(position_ + 1); }
  void previous() { setPosition(position_ - 1); }
  // Index into results().entries of the image shown (-1: none), and its id.
  int currentEntry() const;
  QString currentId() const;
  // Entry indices in the order they are stepped through.
  const QVector<int>& order() const { return order_; }
  void setSortOrder(SortOrder order);
  SortOrder sortOrder() const { return sort_; }
  void setIouScope(IouScope scope);

  // Mask opacity over the image, in [0, 1].
  void setOpacity(double opacity);
  double opacity() const { return opacity_; }
  // Shared view: screen pixels per image pixel, 0 when fitting.
  double zoom() const { return scale_; }
  void zoomBy(double factor);
  void resetZoom();

  ZoomImagePane* pane(Pane pane) const { return panes_[pane]; }
  ClassLegend* classLegend() const { return classLegend_; }
  AgreementLegend* agreementLegend() const { return agreementLegend_; }
  const SegmentationSample& sample() const { return sample_; }
  const AgreementMap& agreement() const { return agreement_; }
  QString summaryText() const;
  // "112×112 · backbone fine-tuned (lr ×0.5, layer decay 0.75) · linear head · 600 training
  // scenes"; the head alone for results without a story; empty with nothing loaded.
  QString storyText() const;
  // One row per resolution of the sweep, then the paper's; hidden when there is no sweep.
  QTableWidget* sweepTable() const { return sweepTable_; }
  static QString splitName(const QString& split);  // "validation" in the interface's language
  QString imageText() const;
  QString hoverText() const;

  // Rows for the workbench's keyboard shortcut table (HTML table rows).
  static QString shortcutRows();

 signals:
  void resultsLoaded(const QString& dir);
  void currentImageChanged(const QString& id);

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QHBoxLayout* buildNavigationRow();
  void addMessageLabels(QVBoxLayout* top);
  QTableWidget* buildSweepTable();
  QWidget* buildPaneGrid(QWidget* parent);
  QWidget* buildSidePanel(QWidget* parent);
  QGroupBox* buildViewBox(QWidget* parent);
  QGroupBox* buildAgreementBox(QWidget* parent);
  QGroupBox* buildClassBox(QWidget* parent);
  void connectControls();
  bool loadHead(int index, QString* error);
  void showError(const QString& message);
  void rebuildOrder(bool keepCurrent);
  void showCurrent();
  void redrawPanes();
  void updateTexts();
  void updateSweepTable();
  void updateLegendIou();
  void applyView();
  void onZoomRequested(ZoomImagePane* origin, double factor, QPointF anchor, QPointF offset);
  void onPanRequested(QPointF delta);
  void onHover(QPoint pixel);
  QString className(int index) const;
  QColor classColor(int index) const;

  QComboBox* headCombo_ = nullptr;
  QComboBox* sortCombo_ = nullptr;
  QPushButton* prevButton_ = nullptr;
  QPushButton* nextButton_ = nullptr;
  QSpinBox* positionSpin_ = nullptr;
  QLabel* countLabel_ = nullptr;
  QLabel* storyLabel_ = nullptr;
  QLabel* summaryLabel_ = nullptr;
  QTableWidget* sweepTable_ = nullptr;
  QLabel* imageLabel_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QLabel* hoverLabel_ = nullptr;
  QSlider* opacitySlider_ = nullptr;
  QLabel* zoomLabel_ = nullptr;
  QComboBox* scopeCombo_ = nullptr;
  SegmentationPaneGrid* grid_ = nullptr;
  ZoomImagePane* panes_[PaneCount] = {};
  ClassLegend* classLegend_ = nullptr;
  AgreementLegend* agreementLegend_ = nullptr;

  QString folder_;
  QStringList headDirs_;
  int head_ = -1;
  bool loaded_ = false;
  SegmentationResults results_;
  QVector<int> order_;
  int position_ = -1;
  SortOrder sort_ = FileOrder;
  IouScope scope_ = SplitIou;
  SegmentationSample sample_;
  AgreementMap agreement_;
  QImage overlays_[PaneCount];  // the masks as pictures, before blending over the image
  bool sampleOk_ = false;
  QString sampleError_;
  double opacity_ = 0.7;
  double scale_ = 0.0;  // 0: fit
  QPointF centre_;
  QPoint hover_{-1, -1};
  bool updatingControls_ = false;
};

}  // namespace adala::widgets
