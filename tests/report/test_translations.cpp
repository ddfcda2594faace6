// The interface languages: Korean is complete (lrelease reports 0 unfinished, no vanished
// or obsolete entries), the .ts files hold every tr() string of the sources (a fresh
// lupdate finds nothing new), translations keep their placeholders, and English has its
// plural forms. Runs Qt's own lupdate / lrelease (Qt 6), never qtchooser's.
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QXmlStreamReader>
#include <QtTest>

#include "engine/train/stage_catalog.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_translations {

namespace {

const QString kTsDir = QStringLiteral(ADALA_SOURCE_DIR "/translations");

struct Tool {
  int exit_code = -1;
  QString output;
};

Tool run(const QString& program, const QStringList& args) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  Tool t;
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
    t.output = QStringLiteral("timed out");
    return t;
  }
  t.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  t.output = QString::fromUtf8(p.readAll());
  return t;
}

struct Counts {
  int generated = -1, finished = -1, unfinished = -1, ignored = 0;
};

// "Generated 120 translation(s) (118 finished and 2 unfinished)"
// "Ignored 2 untranslated source text(s)"
Counts lrelease_counts(const QString& output) {
  Counts c;
  const auto m =
      QRegularExpression(
          QStringLiteral(
              "Generated (\\d+) translation\\(s\\) \\((\\d+) finished and (\\d+) unfinished\\)"))
          .match(output);
  if (m.hasMatch()) {
    c.generated = m.captured(1).toInt();
    c.finished = m.captured(2).toInt();
    c.unfinished = m.captured(3).toInt();
  }
  const auto ignored =
      QRegularExpression(QStringLiteral("Ignored (\\d+) untranslated source text")).match(output);
  if (ignored.hasMatch()) c.ignored = ignored.captured(1).toInt();
  return c;
}

struct Message {
  QString context, source, type;
  QStringList translations;  // one, or the numerus forms
  bool numerus = false;
};

QVector<Message> read_ts(const QString& path, QString* language = nullptr) {
  QVector<Message> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return out;
  QXmlStreamReader xml(&f);
  QString context;
  Message m;
  bool in_message = false;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement()) {
      const auto name = xml.name();
      if (name == QLatin1String("TS") && language)
        *language = xml.attributes().value(QLatin1String("language")).toString();
      if (name == QLatin1String("name") && !in_message)
        context = xml.readElementText();
      else if (name == QLatin1String("message")) {
        m = Message();
        m.context = context;
        m.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        in_message = true;
      } else if (name == QLatin1String("source") && in_message) {
        m.source = xml.readElementText();
      } else if (name == QLatin1String("translation") && in_message) {
        m.type = xml.attributes().value(QLatin1String("type")).toString();
        if (!m.numerus)
          m.translations << xml.readElementText(QXmlStreamReader::IncludeChildElements);
      } else if (name == QLatin1String("numerusform") && in_message) {
        m.translations << xml.readElementText();
      }
    } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
      out << m;
      in_message = false;
    }
  }
  return out;
}

QSet<QString> placeholders(const QString& text) {
  QSet<QString> set;
  static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
  for (auto it = re.globalMatch(text); it.hasNext();) set.insert(it.next().captured(0));
  return set;
}

}  // namespace

class TestTranslations : public QObject {
  Q_OBJECT

 private slots:
  void lreleaseReportsNoUnfinishedKorean() {
    const QString qm = QDir::tempPath() + QStringLiteral("/adala_ko_%1.qm").arg(getpid());
    const Tool t = run(QStringLiteral(ADALA_LRELEASE), {kTsDir + "/adala_ko.ts", "-qm", qm});
    QFile::remove(qm);
    QVERIFY2(t.exit_code == 0, qPrintable(t.output));
    const Counts c = lrelease_counts(t.output);
    QVERIFY2(c.generated > 0, qPrintable(t.output));
    QVERIFY2(c.unfinished == 0, qPrintable(QStringLiteral("Korean has %1 unfinished entries:\n%2")
                                               .arg(c.unfinished)
                                               .arg(t.output)));
    QVERIFY2(c.ignored == 0, qPrintable(t.output));
    QCOMPARE(c.finished, c.generated);
  }

  void englishIsCompleteToo() {
    const QString qm = QDir::tempPath() + QStringLiteral("/adala_en_%1.qm").arg(getpid());
    const Tool t = run(QStringLiteral(ADALA_LRELEASE), {kTsDir + "/adala_en.ts", "-qm", qm});
    QFile::remove(qm);
    QVERIFY2(t.exit_code == 0, qPrintable(t.output));
    const Counts c = lrelease_counts(t.output);
    QVERIFY2(c.unfinished == 0 && c.ignored == 0, qPrintable(t.output));
  }

  void noVanishedOrObsoleteEntries() {
    for (const char* file : {"adala_ko.ts", "adala_en.ts"}) {
      QString language;
      const auto messages = read_ts(kTsDir + '/' + QLatin1String(file), &language);
      QVERIFY2(!messages.isEmpty(), file);
      QVERIFY2(language.startsWith(QString::fromLatin1(file).mid(6, 2)), qPrintable(language));
      for (const auto& m : messages) {
        QVERIFY2(m.type != QLatin1String("vanished") && m.type != QLatin1String("obsolete"),
                 qPrintable(QStringLiteral("%1: %2 / %3 is %4")
                                .arg(QLatin1String(file), m.context, m.source, m.type)));
      }
    }
  }

  void koreanTranslationsKeepPlaceholders() {
    const auto messages = read_ts(kTsDir + "/adala_ko.ts");
    int hangul = 0;
    for (const auto& m : messages) {
      QVERIFY2(!m.translations.isEmpty() && !m.translations.front().isEmpty(),
               qPrintable(m.context + " / " + m.source));
      for (const auto& t : m.translations) {
        QSet<QString> expected = placeholders(m.source);
        QSet<QString> got = placeholders(t);
        QVERIFY2(expected == got,
                 qPrintable(QStringLiteral("%1 / \"%2\" -> \"%3\"").arg(m.context, m.source, t)));
      }
      static const QRegularExpression korean(QStringLiteral("[\\x{AC00}-\\x{D7A3}]"));
      hangul += m.translations.front().contains(korean);
    }
    // Nearly everything reads in Korean (shortcuts, symbols and names such as "Ctrl+L", "%",
    // "viridis" stay as they are): a copied-over English file would fail here.
    QVERIFY2(hangul >= messages.size() * 85 / 100,
             qPrintable(QStringLiteral("%1 of %2").arg(hangul).arg(messages.size())));
  }

  // The report titles its stages with the stage table's titles, translated in its own
  // context (engine/report marks them there): each title has its Korean entry.
  void stageTableTitlesAreTranslatedForTheReport() {
    const auto messages = read_ts(kTsDir + "/adala_ko.ts");
    for (const auto& spec : adala::kStages) {
      bool found = false;
      for (const auto& m : messages)
        found = found || (m.context == QLatin1String("AdalaReport") &&
                          m.source == QString::fromUtf8(spec.title) && !m.translations.isEmpty() &&
                          !m.translations.front().isEmpty());
      QVERIFY2(found, spec.title);
    }
  }

  // lupdate over the same folders into scratch copies: the same messages come out. Fails
  // when a tr() string was added or changed after the .ts files were last updated: run
  // `ninja -C build update_translations` and translate the new Korean entries.
  void tsFilesCoverEverySourceString() {
    const QString dir = QStringLiteral(ADALA_TEST_TMP "/translations-%1").arg(getpid());
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    // Korean holds every string, English only the plural forms (as in translations/CMakeLists.txt).
    for (const char* file : {"adala_ko.ts", "adala_en.ts"}) {
      QStringList args = QStringLiteral(ADALA_TRANSLATION_SCAN_DIRS).split('|', Qt::SkipEmptyParts);
      args << "-I" << QStringLiteral(ADALA_SOURCE_DIR) << "-no-obsolete"
           << "-locations"
           << "none";
      args << QStringLiteral(ADALA_LUPDATE_ALIASES)
                  .split('|', Qt::SkipEmptyParts);  // engine/report's macros
      if (QLatin1String(file) == QLatin1String("adala_en.ts")) args << "-pluralonly";
      const QString copy = dir + '/' + QLatin1String(file);
      QVERIFY(QFile::copy(kTsDir + '/' + QLatin1String(file), copy));
      QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
      args << "-ts" << copy;
      const Tool t = run(QStringLiteral(ADALA_LUPDATE), args);
      QVERIFY2(t.exit_code == 0, qPrintable(t.output));
      QSet<QString> before, after;
      for (const auto& m : read_ts(kTsDir + '/' + QLatin1String(file)))
        before.insert(m.context + " | " + m.source);
      for (const auto& m : read_ts(copy)) after.insert(m.context + " | " + m.source);
      QStringList added = QStringList((after - before).values()),
                  gone = QStringList((before - after).values());
      added.sort();
      gone.sort();
      QVERIFY2(
          added.isEmpty(),
          qPrintable(QStringLiteral(
                         "%1 misses %2 source string(s); run `ninja -C build update_translations` "
                         "and translate them:\n  %3")
                         .arg(QLatin1String(file))
                         .arg(added.size())
                         .arg(added.join("\n  "))));
      QVERIFY2(
          gone.isEmpty(),
          qPrintable(QStringLiteral(
                         "%1 holds %2 string(s) the sources no longer have; run `ninja -C build "
                         "update_translations`:\n  %3")
                         .arg(QLatin1String(file))
                         .arg(gone.size())
                         .arg(gone.join("\n  "))));
    }
    QDir(dir).removeRecursively();
  }
};

ADALA_TEST_GUILESS_MAIN(TestTranslations)
}  // namespace test_translations

#include "test_translations.moc"
