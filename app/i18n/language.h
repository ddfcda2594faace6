#pragma once
// The interface language: Korean or English, following the system locale unless the user
// chose one (QSettings key "ui/language": "" = system, "en", "ko").
//
//   QApplication app(argc, argv);
//   app.setOrganizationName("AdaLA"); app.setApplicationName("AdaLA Workbench");
//   adala::i18n::install_translator(app, adala::i18n::saved_language());
//
// install_translator can be called again at any time: it replaces the translators it
// installed before, so every widget receives QEvent::LanguageChange and retranslates
// (changeEvent) — the language switches immediately, no restart needed. It also sets
// QLocale::setDefault, so QLocale() formats numbers and dates for the language.
// The .qm files are embedded (resources :/i18n/adala_<lang>.qm); files of the same name in
// <binary dir>/translations/ take precedence (for translators testing a new .qm).
#include <QCoreApplication>
#include <QLocale>
#include <QString>
#include <QStringList>

namespace adala::i18n {

inline constexpr const char* kLanguageSettingsKey = "ui/language";

QStringList available_languages();                  // {"en", "ko"}
QString native_language_name(const QString& code);  // "English", "한국어" (not translated)
QString system_language();  // "ko" when the system prefers Korean, else "en"
QString resolve_language(const QString& language);  // "" -> system_language(); unknown -> "en"
QLocale locale_for(const QString& language);        // the locale numbers and dates use

QString saved_language();                     // QSettings "ui/language" ("" when unset)
void save_language(const QString& language);  // "" = follow the system

// Installs the workbench's translator (and Qt's own, when installed) for `language`
// ("" = follow QLocale::system()), replacing those installed by an earlier call.
// Returns the language now in effect ("en" or "ko").
QString install_translator(QCoreApplication& app, const QString& language);
QString current_language();  // what the last install_translator put in effect ("" before)

}  // namespace adala::i18n
