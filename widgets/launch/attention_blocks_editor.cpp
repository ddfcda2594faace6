#include "widgets/launch/attention_blocks_editor.h"

#include <QColor>
#include <QGridLayout>
#include <QLabel>
#include <QToolButton>

#include <algorithm>

#include "engine/model/attention_mode.h"
#include "widgets/common/plot_style.h"

namespace adala::widgets {

QString attentionModeName(AttentionMode mode) { return QString::fromLatin1(to_string(mode)); }

const QStringList& attentionModeNames() {
  static const QStringList names = [] {
    QStringList out;
    for (const auto& m : kAttentionModes) out << QString::fromLatin1(m.name);
    return out;
  }();
  return names;
}

namespace {

// The mode's colour of the plots, a third of it over white: the letter stays readable.
QColor tint(const QString& mode) {
  const QColor c = attentionModeNames().contains(mode) ? modeColor(mode) : QColor(Qt::gray);
  return QColor((c.red() + 2 * 255) / 3, (c.green() + 2 * 255) / 3, (c.blue() + 2 * 255) / 3);
}

QString letterOf(const QString& mode) {
  for (const auto& m : kAttentionModes)
    if (mode == QLatin1String(m.name)) return QString(QLatin1Char(m.letter));
  return QStringLiteral("?");
}

}  // namespace

AttentionBlocksEditor::AttentionBlocksEditor(QWidget* parent) : QWidget(parent) {
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(2);
  grid_->setVerticalSpacing(2);
}

void AttentionBlocksEditor::setDepth(int depth) {
  depth = std::max(0, depth);
  if (depth == this->depth()) return;
  while (modes_.size() > depth) modes_.removeLast();
  while (modes_.size() < depth) modes_ << attentionModeName(AttentionMode::Linear);
  rebuild();
}

void AttentionBlocksEditor::setModes(const QStringList& modes) {
  for (int b = 0; b < depth(); ++b) {
    modes_[b] = b < modes.size() ? modes[b] : attentionModeName(AttentionMode::Linear);
    updateButton(b);
  }
}

QToolButton* AttentionBlocksEditor::blockButton(int block) const {
  return block >= 0 && block < buttons_.size() ? buttons_[block] : nullptr;
}

void AttentionBlocksEditor::markProblem(int block) {
  const int before = badBlock_;
  badBlock_ = block;
  for (int b = 0; b < depth(); ++b)
    if (b == before || b == block || before == -1 || block == -1) updateButton(b);
}

void AttentionBlocksEditor::rebuild() {
  for (auto* b : buttons_) delete b;
  for (auto* l : rowLabels_) delete l;
  buttons_.clear();
  rowLabels_.clear();
  for (int b = 0; b < depth(); ++b) {
    const int row = b / kPerRow, column = b % kPerRow;
    if (column == 0) {
      // The first block of the row: "0", "12", ...
      auto* label = new QLabel(QString::number(b), this);
      label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
      label->setMinimumWidth(label->fontMetrics().horizontalAdvance(QStringLiteral("000")));
      label->setEnabled(false);  // drawn muted: a guide, not a field
      grid_->addWidget(label, row, 0);
      rowLabels_ << label;
    }
    auto* button = new QToolButton(this);
    button->setFocusPolicy(Qt::StrongFocus);
    button->setAutoRaise(false);
    button->setFixedSize(26, 24);
    grid_->addWidget(button, row, 1 + column);
    connect(button, &QToolButton::clicked, this, [this, b] {
      const int at = attentionModeNames().indexOf(modes_[b]);
      modes_[b] = attentionModeNames()[(at + 1) % attentionModeNames().size()];
      updateButton(b);
      emit edited();
    });
    buttons_ << button;
    updateButton(b);
  }
  grid_->setColumnStretch(kPerRow + 1, 1);
  setTabNeighbours(tabBefore_, tabAfter_);
}

void AttentionBlocksEditor::setTabNeighbours(QWidget* before, QWidget* after) {
  tabBefore_ = before;
  tabAfter_ = after;
  QWidget* last = before;
  for (QToolButton* button : buttons_) {
    if (last) setTabOrder(last, button);
    last = button;
  }
  if (last && after && last != after) setTabOrder(last, after);
}

void AttentionBlocksEditor::updateButton(int b) {
  QToolButton* button = blockButton(b);
  if (!button) return;
  const QString& mode = modes_[b];
  const bool bad = badBlock_ == b || badBlock_ == -1;
  button->setText(letterOf(mode));
  button->setAccessibleName(tr("Attention of block %1").arg(b));
  button->setAccessibleDescription(mode);
  button->setToolTip(tr("Block %1: %2. Click (or Space) for the next attention: softmax → "
                        "linear → window+linear.")
                         .arg(b)
                         .arg(mode));
  button->setProperty("mode", mode);
  button->setProperty("invalid", bad);
  button->setStyleSheet(
      QStringLiteral("QToolButton { background: %1; color: black; border: %2; "
                     "border-radius: 3px; font-weight: bold; }"
                     "QToolButton:focus { border: 2px solid palette(highlight); }")
          .arg(tint(mode).name(),
               bad ? QStringLiteral("2px solid #d62728") : QStringLiteral("1px solid #8c8c8c")));
}

OddSpinBox::OddSpinBox(QWidget* parent) : QSpinBox(parent) {
  setRange(1, 4095);
  setSingleStep(2);
  setValue(3);
}

QValidator::State OddSpinBox::validate(QString& text, int& pos) const {
  const QValidator::State state = QSpinBox::validate(text, pos);
  if (state != QValidator::Acceptable) return state;
  return valueFromText(text) % 2 == 1 ? QValidator::Acceptable : QValidator::Intermediate;
}

void OddSpinBox::fixup(QString& input) const {
  bool ok = false;
  const int v = input.trimmed().toInt(&ok);
  if (ok && v % 2 == 0) input = QString::number(std::min(maximum(), std::max(minimum(), v + 1)));
}

}  // namespace adala::widgets
