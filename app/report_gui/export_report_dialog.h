#pragma once
// File → Export report… for the workbench window: asks for the format and the file, writes
// the report of the selected runs (engine/report), tells what was written and what was
// missing. The GUI calls one function:
//
//   adala::report_gui::exportReport(this, dbPath, selectedRunIds);
//
// It runs in the GUI thread (the charts are QCustomPlot widgets drawn off screen) with a
// wait cursor; a report of a few runs takes about a second.
#include <QDialog>
#include <QList>
#include <QString>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace adala::report_gui {

class ExportReportDialog : public QDialog {
  Q_OBJECT
 public:
  ExportReportDialog(const QString& dbPath, const QList<qint64>& runs, QWidget* parent = nullptr);

  // What the dialog was set to (for tests and for remembering the last choice).
  QString outputPath() const;
  QString formatName() const;  // "html" | "pdf" | "md"
  void setOutputPath(const QString& path);
  void setFormatName(const QString& format);

  // Writes the report; returns the document written ("" on failure, with *error set).
  // Warnings (missing artifact files) go to *warnings; the report is still written.
  QString exportNow(QString* error = nullptr, QStringList* warnings = nullptr);

 public slots:
  void accept() override;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void browse();
  void formatChanged();
  void retranslate();

  QString dbPath_;
  QList<qint64> runs_;
  QLabel* runsLabel_ = nullptr;
  QLabel* formatLabel_ = nullptr;
  QLabel* fileLabel_ = nullptr;
  QLabel* titleLabel_ = nullptr;
  QComboBox* format_ = nullptr;
  QLineEdit* path_ = nullptr;
  QLineEdit* title_ = nullptr;
  QCheckBox* open_ = nullptr;
  QPushButton* browse_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

// Shows the dialog for these runs (nothing selected: tells the user and returns "").
// Returns the report written, "" when cancelled or failed.
QString exportReport(QWidget* parent, const QString& dbPath, const QList<qint64>& runs);

}  // namespace adala::report_gui
