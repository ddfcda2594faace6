#pragma once
// Sort arrows that point the way the list runs: ▲ for ascending, ▼ for descending.
// QHeaderView hands the style SortDown for an ascending column and Fusion draws SortDown as a
// down arrow on Linux, so the run list sorted newest first showed ▲. The style below swaps
// the two for one header view (the rest of the application keeps its style).
#include <QProxyStyle>

class QHeaderView;

namespace adala::widgets {

class SortArrowStyle : public QProxyStyle {
 public:
  using QProxyStyle::QProxyStyle;
  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget = nullptr) const override;
};

// Gives `header` a SortArrowStyle (owned by the header).
void useSortArrowsThatFollowTheOrder(QHeaderView* header);

}  // namespace adala::widgets
