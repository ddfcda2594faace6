#pragma once
// Softmax vs linear attention of one query patch: the image, the softmax map, the linear map
// and their absolute difference, side by side as colour-mapped overlays, each with a labelled
// colour strip (one shared scale, a scale per pane, a log scale or a typed range), plus KL /
// MSE of every head. The widget only draws: it asks for a probe
// (checkpoint + image) and for rows (block, head, query) through signals, and is answered
// through onProbeReady / onRows (from the engine's inspection thread, as plain data).
#include <QImage>
#include <QList>
#include <QPair>
#include <QString>
#include <QWidget>

#include "widgets/common/colormap.h"
#include "widgets/common/colour_scale.h"
#include "widgets/common/figure_export.h"
#include "widgets/runs/run_types.h"

class QComboBox;
class QDialog;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTimer;
class QVBoxLayout;

namespace adala::widgets {

class ImagePane;
class AttentionGridView;

class AttentionInspector : public QWidget {
  Q_OBJECT
 public:
  enum Pane { ImagePaneIndex = 0, SoftmaxPane = 1, LinearPane = 2, DifferencePane = 3 };

  explicit AttentionInspector(QWidget* parent = nullptr);

  // (label, path) of the stage checkpoints on offer; `select` picks one by path.
  void setCheckpoints(const QList<QPair<QString, QString>>& checkpoints,
                      const QString& select = {});
  void addCheckpoint(const QString& label, const QString& path, bool select);
  QString checkpoint() const;
  void setDatasetItem(int index);
  // Where dataset items come from: a folder (class folders or an image tree), an image list or
  // a run's config.json (its data.eval); empty = Fashion-MNIST's test split. chosen = false
  // goes back to the automatic choice: the checkpoint's run folder's config.json where there
  // is one, else Fashion-MNIST.
  void setDataset(const QString& where, bool chosen = true);
  QString dataset() const;
  void setImageFile(const QString& path);
  // 0 = the model's own size, -1 = the image's own size, else a square side in pixels.
  void setInputSize(int size);
  // The forward pass's precision: "fp32" or "bf16" (CPU autocast).
  void setPrecision(const QString& precision);
  QString precision() const;
  // Normalisation overrides, as comma lists ("0.5,0.5,0.5"); empty: the checkpoint's.
  QLineEdit* meanEdit() const { return meanEdit_; }
  QLineEdit* stdEdit() const { return stdEdit_; }
  QLabel* statusLabel() const { return statusLabel_; }
  void setBlock(int block);
  void setHead(int head);
  // Token index (prefix tokens first); a patch (row, col) is prefix + row * gridWidth + col.
  void setQuery(int token);
  void setQueryPatch(int row, int col);
  void setOpacity(double opacity);  // overlay opacity in [0, 1]
  void setColormap(Colormap map);
  // Rollout view (R): the three maps show the query's attention rollout through all blocks
  // (head-averaged, 0.5 A + 0.5 I per block) of each path instead of one block / head's row.
  void setRollout(bool on);
  bool rolloutShown() const { return rollout_; }
  // The rollout rows of the current query (empty until computed).
  const QVector<float>& rolloutSoftmax() const { return rolloutSoft_; }
  const QVector<float>& rolloutLinear() const { return rolloutLin_; }
  // The blocks x heads overview (G): a window of small maps; a click picks block and head.
  void showBlockHeadGrid();
  AttentionGridView* gridView() const { return gridView_; }
  QDialog* gridDialog() const { return gridDialog_; }
  // How weights map to colours (S cycles through the modes).
  void setScaleMode(ScaleMode mode);
  ScaleMode scaleMode() const { return scaleMode_; }
  // The fixed range ("min..max"); returns why it was refused (empty: accepted, and the mode
  // becomes ScaleMode::Fixed).
  QString setFixedRange(const QString& text);
  // The scale the map pane (SoftmaxPane, LinearPane or DifferencePane) is drawn on.
  PaneScale paneScale(Pane pane) const;

  int block() const { return block_; }
  int head() const { return head_; }
  int query() const { return query_; }
  bool hasProbe() const { return haveProbe_; }
  const InspectorImage& probeImage() const { return image_; }
  const AttentionRows& rows() const { return rows_; }
  // The largest weight of the two maps (the shared scale's top) and the colour map in use.
  double scaleMax() const { return scaleMax_; }
  Colormap colormap() const { return colormap_; }
  double opacity() const { return opacity_; }
  // The four panes, their colour strips and a caption (checkpoint, image, block, head, query,
  // scale) as a figure; exportFigure writes it (.png or .pdf) and returns the error, if any.
  Figure figure() const;
  QString exportFigure(const QString& path);
  // The composed pane images and their pixel rectangle of grid cell (row, col).
  QImage paneImage(Pane pane) const;
  ImagePane* pane(Pane pane) const { return panes_[pane]; }
  QRect cellRect(int row, int col) const;
  // Whether grid cell (row, col) shows some of the image (not only letterbox padding).
  bool isContentPatch(int row, int col) const;
  int displayScale() const { return displayScale_; }

 public slots:
  void onProbeProgress(double fraction);
  void onProbeReady(const adala::widgets::InspectorImage& image);
  void onProbeFailed(const QString& message);
  void onRows(const adala::widgets::AttentionRows& rows);
  void onOverview(const adala::widgets::AttentionOverview& overview);

 signals:
  void probeRequested(const adala::widgets::ProbeRequest& request);
  void probeCancelRequested();
  void rowsRequested(quint64 requestId, int block, int head, int query);
  // Every block x head's rows of the query (grid) and / or its rollout (rollout).
  void overviewRequested(quint64 requestId, int query, bool grid, bool rollout);
  // After a new overview (grid and / or rollout) has arrived.
  void overviewUpdated();
  void openCheckpointRequested();
  void openImageRequested();
  // The user asked to pick a dataset: a folder (true) or a list / config file (false).
  void openDatasetRequested(bool folder);
  // After new rows have been drawn.
  void mapsUpdated();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  QHBoxLayout* buildSourceRow();
  QVBoxLayout* buildViewRow();
  QHBoxLayout* buildInputRow();
  QHBoxLayout* buildDisplayRow();
  QHBoxLayout* buildPanesRow();
  QVBoxLayout* buildStatusColumn();
  QTableWidget* buildHeadTable();
  void connectControls();
  void scheduleProbe();
  void emitProbe();
  void requestRows();
  void redraw();
  void updateQueryLabel();
  void onPaneClicked(QPointF imagePoint);
  void moveQuery(int dRow, int dCol);
  void updateDatasetButton();
  void updateScales();
  void requestOverview();
  void updatePaneTitles();
  void updateGridView();
  // The rows the three maps show (rollout or block / head), null when not there yet.
  bool shownRows(const float** softmax, const float** linear) const;
  void applyFixedRangeText();

  QComboBox* checkpointCombo_ = nullptr;
  QComboBox* sourceCombo_ = nullptr;
  QSpinBox* itemSpin_ = nullptr;
  QPushButton* openImageButton_ = nullptr;
  QPushButton* datasetButton_ = nullptr;
  QLabel* imageFileLabel_ = nullptr;
  QComboBox* sizeCombo_ = nullptr;
  QComboBox* precisionCombo_ = nullptr;
  QLineEdit* meanEdit_ = nullptr;
  QLineEdit* stdEdit_ = nullptr;
  QSlider* blockSlider_ = nullptr;
  QLabel* blockLabel_ = nullptr;
  QComboBox* headCombo_ = nullptr;
  QPushButton* clsButton_ = nullptr;
  QSlider* opacitySlider_ = nullptr;
  QComboBox* colormapCombo_ = nullptr;
  QComboBox* scaleCombo_ = nullptr;
  QLineEdit* rangeEdit_ = nullptr;
  QLabel* queryLabel_ = nullptr;
  QLabel* statsLabel_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* exportButton_ = nullptr;
  QPushButton* rolloutButton_ = nullptr;
  QPushButton* gridButton_ = nullptr;
  QDialog* gridDialog_ = nullptr;
  AttentionGridView* gridView_ = nullptr;
  QComboBox* gridPathCombo_ = nullptr;
  QTableWidget* headTable_ = nullptr;
  ImagePane* panes_[4] = {};
  QTimer* probeTimer_ = nullptr;

  QString imagePath_;
  QString dataset_;
  bool datasetChosen_ = false;
  InspectorImage image_;
  QImage base_;  // the model input, enlarged to the display scale
  int displayScale_ = 1;
  bool haveProbe_ = false;
  int block_ = 0, head_ = 0, query_ = -1;
  AttentionRows rows_;
  quint64 lastRequest_ = 0;
  double scaleMax_ = 0.0;
  bool rollout_ = false;
  QVector<float> rolloutSoft_, rolloutLin_;
  int rolloutQuery_ = -1;  // the query the rollout rows belong to
  int gridQuery_ = -1;     // the query the grid maps belong to
  quint64 lastOverview_ = 0;
  AttentionOverview grid_;
  ScaleMode scaleMode_ = ScaleMode::Shared;
  double fixedMin_ = 0.0, fixedMax_ = 0.01;
  PaneScale scales_[3];  // softmax, linear, difference
  double opacity_ = 0.7;
  Colormap colormap_ = Colormap::Viridis;
  bool updatingControls_ = false;
};

}  // namespace adala::widgets
