#pragma once
// The launcher's "data" block: where each stage's images come from (fashion-mnist,
// image-folder or image-list; a folder picked or a path typed), how many, at what input side
// (per stage: data.<row>.res), and the loader's
// decode threads and bad-image policy. One source serves all stages unless "Other source per
// stage" is ticked. A problem the engine finds in a data field is shown next to its row.
//
// How the form writes the document's "data" object (keys it does not own are kept):
//   one Fashion-MNIST source     the shorthand: root, train_limit, test_limit, alignment_limit
//   anything else                data.train {source, root, limit, res}; data.eval and
//                                data.alignment when they differ (their own source, a limit,
//                                a side, or Fashion-MNIST's test split for evaluation)
#include <QJsonObject>
#include <QString>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QToolButton;

namespace adala::widgets {

class DataSourceForm : public QWidget {
  Q_OBJECT
 public:
  enum Row { Train = 0, Eval = 1, Alignment = 2 };
  static constexpr int kRows = 3;

  explicit DataSourceForm(QWidget* parent = nullptr);

  // Fills the form from a document's "data" object (no edited() signal).
  void setData(const QJsonObject& data);
  // `previous` with the form's fields applied.
  QJsonObject applyTo(const QJsonObject& previous) const;

  // The widget that shows a dotted data field ("data.train.root", "data.test_limit", ...),
  // or nullptr.
  QWidget* widgetFor(const QString& field) const;
  // Marks the field's widget and shows the reason next to its row; an empty field clears.
  void showProblem(const QString& field, const QString& reason);
  QString problemText(int row) const;  // the message shown under a row ("" when none)

  QCheckBox* perStageCheck() const { return perStage_; }
  QComboBox* sourceCombo(int row) const { return source_[row]; }
  QLineEdit* pathEdit(int row) const { return path_[row]; }
  QToolButton* browseButton(int row) const { return browse_[row]; }
  QLineEdit* limitEdit(int row) const { return limit_[row]; }
  QLineEdit* resEdit(int row) const { return res_[row]; }
  QLineEdit* decodeThreadsEdit() const { return threads_; }
  QComboBox* badImageCombo() const { return badImage_; }

 signals:
  void edited();

 private:
  void addSourceRow(QGridLayout* grid, int r, const QString& labelText, const QString& tip);
  void addLoaderRows(QGridLayout* grid, int line);
  void browse(int row);
  void mirrorTrain();
  void updateRows();
  void changed();
  int rowOf(const QString& field) const;  // 0..2, 3 = loader settings, -1 none
  QString sourceOf(int row) const;
  QString pathOf(int row) const;

  QCheckBox* perStage_ = nullptr;
  QComboBox* source_[kRows] = {};
  QLineEdit* path_[kRows] = {};
  QToolButton* browse_[kRows] = {};
  QLineEdit* limit_[kRows] = {};
  QLineEdit* res_[kRows] = {};
  QLabel* message_[kRows + 1] = {};
  QLineEdit* threads_ = nullptr;
  QComboBox* badImage_ = nullptr;
  QString pathKey_[kRows];  // "root", or "list" when the document gave a list file
  bool filling_ = false;
};

}  // namespace adala::widgets
