// The run list's record edits, driven as a user would: select a run, press F2 / Ctrl+Shift+T /
// Ctrl+Shift+N / Delete, answer the dialog by typing, and the database holds the change (or the
// list says why not and the database keeps the old value).
#include <QtTest/QtTest>

#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeView>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

#include "engine/store/run_store.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/run_browser.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_run_edits {

using namespace adala;
using adala::widgets::JobStatus;
using adala::widgets::RunBrowser;

namespace {

// Answers the next modal dialog with `answer` once it is up (it runs inside the dialog's loop).
// The flag says whether it was answered (a key that opened no dialog leaves it false).
std::shared_ptr<bool> whenDialogOpens(std::function<void(QWidget*)> answer) {
  auto answered = std::make_shared<bool>(false);
  auto* timer = new QTimer;
  timer->setInterval(10);
  QObject::connect(timer, &QTimer::timeout, [timer, answer, answered] {
    if (QWidget* dialog = QApplication::activeModalWidget()) {
      timer->stop();
      timer->deleteLater();
      *answered = true;
      answer(dialog);
    }
  });
  timer->start();
  return answered;
}

// Presses `key` on the run list (focused, as after a click on it); true once its dialog was
// answered. A key that opens no dialog stops the pending answer.
bool pressOnList(RunBrowser* b, std::shared_ptr<bool> answered, Qt::Key key,
                 Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  // After a dialog closes the offscreen platform activates no window: shortcuts need one.
  QApplication::setActiveWindow(b);
  b->view()->setFocus();
  QTest::keyClick(b->view(), key, modifiers);
  QTest::qWait(0);
  if (!*answered)
    for (auto* t : QApplication::instance()->findChildren<QTimer*>()) t->stop();
  return *answered;
}

void typeAndAccept(QWidget* dialog, const QString& text) {
  auto* edit = dialog->findChild<QLineEdit*>();
  QVERIFY(edit);
  edit->selectAll();
  QTest::keyClicks(edit, text);
  QTest::keyClick(edit, Qt::Key_Return);
}

}  // namespace

class TestGuiRunEdits : public QObject {
  Q_OBJECT

  QString dir_, db_, artifact_;
  int64_t first_ = 0, second_ = 0, live_ = 0;
  std::unique_ptr<store::RunStore> writer_;  // keeps run `live_` running (a live writer)

  store::RunInfo info(int64_t id) const {
    store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
    auto i = s.find_run(id);
    return i ? *i : store::RunInfo{};
  }

  // A fresh browser on the database with `id` selected and the list focused.
  std::unique_ptr<RunBrowser> browserOn(int64_t id) {
    auto b = std::make_unique<RunBrowser>();
    b->resize(700, 400);
    b->setDatabasePath(db_);
    b->show();
    if (!QTest::qWaitForWindowExposed(b.get())) return nullptr;
    b->selectRun(id);
    b->view()->setFocus();
    return b;
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("run-edits");
    db_ = dir_ + "/runs.sqlite";
    artifact_ = dir_ + "/weights.safetensors";
    std::ofstream(artifact_.toStdString()) << "weights";
    writer_ = std::make_unique<store::RunStore>(db_.toStdString());
    for (int64_t* id : {&first_, &second_, &live_}) {
      *id = writer_->create_run(id == &first_    ? "first"
                                : id == &second_ ? "second"
                                                 : "live",
                                "{}", "cpu", "1.13", "0.1");
      writer_->set_run_status(*id, store::RunStatus::Running);
      if (id != &live_) writer_->set_run_status(*id, store::RunStatus::Done);
    }
    writer_->add_artifact(second_, "weights", artifact_.toStdString());
    writer_->add_tag(first_, "old");
    writer_->flush();
  }

  // A read that fails (here: the file replaced by garbage for a moment) leaves the runs shown
  // as last read, says why, and the list reads the database again by itself once it is back.
  void a_failed_read_keeps_the_list_and_tries_again() {
    const QString db = dir_ + "/flaky.sqlite";
    {
      store::RunStore w(db.toStdString());
      for (const char* name : {"alpha", "beta"}) w.create_run(name, "{}", "cpu", "1.13", "0.1");
      w.flush();
    }  // closed: the file holds everything, no -wal
    RunBrowser b;
    b.setDatabasePath(db);
    QCOMPARE(b.visibleRunCount(), 2);
    QFile file(db);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    file.close();
    auto message = [&] {
      QString text;
      for (auto* label : b.findChildren<QLabel*>()) text += label->text();
      return text;
    };
    auto writeFile = [&](const QByteArray& content) {
      QFile f(db);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(content);
    };
    writeFile(QByteArray(4096, 'x'));
    b.refresh();
    QCOMPARE(b.visibleRunCount(), 2);  // not emptied
    QCOMPARE(b.nameOf(1), QString("alpha"));
    QVERIFY2(message().contains("Cannot read") && message().contains("as last read") &&
                 message().contains("Trying again"),
             qPrintable(message()));
    writeFile(bytes);
    QTRY_VERIFY_WITH_TIMEOUT(!message().contains("Cannot read"), 30000);
    QCOMPARE(b.visibleRunCount(), 2);
    QCOMPARE(b.nameOf(2), QString("beta"));
  }

  void f2_renames_and_a_bad_name_is_refused_plainly() {
    auto b = browserOn(first_);
    QVERIFY(b);
    QVERIFY(pressOnList(b.get(), whenDialogOpens([](QWidget* d) {
                          typeAndAccept(d, QStringLiteral("baseline run"));
                        }),
                        Qt::Key_F2));
    QCOMPARE(info(first_).name, std::string("baseline run"));
    b->selectRun(first_);
    QVERIFY(pressOnList(b.get(),
                        whenDialogOpens([](QWidget* d) { typeAndAccept(d, QStringLiteral("42")); }),
                        Qt::Key_F2));
    QCOMPARE(info(first_).name, std::string("baseline run"));  // unchanged
    bool said = false;
    for (auto* label : b->findChildren<QLabel*>())
      said |= label->text().contains(QLatin1String("digits only"));
    QVERIFY(said);
  }

  void tags_replace_the_runs_tags() {
    auto b = browserOn(first_);
    QVERIFY(b);
    QString shown;
    QVERIFY(pressOnList(b.get(), whenDialogOpens([&shown](QWidget* d) {
                          shown = d->findChild<QLineEdit*>()->text();
                          typeAndAccept(d, QStringLiteral("best, cpu-only ,"));
                        }),
                        Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier));
    QCOMPARE(shown, QString("old"));  // the current tags, to edit
    QCOMPARE(info(first_).tags, (std::vector<std::string>{"best", "cpu-only"}));
  }

  void notes_are_written() {
    auto b = browserOn(second_);
    QVERIFY(b);
    QVERIFY(pressOnList(
        b.get(), whenDialogOpens([](QWidget* d) {
          QTest::keyClicks(d->findChild<QPlainTextEdit*>(), QStringLiteral("lr too high"));
          QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                            Qt::LeftButton);
        }),
        Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier));
    QCOMPARE(info(second_).notes, std::string("lr too high"));
  }

  void delete_asks_then_removes_the_run_and_its_files() {
    auto b = browserOn(second_);
    QVERIFY(b);
    QSignalSpy deleted(b.get(), &RunBrowser::runDeleted);
    QString question;
    QVERIFY(pressOnList(b.get(), whenDialogOpens([&question](QWidget* d) {
                          auto* box = qobject_cast<QMessageBox*>(d);
                          question = box->text();
                          QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
                        }),
                        Qt::Key_Delete));
    QVERIFY2(question.contains(QLatin1String("second")), qPrintable(question));
    QCOMPARE(info(second_).id, second_);  // cancelled: still there
    b->selectRun(second_);
    QVERIFY(pressOnList(b.get(), whenDialogOpens([](QWidget* d) {
                          QTest::mouseClick(qobject_cast<QMessageBox*>(d)->button(QMessageBox::Yes),
                                            Qt::LeftButton);
                        }),
                        Qt::Key_Delete));
    QCOMPARE(info(second_).id, int64_t(0));
    QVERIFY(!std::filesystem::exists(artifact_.toStdString()));
    QCOMPARE(deleted.count(), 1);
    QCOMPARE(b->statusOf(second_), std::nullopt);  // gone from the list
  }

  void a_live_run_cannot_be_deleted() {
    auto b = browserOn(live_);
    QVERIFY(b);
    QCOMPARE(b->statusOf(live_), JobStatus::Running);
    QVERIFY(!b->deleteAction()->isEnabled());
    QString error;
    QVERIFY(!b->deleteRun(live_, &error));  // the store refuses it too
    QVERIFY2(error.contains(QLatin1String("still being written")), qPrintable(error));
    QCOMPARE(info(live_).id, live_);
  }
};

ADALA_TEST_MAIN(TestGuiRunEdits)
}  // namespace test_gui_run_edits

#include "test_gui_run_edits.moc"
