// The run list's sort arrow points the way the list runs (▲ ascending, ▼ descending): read
// from the header's own pixels, as a person sees it.
#include <QApplication>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QStyleFactory>
#include <QTreeView>
#include <QtTest/QtTest>

#include "widgets/common/sort_arrow_style.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_sort_arrow {

namespace {

enum class Arrow { None, Up, Down };

// The arrow in `section` of the header image: dark pixels counted per row; an up arrow is
// widest at its bottom row, a down arrow at its top row.
Arrow arrowIn(const QImage& image, const QRect& section) {
  const QColor background = image.pixelColor(section.left() + 2, section.top() + 2);
  std::vector<int> widths;
  // The arrow sits right of the label: look at the section's right third only.
  const int left = section.left() + section.width() * 2 / 3, right = section.right() - 1;
  for (int y = section.top(); y <= section.bottom(); ++y) {
    int dark = 0;
    for (int x = left; x < right; ++x)
      if (image.pixelColor(x, y).lightness() < background.lightness() - 60) ++dark;
    // Rows dark across the whole span are the header's border, not the arrow.
    if (dark > 0 && dark < (right - left) / 2) widths.push_back(dark);
  }
  if (widths.size() < 2) return Arrow::None;
  if (widths.front() > widths.back()) return Arrow::Down;
  if (widths.back() > widths.front()) return Arrow::Up;
  return Arrow::None;
}

}  // namespace

class TestGuiSortArrow : public QObject {
  Q_OBJECT
 private slots:
  void the_arrow_follows_the_order() {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QStandardItemModel model(3, 2);
    // An empty label: only the arrow is dark in the section.
    model.setHorizontalHeaderLabels({QString(), QString()});
    QTreeView view;
    view.setModel(&model);
    view.setSortingEnabled(true);
    view.header()->resizeSection(0, 120);
    adala::widgets::useSortArrowsThatFollowTheOrder(view.header());
    view.resize(300, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto section = [&] {
      return QRect(view.header()->sectionViewportPosition(0), 0, view.header()->sectionSize(0),
                   view.header()->height());
    };
    view.sortByColumn(0, Qt::DescendingOrder);
    QCOMPARE(int(arrowIn(view.header()->grab().toImage(), section())), int(Arrow::Down));
    view.sortByColumn(0, Qt::AscendingOrder);
    QCOMPARE(int(arrowIn(view.header()->grab().toImage(), section())), int(Arrow::Up));
  }
};

ADALA_TEST_MAIN(TestGuiSortArrow)
}  // namespace test_gui_sort_arrow

#include "test_gui_sort_arrow.moc"
