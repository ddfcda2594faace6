#pragma once
// The Features tab: one image's final-layer patch features of a run's teacher and student as
// PCA colour maps (first three components of the TEACHER's features, applied to both, one
// colour scale), their per-patch cosine similarity with a labelled colour bar, the mean cosine
// and the explained variance ratio; below, the resolution sweep of the run (top-1 of teacher
// and student at 1x, 2x, 4x the training side) with a button that runs it in the background.
// The view draws what it is given (QImage, numbers); the engine work runs elsewhere.
#include <QImage>
#include <QMetaType>
#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace adala::widgets {

class ImagePane;

// Which run and image to compare.
struct FeatureRequest {
  qint64 runId = -1;
  QString runDir;     // teacher.safetensors, the newest student and config.json are there
  QString imagePath;  // non-empty: this file instead of a dataset item
  int itemIndex = 0;  // of the run's evaluation data (data.eval)
};

// What the engine computed for it.
struct FeatureMaps {
  qint64 runId = -1;
  int itemIndex = -1;   // -1: an image file
  int datasetSize = 0;  // items the index may pick from
  QString description;  // "item 3: … (Dress)" or the file name
  QString teacherPath, studentPath;
  QImage input;                   // what the models saw (before normalisation)
  QImage teacherPca, studentPca;  // one pixel per patch, RGB
  int gridHeight = 0, gridWidth = 0;
  QVector<float> cosine;  // gridHeight x gridWidth, row-major
  double meanCosine = 0.0, minCosine = 0.0;
  QVector<double> explainedVarianceRatio;  // of the teacher's PCA, PC1..PC3
};

struct SweepPoint {
  int resolution = 0;
  double teacherTop1 = -1.0, studentTop1 = -1.0;  // fractions; < 0: none
};

struct ResolutionSweepData {
  qint64 runId = -1;
  int images = 0;
  QVector<SweepPoint> points;  // by resolution
};

class FeatureView : public QWidget {
  Q_OBJECT
 public:
  explicit FeatureView(QWidget* parent = nullptr);

  // The run to show (its folder holds the weights); asks for the maps of the current item when
  // the view is visible, else when it is next shown. A run with no folder clears the view.
  void setRun(qint64 runId, const QString& runDir, const QString& name);
  qint64 runId() const { return runId_; }
  QString runDir() const { return runDir_; }
  void setImageFile(const QString& path);

  void onMapsReady(const FeatureMaps& maps);
  void onMapsFailed(const QString& message);
  void setSweep(const ResolutionSweepData& sweep);
  void onSweepProgress(double fraction);
  void onSweepFailed(const QString& message);

  // What is shown, for tests and screenshots.
  const FeatureMaps& maps() const { return maps_; }
  bool hasMaps() const { return maps_.runId >= 0; }
  QString meanCosineText() const;
  QString varianceText() const;
  QString statusText() const;
  QSpinBox* indexBox() const { return index_; }
  QPushButton* sweepButton() const { return sweepButton_; }
  QLineEdit* scalesEdit() const { return scales_; }
  QSpinBox* sweepLimitBox() const { return sweepLimit_; }
  QCustomPlot* sweepPlot() const { return plot_; }
  const ResolutionSweepData& sweep() const { return sweep_; }

  // The colour bar image of the cosine scale (viridis, 0 at the bottom, 1 at the top).
  static constexpr double kCosineMin = 0.0, kCosineMax = 1.0;

 signals:
  void mapsRequested(const adala::widgets::FeatureRequest& request);
  // scales: "1,2,4"; limit: the first N evaluation images (0: all).
  void sweepRequested(qint64 runId, const QString& runDir, const QString& scales, int limit);
  void openImageRequested();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void addMapsSection(QVBoxLayout* layout);
  void addSweepSection(QVBoxLayout* layout);
  void requestMaps();
  void redrawSweep();
  void setStatus(const QString& text);

  qint64 runId_ = -1;
  QString runDir_, runName_, imagePath_;
  bool pending_ = false;
  FeatureMaps maps_;
  ResolutionSweepData sweep_;
  QLabel* runLabel_ = nullptr;
  QSpinBox* index_ = nullptr;
  QPushButton* fileButton_ = nullptr;
  QLabel* status_ = nullptr;
  ImagePane* inputPane_ = nullptr;
  ImagePane* teacherPane_ = nullptr;
  ImagePane* studentPane_ = nullptr;
  ImagePane* cosinePane_ = nullptr;
  QLabel* colourBar_ = nullptr;
  QLabel* cosineText_ = nullptr;
  QLabel* varianceText_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QPushButton* sweepButton_ = nullptr;
  QLineEdit* scales_ = nullptr;
  QSpinBox* sweepLimit_ = nullptr;
  QLabel* sweepStatus_ = nullptr;
};

}  // namespace adala::widgets

Q_DECLARE_METATYPE(adala::widgets::FeatureRequest)
Q_DECLARE_METATYPE(adala::widgets::FeatureMaps)
Q_DECLARE_METATYPE(adala::widgets::ResolutionSweepData)
