#include "widgets/common/sort_arrow_style.h"

#include <QHeaderView>
#include <QStyleOptionHeader>

namespace adala::widgets {

void SortArrowStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option,
                                   QPainter* painter, const QWidget* widget) const {
  if (element == PE_IndicatorHeaderArrow)
    if (const auto* header = qstyleoption_cast<const QStyleOptionHeader*>(option)) {
      QStyleOptionHeader flipped(*header);
      if (header->sortIndicator == QStyleOptionHeader::SortUp)
        flipped.sortIndicator = QStyleOptionHeader::SortDown;
      else if (header->sortIndicator == QStyleOptionHeader::SortDown)
        flipped.sortIndicator = QStyleOptionHeader::SortUp;
      QProxyStyle::drawPrimitive(element, &flipped, painter, widget);
      return;
    }
  QProxyStyle::drawPrimitive(element, option, painter, widget);
}

void useSortArrowsThatFollowTheOrder(QHeaderView* header) {
  auto* style = new SortArrowStyle;
  style->setParent(header);
  header->setStyle(style);
}

}  // namespace adala::widgets
