// The GUI pieces of reports and languages (app/report_gui): the Export report dialog writes
// the report, and choosing a language retranslates open windows at once (no restart).
// Saves a picture of the Korean dialog under ADALA_TEST_TMP/report-gui/ for a look.
#include <unistd.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QtTest>

#include "app/report_gui/export_report_dialog.h"
#include "app/i18n/language.h"
#include "app/report_gui/language_selector.h"
#include "tests/report/report_fixture.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_report_gui {

using adala::report_gui::ExportReportDialog;
using adala::report_gui::LanguageMenu;
using adala::report_gui::LanguageSelector;

class TestReportGui : public QObject {
  Q_OBJECT

 private:
  report_test::Database db_;
  QString out_;

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("AdaLA-test"));
    QCoreApplication::setApplicationName(QStringLiteral("test_report_gui"));
    db_ = report_test::make_database(QStringLiteral("gui"));
    out_ = QStringLiteral(ADALA_TEST_TMP "/report-gui");
    QDir().mkpath(out_);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, db_.dir + "/settings");
    adala::i18n::install_translator(*qApp, QStringLiteral("en"));
  }
  void cleanupTestCase() {
    adala::i18n::install_translator(*qApp, QStringLiteral("en"));
    if (!qEnvironmentVariableIsSet("ADALA_KEEP_TEST_OUTPUT")) QDir(db_.dir).removeRecursively();
  }

  void dialogWritesTheReport() {
    ExportReportDialog dialog(db_.path, {db_.full, db_.second});
    dialog.setOutputPath(out_ + "/compare.html");
    dialog.setFormatName(QStringLiteral("pdf"));
    QCOMPARE(dialog.outputPath(), out_ + "/compare.pdf");  // the extension follows the format
    QString error;
    QStringList warnings;
    const QString written = dialog.exportNow(&error, &warnings);
    QVERIFY2(!written.isEmpty(), qPrintable(error));
    QCOMPARE(written, out_ + "/compare.pdf");
    QFile pdf(written);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    QVERIFY(warnings.isEmpty());
    QCOMPARE(QSettings().value(QStringLiteral("report/last_format")).toString(),
             QStringLiteral("pdf"));

    ExportReportDialog figures(db_.path, {db_.figures});
    figures.setFormatName(QStringLiteral("md"));
    figures.setOutputPath(out_ + "/figures.md");
    QVERIFY(!figures.exportNow(&error, &warnings).isEmpty());
    QCOMPARE(warnings.size(), 1);  // the deleted attention figure
  }

  void choosingKoreanRetranslatesAtOnce() {
    ExportReportDialog dialog(db_.path, {db_.full});
    LanguageSelector selector;
    LanguageMenu menu;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog) ||
            QGuiApplication::platformName() == QLatin1String("offscreen"));
    QCOMPARE(dialog.windowTitle(), QStringLiteral("Export report"));
    QCOMPARE(selector.count(), 3);
    QCOMPARE(selector.itemText(2), QStringLiteral("한국어"));

    const int korean = selector.findData(QStringLiteral("ko"));
    selector.setCurrentIndex(korean);
    emit selector.activated(korean);
    QCOMPARE(adala::i18n::current_language(), QStringLiteral("ko"));
    QCOMPARE(adala::i18n::saved_language(), QStringLiteral("ko"));
    QCoreApplication::processEvents();  // LanguageChange reaches every widget
    QVERIFY2(dialog.windowTitle() != QLatin1String("Export report"),
             qPrintable(dialog.windowTitle()));
    QVERIFY(menu.title() != QLatin1String("&Language"));
    QVERIFY(selector.itemText(0) != QLatin1String("System default (English)"));
    QVERIFY(QLocale().language() == QLocale::Korean);
    // Korean numbers take a decimal point, as the report's locale does.
    QCOMPARE(QLocale().toString(0.5), QStringLiteral("0.5"));
    QCOMPARE(QLocale().toString(3.28, 'f', 2), QStringLiteral("3.28"));
    QCOMPARE(adala::i18n::locale_for(QStringLiteral("ko")).decimalPoint(), QStringLiteral("."));
    dialog.adjustSize();
    QVERIFY(dialog.grab().save(out_ + "/export_dialog_ko.png"));

    // Back to English through the menu.
    for (QAction* a : menu.actions())
      if (a->data().toString() == QLatin1String("en")) a->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(dialog.windowTitle(), QStringLiteral("Export report"));
    QCOMPARE(adala::i18n::saved_language(), QStringLiteral("en"));
    QCOMPARE(menu.title(), QStringLiteral("&Language"));
  }
};

ADALA_TEST_MAIN(TestReportGui)
}  // namespace test_report_gui

#include "test_report_gui.moc"
