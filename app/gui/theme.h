#pragma once
// Light and dark palettes (Fusion) that follow the system: "system" re-reads the platform's
// preference whenever Qt reports a theme change; "light" / "dark" pin one.
#include <QObject>
#include <QPalette>
#include <QString>

namespace adala::gui {

enum class Theme { System, Light, Dark };

QString themeName(Theme theme);
Theme themeFromName(const QString& name);  // unknown names -> System

class ThemeManager : public QObject {
  Q_OBJECT
 public:
  // Installs itself on the application; call after QApplication exists.
  static ThemeManager* instance();

  void apply(Theme theme);
  Theme theme() const { return theme_; }
  bool darkActive() const { return dark_; }
  // The platform's preference: a dark platform palette, or GTK_THEME / ADALA_THEME naming dark.
  bool systemPrefersDark() const;

  static QPalette lightPalette();
  static QPalette darkPalette();

 signals:
  void themeChanged(bool dark);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  ThemeManager();
  void update();

  Theme theme_ = Theme::System;
  bool dark_ = false;
  bool applying_ = false;
  QPalette platformPalette_;
};

}  // namespace adala::gui
