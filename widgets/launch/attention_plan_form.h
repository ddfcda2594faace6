#pragma once
// The launcher's "Attention plan" field: the document's "attention" object
// (engine/train/config/attention_plan_config.cpp), in one of three forms:
//   the method's   no "blocks", "softmax_blocks" or "mode": every block runs the method's
//                  attention (linear; window+linear for lolcats)
//   per block      "blocks": one mode per block (AttentionBlocksEditor, depth from the model)
//   softmax blocks "softmax_blocks": [0, 5] typed as "0, 5", and "mode" for the other blocks
//                  (left out: the method's)
// and the window's k ("window", written once the box is changed or when the document has it).
// Keys the form does not own are kept. A problem the engine finds in an "attention" field is
// marked on its widget and shown under the field.
#include <QJsonObject>
#include <QString>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;

namespace adala::widgets {

class AttentionBlocksEditor;
class OddSpinBox;

class AttentionPlanForm : public QWidget {
  Q_OBJECT
 public:
  enum Form { MethodDefault = 0, PerBlock = 1, SoftmaxBlocks = 2 };

  explicit AttentionPlanForm(QWidget* parent = nullptr);

  // The model's blocks (0: not known, e.g. deduced from the teacher's weights). No edited().
  void setDepth(int depth);
  int depth() const { return depth_; }
  // Fills the form from a document's "attention" value (no edited() signal).
  void setAttention(const QJsonValue& attention);
  // `previous` with the form's fields applied.
  QJsonObject applyTo(const QJsonObject& previous) const;

  // The widget that shows a dotted "attention" field ("attention.blocks[3]", ...), or nullptr.
  QWidget* widgetFor(const QString& field) const;
  // Marks the field's widget and shows the reason under the field; an empty field clears.
  void showProblem(const QString& field, const QString& reason);
  QString problemText() const;

  Form form() const;
  QComboBox* formCombo() const { return form_; }
  AttentionBlocksEditor* blocksEditor() const { return blocks_; }
  QLineEdit* softmaxBlocksEdit() const { return softmaxBlocks_; }
  QComboBox* modeCombo() const { return mode_; }
  OddSpinBox* windowBox() const { return window_; }

 signals:
  void edited();

 private:
  QWidget* buildPerBlockRow();
  QWidget* buildSoftmaxRow();
  QHBoxLayout* buildWindowRow();
  void connectControls();
  void onFormChosen();
  void updateVisibility();
  void updateSummary();
  void changed();

  QComboBox* form_ = nullptr;
  OddSpinBox* window_ = nullptr;
  QWidget* perBlockRow_ = nullptr;
  AttentionBlocksEditor* blocks_ = nullptr;
  QLabel* summary_ = nullptr;
  QWidget* softmaxRow_ = nullptr;
  QLineEdit* softmaxBlocks_ = nullptr;
  QComboBox* mode_ = nullptr;
  QLabel* message_ = nullptr;
  int depth_ = 0;
  Form shown_ = MethodDefault;  // the form shown before the combo changed
  bool windowEdited_ = false;
  bool filling_ = false;
};

}  // namespace adala::widgets
