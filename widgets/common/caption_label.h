#pragma once
// The short label in front of a control in a view's tool row ("Block:", "Head:"): as wide as
// its text, so that the controls after it keep their places when the window is resized.
#include <QLabel>
#include <QSizePolicy>
#include <QString>

namespace adala::widgets {

inline QLabel* caption(const QString& text, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
  return l;
}

}  // namespace adala::widgets
