#pragma once
// The language choice for the Preferences dialog: "System default", "English", "한국어".
// It reads and writes the QSettings key "ui/language" and applies a change at once
// (adala::i18n::install_translator), so the open windows retranslate immediately:
//
//   form->addRow(tr("Language:"), new adala::report_gui::LanguageSelector(this));
//
// Or, without a Preferences dialog, a submenu with the same choices:
//
//   viewMenu->addMenu(new adala::report_gui::LanguageMenu(this));
#include <QComboBox>
#include <QMenu>

namespace adala::report_gui {

class LanguageSelector : public QComboBox {
  Q_OBJECT
 public:
  explicit LanguageSelector(QWidget* parent = nullptr);
  // "" (system), "en" or "ko".
  QString language() const;
  void setLanguage(const QString& language);
  // false: only remember the choice (it then takes effect on the next start).
  void setApplyImmediately(bool on) { applyImmediately_ = on; }

 signals:
  void languageChanged(const QString& language);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void chosen(int index);
  void retranslate();
  bool applyImmediately_ = true;
};

// "&Language" submenu: System default / English / 한국어, checkable, applied at once.
class LanguageMenu : public QMenu {
  Q_OBJECT
 public:
  explicit LanguageMenu(QWidget* parent = nullptr);

 signals:
  void languageChanged(const QString& language);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  QAction* system_ = nullptr;
};

}  // namespace adala::report_gui
