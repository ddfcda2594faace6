#pragma once
// Small multiples of one query's attention: a map for every block (rows) x head (columns),
// of the softmax or the linear path, each on its own 0..max so every head reads; the current
// block / head is outlined and a click on a map selects it.
#include <QImage>
#include <QVector>
#include <QWidget>

#include "widgets/common/colormap.h"

namespace adala::widgets {

class AttentionGridView : public QWidget {
  Q_OBJECT
 public:
  explicit AttentionGridView(QWidget* parent = nullptr);

  // maps[block * heads + head]: prefix tokens, then the gridHeight x gridWidth patches.
  void setMaps(int blocks, int heads, int gridHeight, int gridWidth, int prefix,
               const QVector<QVector<float>>& maps);
  void clear();
  void setCurrent(int block, int head);
  // The query's patch (x = column, y = row; negative: a prefix token), ringed in every map.
  void setQueryCell(const QPoint& cell);
  void setColormap(Colormap map);

  int blocks() const { return blocks_; }
  int heads() const { return heads_; }
  int cellCount() const { return static_cast<int>(cells_.size()); }
  // Where the map of (block, head) is drawn, in widget coordinates.
  QRect cellRect(int block, int head) const;
  QImage cellImage(int block, int head) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return {240, 200}; }

 signals:
  void cellClicked(int block, int head);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  void rebuild();
  QSize cellSize() const;

  int blocks_ = 0, heads_ = 0, gridH_ = 0, gridW_ = 0, prefix_ = 0;
  int block_ = -1, head_ = -1;
  QPoint query_{-1, -1};
  Colormap map_ = Colormap::Viridis;
  QVector<QVector<float>> maps_;
  QVector<QImage> cells_;
};

}  // namespace adala::widgets
