#include "widgets/launch/data_source_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

#include "widgets/common/form_value.h"

namespace adala::widgets {

namespace {

const char* const kRowKeys[] = {"train", "eval", "alignment"};
const char* const kLegacyLimits[] = {"train_limit", "test_limit", "alignment_limit"};
const QString kFashionMnist = QStringLiteral("fashion-mnist");

// Keys of a per-stage source object that the form writes; the rest are kept as they are.
bool ownedSourceKey(const QString& key) {
  return key == QLatin1String("source") || key == QLatin1String("root") ||
         key == QLatin1String("list") || key == QLatin1String("limit") ||
         key == QLatin1String("split") || key == QLatin1String("res");
}

QJsonObject extrasOf(const QJsonObject& source) {
  QJsonObject extras;
  for (auto it = source.begin(); it != source.end(); ++it)
    if (!ownedSourceKey(it.key())) extras.insert(it.key(), it.value());
  return extras;
}

QString textOf(const QJsonValue& v) {
  return v.isUndefined() || v.isNull() ? QString() : v.toVariant().toString();
}

void setInvalid(QWidget* w, bool bad) {
  if (w->property("invalid").toBool() == bad) return;
  w->setProperty("invalid", bad);
  w->style()->unpolish(w);
  w->style()->polish(w);
}

}  // namespace

DataSourceForm::DataSourceForm(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setHorizontalSpacing(4);
  perStage_ = new QCheckBox(tr("Other source per stage"), this);
  perStage_->setToolTip(
      tr("Off: the training source also serves evaluation and Stages 1-2 (data.train)"));
  grid->addWidget(perStage_, 0, 0, 1, 4);
  grid->addWidget(new QLabel(tr("Source"), this), 1, 1);
  grid->addWidget(new QLabel(tr("Images"), this), 1, 2, 1, 2);
  const QString rowLabels[] = {tr("Training"), tr("Evaluation"), tr("Alignment")};
  const QString rowTips[] = {tr("Stage 0 and Stage 3 training (data.train)"),
                             tr("Every top-1 evaluation (data.eval)"),
                             tr("Stages 1-2, labels unused (data.alignment)")};
  for (int r = 0; r < kRows; ++r) addSourceRow(grid, r, rowLabels[r], rowTips[r]);
  const int loaderLine = 2 + 4 * kRows;
  addLoaderRows(grid, loaderLine);
  for (auto* m : message_) {
    m->setWordWrap(true);
    m->setStyleSheet(QStringLiteral("color: #d62728;"));
    m->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m->hide();
  }
  grid->setColumnStretch(1, 3);
  grid->setColumnStretch(2, 2);
  grid->setRowStretch(loaderLine + 3, 1);

  connect(perStage_, &QCheckBox::toggled, this, [this] {
    if (filling_) return;
    mirrorTrain();
    updateRows();
    changed();
  });
  connect(threads_, &QLineEdit::textEdited, this, [this] { changed(); });
  connect(badImage_, &QComboBox::currentTextChanged, this, [this] {
    if (!filling_) changed();
  });
  updateRows();
}

// Per stage: source and image count, the path (full width), the input side, any problem.
void DataSourceForm::addSourceRow(QGridLayout* grid, int r, const QString& labelText,
                                  const QString& tip) {
  const int line = 2 + 4 * r;
  const QString key = QString::fromLatin1(kRowKeys[r]);
  auto* label = new QLabel(labelText, this);
  label->setToolTip(tip);
  grid->addWidget(label, line, 0);
  source_[r] = new QComboBox(this);
  source_[r]->addItems(
      {kFashionMnist, QStringLiteral("image-folder"), QStringLiteral("image-list")});
  source_[r]->setAccessibleName(QStringLiteral("data.%1.source").arg(key));
  source_[r]->setToolTip(
      tr("fashion-mnist: the idx files; image-folder: one sub-folder per "
         "class; image-list: a folder of images or a path<TAB>label file"));
  grid->addWidget(source_[r], line, 1);
  path_[r] = new QLineEdit(this);
  path_[r]->setAccessibleName(QStringLiteral("data.%1.root").arg(key));
  path_[r]->setMinimumWidth(60);
  grid->addWidget(path_[r], line + 1, 1, 1, 2);
  browse_[r] = new QToolButton(this);
  browse_[r]->setText(QStringLiteral("…"));
  browse_[r]->setToolTip(tr("Choose a folder"));
  grid->addWidget(browse_[r], line + 1, 3);
  limit_[r] = new QLineEdit(this);
  limit_[r]->setAccessibleName(QStringLiteral("data.%1.limit").arg(key));
  limit_[r]->setPlaceholderText(r == Train ? tr("all") : tr("as training"));
  limit_[r]->setToolTip(
      tr("Use N images of this source (0 or empty: all; an image-folder "
         "takes the classes in turn)"));
  grid->addWidget(limit_[r], line, 2, 1, 2);
  res_[r] = new QLineEdit(this);
  res_[r]->setAccessibleName(QStringLiteral("data.%1.res").arg(key));
  res_[r]->setPlaceholderText(r == Train ? tr("model's") : tr("as training"));
  res_[r]->setToolTip(tr("The side of this stage's input in pixels (data.%1.res), a multiple of "
                         "the patch size; empty: the model's img_size")
                          .arg(key));
  auto* sideLabel = new QLabel(tr("Side (px)"), this);
  sideLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  grid->addWidget(sideLabel, line + 2, 0);
  grid->addWidget(res_[r], line + 2, 1);
  message_[r] = new QLabel(this);
  grid->addWidget(message_[r], line + 3, 1, 1, 3);
  pathKey_[r] = QStringLiteral("root");

  connect(source_[r], &QComboBox::currentTextChanged, this, [this] {
    if (filling_) return;
    updateRows();
    changed();
  });
  connect(path_[r], &QLineEdit::textEdited, this, [this] { changed(); });
  connect(limit_[r], &QLineEdit::textEdited, this, [this] { changed(); });
  connect(res_[r], &QLineEdit::textEdited, this, [this] { changed(); });
  connect(browse_[r], &QToolButton::clicked, this, [this, r] { browse(r); });
}

// The loader's settings (data.decode_threads, data.on_bad_image) and their problem line.
void DataSourceForm::addLoaderRows(QGridLayout* grid, int line) {
  auto* threadsLabel = new QLabel(tr("Decode threads"), this);
  grid->addWidget(threadsLabel, line, 0);
  threads_ = new QLineEdit(this);
  threads_->setAccessibleName(QStringLiteral("data.decode_threads"));
  threads_->setPlaceholderText(QStringLiteral("2"));
  threads_->setToolTip(tr("Threads decoding images ahead of the step (0: in the training thread)"));
  grid->addWidget(threads_, line, 1);
  grid->addWidget(new QLabel(tr("Bad image"), this), line + 1, 0);
  badImage_ = new QComboBox(this);
  badImage_->addItems({QStringLiteral("error"), QStringLiteral("skip")});
  badImage_->setAccessibleName(QStringLiteral("data.on_bad_image"));
  badImage_->setToolTip(
      tr("An unreadable image: stop the run naming the file (error), or "
         "skip it and count it in the log (skip)"));
  grid->addWidget(badImage_, line + 1, 1);
  message_[kRows] = new QLabel(this);
  grid->addWidget(message_[kRows], line + 2, 0, 1, 4);
}

QString DataSourceForm::sourceOf(int row) const {
  return source_[perStage_->isChecked() ? row : Train]->currentText();
}

QString DataSourceForm::pathOf(int row) const {
  return path_[perStage_->isChecked() ? row : Train]->text().trimmed();
}

void DataSourceForm::browse(int row) {
  auto* dialog = new QFileDialog(this, tr("Choose the images folder"), path_[row]->text());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setFileMode(QFileDialog::Directory);
  dialog->setOption(QFileDialog::ShowDirsOnly);
  dialog->setObjectName(QStringLiteral("dataFolderDialog"));
  connect(dialog, &QFileDialog::fileSelected, this, [this, row](const QString& folder) {
    if (folder.isEmpty()) return;
    path_[row]->setText(folder);
    changed();
  });
  dialog->open();
}

// One source for all: the evaluation and alignment rows show the training source, greyed.
void DataSourceForm::mirrorTrain() {
  if (perStage_->isChecked()) return;
  const bool was = filling_;
  filling_ = true;
  for (int r = Eval; r < kRows; ++r) {
    source_[r]->setCurrentText(source_[Train]->currentText());
    path_[r]->setText(path_[Train]->text());
  }
  filling_ = was;
}

void DataSourceForm::updateRows() {
  const bool own = perStage_->isChecked();
  for (int r = 0; r < kRows; ++r) {
    const bool editable = r == Train || own;
    source_[r]->setEnabled(editable);
    path_[r]->setEnabled(editable);
    browse_[r]->setEnabled(editable);
    if (r > Train) limit_[r]->setPlaceholderText(own ? tr("all") : tr("as training"));
    const QString src = source_[r]->currentText();
    path_[r]->setPlaceholderText(src == kFashionMnist ? tr("the installed Fashion-MNIST")
                                 : src == QLatin1String("image-folder")
                                     ? tr("class folders root")
                                     : tr("folder or list file"));
    path_[r]->setToolTip(
        src == kFashionMnist ? tr("Folder of the idx files (empty: the installed copy)")
        : src == QLatin1String("image-folder")
            ? tr("Folder with one sub-folder of images per class (ImageNet layout)")
            : tr("A folder of images (no labels) or a text file of path or path<TAB>label "
                 "lines"));
  }
}

void DataSourceForm::changed() {
  if (filling_) return;
  mirrorTrain();
  emit edited();
}

void DataSourceForm::setData(const QJsonObject& data) {
  filling_ = true;
  const bool perStageDoc = data.contains(QStringLiteral("train")) ||
                           data.contains(QStringLiteral("eval")) ||
                           data.contains(QStringLiteral("alignment"));
  bool own = false;
  if (perStageDoc) {
    const QJsonObject train = data.value(QStringLiteral("train")).toObject();
    for (int r = 0; r < kRows; ++r) {
      const QString key = QString::fromLatin1(kRowKeys[r]);
      const bool given = data.contains(key);
      const QJsonObject obj = given ? data.value(key).toObject() : train;
      pathKey_[r] =
          obj.contains(QStringLiteral("list")) ? QStringLiteral("list") : QStringLiteral("root");
      source_[r]->setCurrentText(obj.value(QStringLiteral("source")).toString(kFashionMnist));
      path_[r]->setText(obj.value(pathKey_[r]).toString());
      limit_[r]->setText(given ? textOf(obj.value(QStringLiteral("limit"))) : QString());
      res_[r]->setText(given ? textOf(obj.value(QStringLiteral("res"))) : QString());
      if (r > Train && (source_[r]->currentText() != source_[Train]->currentText() ||
                        path_[r]->text() != path_[Train]->text()))
        own = true;
    }
  } else {
    for (int r = 0; r < kRows; ++r) {
      pathKey_[r] = QStringLiteral("root");
      source_[r]->setCurrentText(kFashionMnist);
      path_[r]->setText(data.value(QStringLiteral("root")).toString());
      limit_[r]->setText(textOf(data.value(QString::fromLatin1(kLegacyLimits[r]))));
      res_[r]->clear();
    }
  }
  perStage_->setChecked(own);
  threads_->setText(textOf(data.value(QStringLiteral("decode_threads"))));
  badImage_->setCurrentText(
      data.value(QStringLiteral("on_bad_image")).toString(QStringLiteral("error")));
  updateRows();
  filling_ = false;
}

QJsonObject DataSourceForm::applyTo(const QJsonObject& previous) const {
  QJsonObject data = previous;
  QJsonObject extras[kRows];
  bool anyExtras = false;
  for (int r = 0; r < kRows; ++r) {
    extras[r] = extrasOf(previous.value(QString::fromLatin1(kRowKeys[r])).toObject());
    anyExtras = anyExtras || !extras[r].isEmpty();
  }
  auto scalar = [](const QLineEdit* edit) {
    return edit->text().trimmed().isEmpty() ? QJsonValue(QJsonValue::Undefined)
                                            : parseScalar(edit->text());
  };
  auto put = [](QJsonObject& o, const QString& key, const QJsonValue& v) {
    if (v.isUndefined())
      o.remove(key);
    else
      o.insert(key, v);
  };
  const bool own = perStage_->isChecked();
  bool anyRes = false;
  for (const QLineEdit* res : res_) anyRes = anyRes || !res->text().trimmed().isEmpty();
  if (!own && source_[Train]->currentText() == kFashionMnist && !anyExtras && !anyRes) {
    // The Fashion-MNIST shorthand, as configs had it before per-stage data.
    for (const char* key : kRowKeys) data.remove(QString::fromLatin1(key));
    const QString root = path_[Train]->text().trimmed();
    put(data, QStringLiteral("root"), root.isEmpty() ? QJsonValue(QJsonValue::Undefined) : root);
    for (int r = 0; r < kRows; ++r)
      put(data, QString::fromLatin1(kLegacyLimits[r]), scalar(limit_[r]));
  } else {
    data.remove(QStringLiteral("root"));
    for (const char* key : kLegacyLimits) data.remove(QString::fromLatin1(key));
    for (int r = 0; r < kRows; ++r) {
      const QString key = QString::fromLatin1(kRowKeys[r]);
      const QString src = sourceOf(r);
      const bool fmnist = src == kFashionMnist;
      const QJsonObject before = previous.value(key).toObject();
      // A row left empty inherits the training row's side, as an absent data.<row> would.
      QJsonValue res = scalar(res_[r]);
      const bool ownRes = !res.isUndefined();
      if (!ownRes && r > Train) res = scalar(res_[Train]);
      const bool needed = r == Train || own || !scalar(limit_[r]).isUndefined() || ownRes ||
                          !extras[r].isEmpty() || (fmnist && r == Eval);
      if (!needed) {
        data.remove(key);
        continue;
      }
      // A row left to inherit data.train keeps train's other settings (res, classes, ...).
      QJsonObject obj = !own && r > Train && !previous.contains(key) ? extras[Train] : extras[r];
      obj.insert(QStringLiteral("source"), src);
      const QString path = pathOf(r);
      const int pathRow = own ? r : Train;
      if (!path.isEmpty()) obj.insert(pathKey_[pathRow], path);
      put(obj, QStringLiteral("limit"), scalar(limit_[r]));
      put(obj, QStringLiteral("res"), res);
      if (fmnist)
        obj.insert(QStringLiteral("split"),
                   before.value(QStringLiteral("split"))
                       .toString(r == Eval ? QStringLiteral("test") : QStringLiteral("train")));
      data.insert(key, obj);
    }
  }
  put(data, QStringLiteral("decode_threads"), scalar(threads_));
  if (badImage_->currentText() == QLatin1String("skip") ||
      previous.contains(QStringLiteral("on_bad_image")))
    data.insert(QStringLiteral("on_bad_image"), badImage_->currentText());
  return data;
}

int DataSourceForm::rowOf(const QString& field) const {
  const QStringList parts = field.split(QLatin1Char('.'));
  if (parts.size() < 2 || parts[0] != QLatin1String("data")) return -1;
  const QString key = parts[1];
  if (key == QLatin1String("root")) return Train;
  for (int r = 0; r < kRows; ++r)
    if (key == QLatin1String(kRowKeys[r]) || key == QLatin1String(kLegacyLimits[r])) return r;
  if (key == QLatin1String("decode_threads") || key == QLatin1String("on_bad_image") ||
      key == QLatin1String("prefetch"))
    return kRows;
  return -1;
}

QWidget* DataSourceForm::widgetFor(const QString& field) const {
  const int r = rowOf(field);
  if (r < 0) return nullptr;
  const QStringList parts = field.split(QLatin1Char('.'));
  if (r == kRows)
    return parts[1] == QLatin1String("decode_threads") ? static_cast<QWidget*>(threads_)
           : parts[1] == QLatin1String("on_bad_image") ? static_cast<QWidget*>(badImage_)
                                                       : nullptr;
  if (parts[1] == QLatin1String(kLegacyLimits[r])) return limit_[r];
  if (parts[1] == QLatin1String("root")) return path_[Train];
  const QString sub = parts.size() > 2 ? parts[2] : QString();
  if (sub == QLatin1String("limit")) return limit_[r];
  if (sub == QLatin1String("res")) return res_[r];
  const int shown = perStage_->isChecked() ? r : Train;
  if (sub == QLatin1String("root") || sub == QLatin1String("list") ||
      sub == QLatin1String("classes"))
    return path_[shown];
  return source_[shown];
}

void DataSourceForm::showProblem(const QString& field, const QString& reason) {
  QWidget* bad = field.isEmpty() ? nullptr : widgetFor(field);
  for (int r = 0; r < kRows; ++r)
    for (QWidget* w : {static_cast<QWidget*>(source_[r]), static_cast<QWidget*>(path_[r]),
                       static_cast<QWidget*>(limit_[r]), static_cast<QWidget*>(res_[r])})
      setInvalid(w, w == bad);
  setInvalid(threads_, threads_ == bad);
  setInvalid(badImage_, badImage_ == bad);
  int row = field.isEmpty() ? -1 : rowOf(field);
  // With one source for all, a problem in the shared source shows under the training row.
  if (row > Train && row < kRows && bad && bad != limit_[row] && bad != res_[row] &&
      !perStage_->isChecked())
    row = Train;
  for (int r = 0; r <= kRows; ++r) {
    const bool here = r == row;
    message_[r]->setText(here ? tr("⚠ %1: %2").arg(field, reason) : QString());
    message_[r]->setVisible(here);
  }
}

QString DataSourceForm::problemText(int row) const { return message_[row]->text(); }

}  // namespace adala::widgets
