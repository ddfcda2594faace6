#pragma once
// A student's attention chosen block by block: one small toggle per block showing its mode's
// letter (S softmax, L linear, W window+linear: engine/model/attention_mode.h's strip), in
// rows of 12; a click or Space moves a block to the next mode. The launcher's plan field and
// the Scaling tab's form use it, with the spin box for the window's k (odd, >= 1).
#include <QSpinBox>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "engine/model/attention_mode.h"

class QGridLayout;
class QLabel;
class QToolButton;

namespace adala::widgets {

// The attention modes' names, in the engine's order: softmax, linear, window+linear.
const QStringList& attentionModeNames();
// One mode's name (engine/model/attention_mode.h), as the experiment document spells it.
QString attentionModeName(AttentionMode mode);

class AttentionBlocksEditor : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kPerRow = 12;

  explicit AttentionBlocksEditor(QWidget* parent = nullptr);

  // Blocks that remain keep their modes; new ones are "linear". No edited() signal.
  void setDepth(int depth);
  int depth() const { return static_cast<int>(modes_.size()); }
  // One name per block (a name the engine does not know is kept and shown as "?"); entries
  // past the depth are dropped, missing ones are "linear". No edited() signal.
  void setModes(const QStringList& modes);
  QStringList modes() const { return modes_; }
  QToolButton* blockButton(int block) const;
  // Marks one block (or, with -1, the whole strip) as the field a problem names; -2 clears.
  void markProblem(int block);
  // Tab goes from `before` through the blocks to `after` (kept as the blocks change).
  void setTabNeighbours(QWidget* before, QWidget* after);

 signals:
  void edited();

 private:
  void rebuild();
  void updateButton(int block);

  QGridLayout* grid_ = nullptr;
  QVector<QToolButton*> buttons_;
  QVector<QLabel*> rowLabels_;
  QStringList modes_;
  QWidget* tabBefore_ = nullptr;
  QWidget* tabAfter_ = nullptr;
  int badBlock_ = -2;
};

// The k of a k x k window: odd, from 1. An even number typed is not accepted (the next odd
// one replaces it when the field is left); the arrows step by 2.
class OddSpinBox : public QSpinBox {
  Q_OBJECT
 public:
  explicit OddSpinBox(QWidget* parent = nullptr);

 protected:
  QValidator::State validate(QString& text, int& pos) const override;
  void fixup(QString& input) const override;
};

}  // namespace adala::widgets
