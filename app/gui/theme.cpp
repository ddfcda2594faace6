#include "app/gui/theme.h"

#include <QApplication>
#include <QEvent>
#include <QStyle>
#include <QStyleFactory>

namespace adala::gui {

QString themeName(Theme theme) {
  switch (theme) {
    case Theme::Light:
      return QStringLiteral("light");
    case Theme::Dark:
      return QStringLiteral("dark");
    case Theme::System:
      break;
  }
  return QStringLiteral("system");
}

Theme themeFromName(const QString& name) {
  if (name.compare(QLatin1String("light"), Qt::CaseInsensitive) == 0) return Theme::Light;
  if (name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0) return Theme::Dark;
  return Theme::System;
}

ThemeManager::ThemeManager() : QObject(qApp) {
  platformPalette_ = QApplication::palette();
  qApp->installEventFilter(this);
}

ThemeManager* ThemeManager::instance() {
  static ThemeManager* manager = new ThemeManager;
  return manager;
}

bool ThemeManager::systemPrefersDark() const {
  const QByteArray env =
      qgetenv("ADALA_THEME").isEmpty() ? qgetenv("GTK_THEME") : qgetenv("ADALA_THEME");
  if (env.toLower().contains("dark")) return true;
  if (env.toLower().contains("light")) return false;
  const QColor window = platformPalette_.color(QPalette::Window);
  const QColor text = platformPalette_.color(QPalette::WindowText);
  return window.lightness() < text.lightness();
}

QPalette ThemeManager::lightPalette() {
  return QStyleFactory::create(QStringLiteral("Fusion"))->standardPalette();
}

QPalette ThemeManager::darkPalette() {
  QPalette p;
  const QColor window(45, 47, 51), base(30, 31, 34), text(225, 227, 230), disabled(127, 127, 127);
  const QColor highlight(61, 133, 214);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(40, 42, 46));
  p.setColor(QPalette::ToolTipBase, QColor(60, 63, 68));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, QColor(140, 142, 146));
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 90, 90));
  p.setColor(QPalette::Light, QColor(70, 72, 77));
  p.setColor(QPalette::Midlight, QColor(58, 60, 64));
  p.setColor(QPalette::Mid, QColor(85, 88, 94));
  p.setColor(QPalette::Dark, QColor(25, 26, 28));
  p.setColor(QPalette::Shadow, QColor(10, 10, 10));
  p.setColor(QPalette::Highlight, highlight);
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(100, 160, 240));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
  return p;
}

void ThemeManager::apply(Theme theme) {
  theme_ = theme;
  update();
}

void ThemeManager::update() {
  const bool dark = theme_ == Theme::Dark || (theme_ == Theme::System && systemPrefersDark());
  applying_ = true;
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QApplication::setPalette(dark ? darkPalette() : lightPalette());
  applying_ = false;
  if (dark != dark_) {
    dark_ = dark;
    emit themeChanged(dark);
  }
}

bool ThemeManager::eventFilter(QObject* watched, QEvent* event) {
  // The desktop switched light/dark: re-read its palette when we follow it.
  if (watched == qApp && event->type() == QEvent::ThemeChange && !applying_ &&
      theme_ == Theme::System) {
    platformPalette_ = QApplication::style()->standardPalette();
    update();
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace adala::gui
