#include "app/report_gui/export_report_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>
#include <QVBoxLayout>

#include "app/report_render/qt_report.h"
#include "engine/report/report_export.h"

namespace adala::report_gui {

namespace {
constexpr const char* kLastFormatKey = "report/last_format";
constexpr const char* kLastFolderKey = "report/last_folder";
}  // namespace

ExportReportDialog::ExportReportDialog(const QString& dbPath, const QList<qint64>& runs,
                                       QWidget* parent)
    : QDialog(parent), dbPath_(dbPath), runs_(runs) {
  runsLabel_ = new QLabel(this);
  runsLabel_->setWordWrap(true);
  format_ = new QComboBox(this);
  format_->addItem(QString(), QStringLiteral("html"));
  format_->addItem(QString(), QStringLiteral("pdf"));
  format_->addItem(QString(), QStringLiteral("md"));
  path_ = new QLineEdit(this);
  path_->setMinimumWidth(360);
  browse_ = new QPushButton(this);
  title_ = new QLineEdit(this);
  open_ = new QCheckBox(this);
  open_->setChecked(true);

  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browse_);
  auto* form = new QFormLayout;
  formatLabel_ = new QLabel(this);
  fileLabel_ = new QLabel(this);
  titleLabel_ = new QLabel(this);
  form->addRow(formatLabel_, format_);
  form->addRow(fileLabel_, fileRow);
  form->addRow(titleLabel_, title_);
  auto* buttons = buttons_ =
      new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(runsLabel_);
  layout->addLayout(form);
  layout->addWidget(open_);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, &ExportReportDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ExportReportDialog::reject);
  connect(browse_, &QPushButton::clicked, this, &ExportReportDialog::browse);
  connect(format_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &ExportReportDialog::formatChanged);

  QSettings settings;
  const QString folder =
      settings
          .value(QLatin1String(kLastFolderKey),
                 QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
          .toString();
  const QString stem = runs_.size() == 1 ? QStringLiteral("run-%1-report").arg(runs_.front())
                                         : QStringLiteral("runs-report");
  path_->setText(
      QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(stem + QStringLiteral(".html")));
  setFormatName(settings.value(QLatin1String(kLastFormatKey), QStringLiteral("pdf")).toString());
  retranslate();
}

QString ExportReportDialog::outputPath() const { return path_->text().trimmed(); }
QString ExportReportDialog::formatName() const { return format_->currentData().toString(); }
void ExportReportDialog::setOutputPath(const QString& path) { path_->setText(path); }

void ExportReportDialog::setFormatName(const QString& format) {
  const int i = format_->findData(format);
  if (i >= 0) format_->setCurrentIndex(i);
  formatChanged();
}

void ExportReportDialog::retranslate() {
  setWindowTitle(tr("Export report"));
  QStringList ids;
  for (qint64 id : runs_) ids << QStringLiteral("#%1").arg(id);
  runsLabel_->setText(
      tr("Report of %n run(s): %1", "", int(runs_.size())).arg(ids.join(QStringLiteral(", "))));
  formatLabel_->setText(tr("Format:"));
  fileLabel_->setText(tr("File:"));
  titleLabel_->setText(tr("Title:"));
  format_->setItemText(0, tr("HTML (one self-contained file)"));
  format_->setItemText(1, tr("PDF (print-ready, with contents and page numbers)"));
  format_->setItemText(2, tr("Markdown (figures in a folder beside it)"));
  browse_->setText(tr("Browse…"));
  title_->setPlaceholderText(tr("Automatic"));
  open_->setText(tr("Open the report when it is written"));
  // Our own words for the buttons: Qt's translations (qtbase_ko.qm) may not be installed.
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  buttons_->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));
}

void ExportReportDialog::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QDialog::changeEvent(event);
}

void ExportReportDialog::formatChanged() {
  const auto format = report::parse_report_format(formatName().toStdString());
  if (!format) return;
  QString path = outputPath();
  if (path.isEmpty()) return;
  const QFileInfo info(path);
  path = info.dir().filePath(info.completeBaseName() +
                             QString::fromStdString(report::format_extension(*format)));
  path_->setText(path);
}

void ExportReportDialog::browse() {
  const auto format =
      report::parse_report_format(formatName().toStdString()).value_or(report::ReportFormat::Html);
  QString filter;
  switch (format) {
    case report::ReportFormat::Html:
      filter = tr("HTML files (*.html)");
      break;
    case report::ReportFormat::Pdf:
      filter = tr("PDF files (*.pdf)");
      break;
    case report::ReportFormat::Markdown:
      filter = tr("Markdown files (*.md)");
      break;
  }
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export report"), outputPath(), filter);
  if (!path.isEmpty()) {
    path_->setText(QFileInfo(path).suffix().isEmpty()
                       ? path + QString::fromStdString(report::format_extension(format))
                       : path);
  }
}

QString ExportReportDialog::exportNow(QString* error, QStringList* warnings) {
  report::ReportRequest request;
  request.db_path = dbPath_.toStdString();
  for (qint64 id : runs_) request.runs.push_back(std::to_string(id));
  request.format =
      report::parse_report_format(formatName().toStdString()).value_or(report::ReportFormat::Html);
  request.output = outputPath().toStdString();
  request.title = title_->text().trimmed().toStdString();
  request.locale = report_render::report_locale(QLocale());
  request.warn = [](const std::string&) {};  // collected in the result, shown below
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const report::ReportResult result = report_render::export_report(request);
  QApplication::restoreOverrideCursor();
  if (warnings) *warnings = report_render::to_qstrings(result.warnings);
  if (!result.ok) {
    if (error) *error = QString::fromStdString(result.error);
    return {};
  }
  const QString output = QString::fromStdString(result.output);
  QSettings settings;
  settings.setValue(QLatin1String(kLastFormatKey), formatName());
  settings.setValue(QLatin1String(kLastFolderKey), QFileInfo(output).absolutePath());
  return output;
}

void ExportReportDialog::accept() {
  if (outputPath().isEmpty()) {
    QMessageBox::warning(this, tr("Export report"), tr("Choose the file to write."));
    return;
  }
  QString error;
  QStringList warnings;
  const QString written = exportNow(&error, &warnings);
  if (written.isEmpty()) {
    QMessageBox::critical(this, tr("Export report"),
                          tr("The report could not be written:\n%1").arg(error));
    return;
  }
  if (!warnings.isEmpty()) {
    QMessageBox box(
        QMessageBox::Warning, tr("Export report"),
        tr("The report was written to %1, with %n problem(s):", "", int(warnings.size()))
            .arg(written),
        QMessageBox::Ok, this);
    box.setDetailedText(warnings.join('\n'));
    box.exec();
  }
  if (open_->isChecked()) QDesktopServices::openUrl(QUrl::fromLocalFile(written));
  QDialog::accept();
}

QString exportReport(QWidget* parent, const QString& dbPath, const QList<qint64>& runs) {
  if (runs.isEmpty()) {
    QMessageBox::information(parent, ExportReportDialog::tr("Export report"),
                             ExportReportDialog::tr("Select one or more runs to report on first."));
    return {};
  }
  ExportReportDialog dialog(dbPath, runs, parent);
  if (dialog.exec() != QDialog::Accepted) return {};
  return dialog.outputPath();
}

}  // namespace adala::report_gui
