#include "widgets/launch/attention_plan_form.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "widgets/launch/attention_blocks_editor.h"

namespace adala::widgets {

namespace {

// The field's own tooltip, which markPlanField shows again once the field is valid.
void setPlanFieldBaseTip(QWidget* w, const QString& tip) {
  w->setProperty("baseTip", tip);
  w->setToolTip(w->property("baseTip").toString());
}

void markPlanField(QWidget* w, bool bad, const QString& reason) {
  w->setToolTip(bad ? reason : w->property("baseTip").toString());
  if (w->property("invalid").toBool() == bad) return;
  w->setProperty("invalid", bad);
  w->style()->unpolish(w);
  w->style()->polish(w);
}

QString planFieldText(const QJsonValue& v) {
  if (v.isString()) return v.toString();
  if (v.isDouble()) {
    const double d = v.toDouble();
    return d == std::floor(d) && std::abs(d) < 1e15 ? QString::number(qint64(d))
                                                    : QString::number(d);
  }
  return v.toVariant().toString();
}

// "0, 5" as [0, 5]; what is not a whole number stays text, for the engine to name.
QJsonArray parseBlockList(const QString& text) {
  QJsonArray out;
  static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
  for (const QString& token : text.split(separators, Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong n = token.toLongLong(&ok);
    out.append(ok ? QJsonValue(static_cast<qint64>(n)) : QJsonValue(token));
  }
  return out;
}

}  // namespace

AttentionPlanForm::AttentionPlanForm(QWidget* parent) : QWidget(parent) {
  setStyleSheet(QStringLiteral(
      "QLineEdit[invalid=\"true\"], QComboBox[invalid=\"true\"], QSpinBox[invalid=\"true\"] "
      "{ border: 2px solid #d62728; }"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);

  // One column, so that the field fits a narrow launcher: the form, its fields, the window.
  form_ = new QComboBox(this);
  form_->addItem(tr("The method's attention in every block"));
  form_->addItem(tr("Per block"));
  form_->addItem(tr("Softmax blocks, one mode for the others"));
  form_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  form_->setMinimumContentsLength(12);
  form_->setAccessibleName(QStringLiteral("attention"));
  setPlanFieldBaseTip(form_, tr("Which attention each block of the student runs (\"attention\"): "
                                "softmax, linear or window+linear"));
  layout->addWidget(form_);
  layout->addWidget(buildPerBlockRow());
  layout->addWidget(buildSoftmaxRow());
  layout->addLayout(buildWindowRow());

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #d62728;"));
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->hide();
  layout->addWidget(message_);

  // Tab: the form, its blocks or its fields, the window.
  setTabOrder(form_, softmaxBlocks_);
  setTabOrder(softmaxBlocks_, mode_);
  setTabOrder(mode_, window_);
  blocks_->setTabNeighbours(form_, softmaxBlocks_);

  connectControls();
  updateVisibility();
  updateSummary();
}

// The per-block editor and its summary line.
QWidget* AttentionPlanForm::buildPerBlockRow() {
  perBlockRow_ = new QWidget(this);
  auto* perBlock = new QVBoxLayout(perBlockRow_);
  perBlock->setContentsMargins(0, 0, 0, 0);
  perBlock->setSpacing(2);
  blocks_ = new AttentionBlocksEditor(perBlockRow_);
  blocks_->setAccessibleName(QStringLiteral("attention.blocks"));
  perBlock->addWidget(blocks_);
  summary_ = new QLabel(perBlockRow_);
  summary_->setWordWrap(true);
  perBlock->addWidget(summary_);
  return perBlockRow_;
}

// The short form's fields: the softmax blocks and the other blocks' mode.
QWidget* AttentionPlanForm::buildSoftmaxRow() {
  softmaxRow_ = new QWidget(this);
  auto* shortForm = new QFormLayout(softmaxRow_);
  shortForm->setContentsMargins(0, 0, 0, 0);
  shortForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  softmaxBlocks_ = new QLineEdit(softmaxRow_);
  softmaxBlocks_->setPlaceholderText(QStringLiteral("0, 5"));
  softmaxBlocks_->setAccessibleName(QStringLiteral("attention.softmax_blocks"));
  setPlanFieldBaseTip(softmaxBlocks_, tr("The blocks that keep the teacher's softmax "
                                         "attention, from 0, separated by commas"));
  auto* softmaxLabel = new QLabel(tr("Softmax &blocks:"), softmaxRow_);
  softmaxLabel->setBuddy(softmaxBlocks_);
  shortForm->addRow(softmaxLabel, softmaxBlocks_);
  mode_ = new QComboBox(softmaxRow_);
  mode_->addItem(tr("the method's"), QString());
  for (const QString& name : attentionModeNames())
    if (name != attentionModeName(AttentionMode::Softmax)) mode_->addItem(name, name);
  mode_->setAccessibleName(QStringLiteral("attention.mode"));
  setPlanFieldBaseTip(mode_, tr("The attention of the other blocks (\"mode\")"));
  auto* modeLabel = new QLabel(tr("&Others:"), softmaxRow_);
  modeLabel->setBuddy(mode_);
  shortForm->addRow(modeLabel, mode_);
  return softmaxRow_;
}

QHBoxLayout* AttentionPlanForm::buildWindowRow() {
  auto* windowRow = new QHBoxLayout;
  window_ = new OddSpinBox(this);
  window_->setAccessibleName(QStringLiteral("attention.window"));
  setPlanFieldBaseTip(window_, tr("k of the k × k window of patches around each query that "
                                  "window+linear blocks attend to with softmax (odd)"));
  auto* windowLabel = new QLabel(tr("Window &k:"), this);
  windowLabel->setBuddy(window_);
  windowRow->addWidget(windowLabel);
  windowRow->addWidget(window_);
  windowRow->addStretch(1);
  return windowRow;
}

void AttentionPlanForm::connectControls() {
  connect(form_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) onFormChosen();
  });
  connect(window_, &QSpinBox::valueChanged, this, [this] {
    if (filling_) return;
    windowEdited_ = true;
    changed();
  });
  connect(blocks_, &AttentionBlocksEditor::edited, this, &AttentionPlanForm::changed);
  connect(softmaxBlocks_, &QLineEdit::textEdited, this, &AttentionPlanForm::changed);
  connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) changed();
  });
}

AttentionPlanForm::Form AttentionPlanForm::form() const {
  return static_cast<Form>(form_->currentIndex());
}

void AttentionPlanForm::setDepth(int depth) {
  depth_ = std::max(0, depth);
  if (depth_ > 0) blocks_->setDepth(depth_);
  updateSummary();
}

void AttentionPlanForm::setAttention(const QJsonValue& attention) {
  filling_ = true;
  const QJsonObject a = attention.toObject();
  const QJsonValue window = a.value(QStringLiteral("window"));
  window_->setValue(window.isDouble() ? window.toInt(3) : 3);
  windowEdited_ = false;

  const QJsonArray listed = a.value(QStringLiteral("blocks")).toArray();
  QStringList modes;
  for (const auto& v : listed) modes << planFieldText(v);
  blocks_->setDepth(depth_ > 0 ? depth_ : int(modes.size()));
  blocks_->setModes(modes);

  const QJsonValue softmax = a.value(QStringLiteral("softmax_blocks"));
  QStringList indices;
  if (softmax.isArray())
    for (const auto& v : softmax.toArray()) indices << planFieldText(v);
  else if (!softmax.isUndefined())
    indices << planFieldText(softmax);
  softmaxBlocks_->setText(indices.join(QStringLiteral(", ")));

  const QJsonValue mode = a.value(QStringLiteral("mode"));
  int index = mode.isUndefined() ? 0 : mode_->findData(planFieldText(mode));
  if (index < 0) {  // a name the engine will refuse: shown as it is
    mode_->addItem(planFieldText(mode), planFieldText(mode));
    index = mode_->count() - 1;
  }
  mode_->setCurrentIndex(index);

  const Form form =
      a.contains(QStringLiteral("blocks")) ? PerBlock
      : a.contains(QStringLiteral("softmax_blocks")) || a.contains(QStringLiteral("mode"))
          ? SoftmaxBlocks
          : MethodDefault;
  form_->setCurrentIndex(form);
  updateVisibility();
  updateSummary();
  filling_ = false;
}

QJsonObject AttentionPlanForm::applyTo(const QJsonObject& previous) const {
  QJsonObject a = previous;
  const QString blocks = QStringLiteral("blocks"), softmax = QStringLiteral("softmax_blocks"),
                mode = QStringLiteral("mode");
  switch (form()) {
    case MethodDefault:
      a.remove(blocks);
      a.remove(softmax);
      a.remove(mode);
      break;
    case PerBlock:
      a.remove(softmax);
      a.remove(mode);
      if (blocks_->depth() > 0) a.insert(blocks, QJsonArray::fromStringList(blocks_->modes()));
      break;
    case SoftmaxBlocks: {
      a.remove(blocks);
      const QJsonArray indices = parseBlockList(softmaxBlocks_->text());
      if (indices.isEmpty())
        a.remove(softmax);
      else
        a.insert(softmax, indices);
      const QString chosen = mode_->currentData().toString();
      if (chosen.isEmpty())
        a.remove(mode);
      else
        a.insert(mode, chosen);
      break;
    }
  }
  if (windowEdited_) a.insert(QStringLiteral("window"), window_->value());
  return a;
}

// A new form starts from what the one before showed: the softmax blocks and the others' mode
// become the blocks' modes, and back.
void AttentionPlanForm::onFormChosen() {
  filling_ = true;
  const Form before = shown_;
  if (form() == PerBlock && before == SoftmaxBlocks && blocks_->depth() > 0 &&
      (!softmaxBlocks_->text().trimmed().isEmpty() || !mode_->currentData().toString().isEmpty())) {
    const QString others = mode_->currentData().toString();
    QStringList modes(blocks_->depth(),
                      others.isEmpty() ? attentionModeName(AttentionMode::Linear) : others);
    for (const auto& v : parseBlockList(softmaxBlocks_->text())) {
      const qint64 b = v.toInteger(-1);
      if (b >= 0 && b < modes.size()) modes[int(b)] = attentionModeName(AttentionMode::Softmax);
    }
    blocks_->setModes(modes);
  } else if (form() == SoftmaxBlocks && before == PerBlock &&
             softmaxBlocks_->text().trimmed().isEmpty()) {
    QStringList indices, others;
    const QStringList modes = blocks_->modes();
    for (int b = 0; b < modes.size(); ++b) {
      if (modes[b] == attentionModeName(AttentionMode::Softmax))
        indices << QString::number(b);
      else if (!others.contains(modes[b]))
        others << modes[b];
    }
    // Only a plan with softmax blocks is carried over: all-linear blocks are the method's too.
    if (!indices.isEmpty()) {
      softmaxBlocks_->setText(indices.join(QStringLiteral(", ")));
      if (others.size() == 1 && mode_->findData(others.first()) >= 0)
        mode_->setCurrentIndex(mode_->findData(others.first()));
    }
  }
  filling_ = false;
  updateVisibility();
  changed();
}

void AttentionPlanForm::updateVisibility() {
  shown_ = form();
  perBlockRow_->setVisible(form() == PerBlock);
  softmaxRow_->setVisible(form() == SoftmaxBlocks);
}

void AttentionPlanForm::updateSummary() {
  const QStringList modes = blocks_->modes();
  if (modes.isEmpty()) {
    summary_->setText(
        tr("The model's depth is not known here (it comes from the teacher's "
           "weights): choose a model preset to set each block."));
    return;
  }
  QStringList parts;
  for (const QString& name : attentionModeNames())
    if (const int n = int(modes.count(name)); n > 0)
      parts << QStringLiteral("%1 %2").arg(n).arg(name);
  summary_->setText(
      tr("%n block(s): %1", "", int(modes.size())).arg(parts.join(QStringLiteral(" · "))));
}

void AttentionPlanForm::changed() {
  if (filling_) return;
  updateSummary();
  emit edited();
}

QWidget* AttentionPlanForm::widgetFor(const QString& field) const {
  const QString root = QStringLiteral("attention");
  if (field != root && !field.startsWith(root + QLatin1Char('.')) &&
      !field.startsWith(root + QLatin1Char('[')))
    return nullptr;
  const QString rest = field.mid(root.size() + 1);
  if (rest == QLatin1String("window")) return window_;
  if (rest == QLatin1String("mode")) return mode_;
  if (rest.startsWith(QLatin1String("softmax_blocks"))) return softmaxBlocks_;
  if (rest.startsWith(QLatin1String("blocks"))) {
    static const QRegularExpression element(QStringLiteral("^blocks\\[(\\d+)\\]"));
    const auto m = element.match(rest);
    if (m.hasMatch())
      if (QWidget* button = blocks_->blockButton(m.captured(1).toInt())) return button;
    return blocks_;
  }
  return form_;
}

void AttentionPlanForm::showProblem(const QString& field, const QString& reason) {
  QWidget* bad = field.isEmpty() ? nullptr : widgetFor(field);
  if (bad && !bad->isVisibleTo(this)) bad = form_;  // a field of the form not shown
  for (QWidget* w : {static_cast<QWidget*>(form_), static_cast<QWidget*>(window_),
                     static_cast<QWidget*>(softmaxBlocks_), static_cast<QWidget*>(mode_)})
    markPlanField(w, w == bad, reason);
  int block = -2;
  if (bad == blocks_) block = -1;
  for (int b = 0; b < blocks_->depth(); ++b)
    if (bad == blocks_->blockButton(b)) block = b;
  blocks_->markProblem(block);
  message_->setText(bad ? tr("⚠ %1: %2").arg(field, reason) : QString());
  message_->setVisible(bad != nullptr);
}

QString AttentionPlanForm::problemText() const { return message_->text(); }

}  // namespace adala::widgets
