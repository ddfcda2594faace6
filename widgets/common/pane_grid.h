#pragma once
// The inspector's panes in one row when the space is wide, in two rows when it is not (each
// pane stays as large and as square as the space allows). Hidden panes take no place.
#include <QList>
#include <QWidget>

class QGridLayout;

namespace adala::widgets {

class PaneGrid : public QWidget {
 public:
  explicit PaneGrid(QWidget* parent);
  void setPanes(const QList<QWidget*>& panes);
  // Lays the visible panes out again (after one was shown or hidden).
  void rearrange() { arrange(true); }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void arrange(bool force);

  QGridLayout* grid_;
  QList<QWidget*> panes_;
  int columns_ = 0;
};

}  // namespace adala::widgets
