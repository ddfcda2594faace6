#include "app/report_gui/language_selector.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QEvent>

#include "app/i18n/language.h"

namespace adala::report_gui {

LanguageSelector::LanguageSelector(QWidget* parent) : QComboBox(parent) {
  addItem(QString(), QString());
  for (const QString& code : i18n::available_languages())
    addItem(i18n::native_language_name(code), code);
  retranslate();
  setLanguage(i18n::saved_language());
  connect(this, qOverload<int>(&QComboBox::activated), this, &LanguageSelector::chosen);
}

QString LanguageSelector::language() const { return currentData().toString(); }

void LanguageSelector::setLanguage(const QString& language) {
  const int i = findData(language.isEmpty() ? QString() : i18n::resolve_language(language));
  setCurrentIndex(i < 0 ? 0 : i);
}

void LanguageSelector::chosen(int index) {
  const QString code = itemData(index).toString();
  i18n::save_language(code);
  if (applyImmediately_ && QCoreApplication::instance())
    i18n::install_translator(*QCoreApplication::instance(), code);
  emit languageChanged(code);
}

void LanguageSelector::retranslate() {
  // The languages keep their own names; only "System default" is translated.
  setItemText(0,
              tr("System default (%1)").arg(i18n::native_language_name(i18n::system_language())));
  setToolTip(tr("Language of the interface and of exported reports"));
}

void LanguageSelector::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QComboBox::changeEvent(event);
}

LanguageMenu::LanguageMenu(QWidget* parent) : QMenu(parent) {
  auto* group = new QActionGroup(this);
  const QString saved = i18n::saved_language();
  auto add = [&](const QString& code, const QString& text) {
    QAction* a = addAction(text);
    a->setCheckable(true);
    a->setData(code);
    a->setChecked(code.isEmpty() ? saved.isEmpty() : saved == code);
    group->addAction(a);
    connect(a, &QAction::triggered, this, [this, code] {
      i18n::save_language(code);
      if (QCoreApplication::instance())
        i18n::install_translator(*QCoreApplication::instance(), code);
      emit languageChanged(code);
    });
    return a;
  };
  system_ = add(QString(), QString());
  addSeparator();
  for (const QString& code : i18n::available_languages())
    add(code, i18n::native_language_name(code));
  retranslate();
}

void LanguageMenu::retranslate() {
  setTitle(tr("&Language"));
  system_->setText(
      tr("System default (%1)").arg(i18n::native_language_name(i18n::system_language())));
}

void LanguageMenu::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QMenu::changeEvent(event);
}

}  // namespace adala::report_gui
