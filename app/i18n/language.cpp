#include "app/i18n/language.h"

#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

namespace adala::i18n {

namespace {

QPointer<QTranslator> g_ours;
QPointer<QTranslator> g_qt;
QString g_current;

void remove(QCoreApplication& app, QPointer<QTranslator>& translator) {
  if (!translator) return;
  app.removeTranslator(translator);
  delete translator;
}

}  // namespace

QStringList available_languages() { return {QStringLiteral("en"), QStringLiteral("ko")}; }

QString native_language_name(const QString& code) {
  if (code == QLatin1String("ko")) return QStringLiteral("한국어");
  if (code == QLatin1String("en")) return QStringLiteral("English");
  return code;
}

QString system_language() {
  for (const QString& ui : QLocale::system().uiLanguages()) {
    const QString lang = ui.section('-', 0, 0).section('_', 0, 0).toLower();
    if (lang == QLatin1String("ko")) return QStringLiteral("ko");
    if (lang == QLatin1String("en")) return QStringLiteral("en");
  }
  return QLocale::system().language() == QLocale::Korean ? QStringLiteral("ko")
                                                         : QStringLiteral("en");
}

QString resolve_language(const QString& language) {
  const QString code = language.trimmed().toLower().section('_', 0, 0).section('-', 0, 0);
  if (code.isEmpty() || code == QLatin1String("system")) return system_language();
  return available_languages().contains(code) ? code : QStringLiteral("en");
}

QLocale locale_for(const QString& language) {
  const QString code = resolve_language(language);
  const QLocale system = QLocale::system();
  // Korean numbers take a decimal point ("0.5", "3.28 GB") whatever the system's numeric
  // settings say (a Korean desktop with another country's LC_NUMERIC wrote "0,06" beside
  // dots). English: the system's own locale when it is English (keeps its country; the C
  // locale counts as English), else en_US.
  if (code == QLatin1String("ko")) return QLocale(QLocale::Korean, QLocale::SouthKorea);
  if (system.language() == QLocale::English || system.language() == QLocale::C) return system;
  return QLocale(QLocale::English, QLocale::UnitedStates);
}

QString saved_language() {
  return QSettings().value(QLatin1String(kLanguageSettingsKey)).toString();
}

void save_language(const QString& language) {
  QSettings settings;
  settings.setValue(QLatin1String(kLanguageSettingsKey), language);
}

QString install_translator(QCoreApplication& app, const QString& language) {
  const QString code = resolve_language(language);
  remove(app, g_ours);
  remove(app, g_qt);
  const QLocale locale = locale_for(code);
  QLocale::setDefault(locale);

  // Source strings are English: "en" needs a translator only for plural forms.
  auto* ours = new QTranslator(&app);
  const QString name = QStringLiteral("adala_%1").arg(code);
  const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/translations");
  if ((QFileInfo::exists(beside + '/' + name + QStringLiteral(".qm")) &&
       ours->load(name, beside)) ||
      ours->load(name, QStringLiteral(":/i18n"))) {
    app.installTranslator(ours);
    g_ours = ours;
  } else {
    delete ours;
  }
  auto* qt = new QTranslator(&app);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    app.installTranslator(qt);
    g_qt = qt;
  } else {
    delete qt;
  }
  g_current = code;
  return code;
}

QString current_language() { return g_current; }

}  // namespace adala::i18n
