#pragma once
// Table cells the run tables share (run summary, run comparison): read-only items, and the dash
// that stands for a value not recorded.
#include <QChar>
#include <QString>
#include <QTableWidgetItem>

namespace adala::widgets {

inline constexpr QChar kDash(0x2014);  // — : not recorded

inline QTableWidgetItem* readOnlyCell(const QString& text,
                                      Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  item->setTextAlignment(align);
  return item;
}

}  // namespace adala::widgets
