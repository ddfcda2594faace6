#pragma once
// Floating-point comparisons in the suites say how close is close enough.
//
// QCOMPARE on two doubles asks for agreement to about 1e-12 relative (qFuzzyCompare), on two
// floats to about 1e-5: neither is a statement about the code under test. Two code paths that
// compute the same quantity (a LibTorch op and a hand-written loop, or the same op under another
// OpenBLAS kernel: Haswell, SkylakeX, ... and another ATen CPU capability) agree only to what
// their rounding allows, and which last bits they land on differs from one processor to the
// next. So every test executable includes this header in its precompiled header
// (tests/CMakeLists.txt) and QCOMPARE / QTRY_COMPARE refuse floating-point operands at compile
// time. Instead a suite says which comparison it means:
//
//   ADALA_COMPARE_NEAR(actual, expected, tolerance)  |actual - expected| <= tolerance, with the
//                                                    tolerance's reason beside it (ulps of the
//                                                    result, or a bound from the operation)
//   ADALA_COMPARE_EXACT(actual, expected)            the same bits by construction: a value read
//                                                    back from where it was written, a constant
//                                                    passed through, a count held in a double
//
// `==` / `!=` on floating-point values in test code is a compile error too (-Wfloat-equal,
// tests/CMakeLists.txt) for the same reason.
#include <QtTest/QtTest>

#include <array>
#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace adala::test {

// Whether T is, or holds, a floating-point number (a vector, list, pair or optional of them).
template <class T>
struct holds_floating : std::is_floating_point<T> {};
template <class T, class A>
struct holds_floating<std::vector<T, A>> : holds_floating<T> {};
template <class T, std::size_t N>
struct holds_floating<std::array<T, N>> : holds_floating<T> {};
template <class T>
struct holds_floating<QList<T>> : holds_floating<T> {};
template <class T>
struct holds_floating<std::optional<T>> : holds_floating<T> {};
template <class A, class B>
struct holds_floating<std::pair<A, B>>
    : std::bool_constant<holds_floating<A>::value || holds_floating<B>::value> {};
template <class T>
inline constexpr bool holds_floating_v =
    holds_floating<std::remove_cv_t<std::remove_reference_t<T>>>::value;

// QTest::qCompare's report, with both values and the tolerance at full precision.
inline bool compare_near(double actual, double expected, double tolerance, const char* actual_text,
                         const char* expected_text, const char* file, int line) {
  const double diff = std::abs(actual - expected);
  // NaN fails: diff <= tolerance is false.
  if (diff <= tolerance) return QTest::qVerify(true, "", "", file, line);
  const QByteArray message = QStringLiteral(
                                 "Compared values differ by more than the tolerance.\n"
                                 "   Actual   (%1): %2\n   Expected (%3): %4\n"
                                 "   |difference| %5 > tolerance %6")
                                 .arg(QString::fromUtf8(actual_text))
                                 .arg(actual, 0, 'g', 17)
                                 .arg(QString::fromUtf8(expected_text))
                                 .arg(expected, 0, 'g', 17)
                                 .arg(diff, 0, 'g', 3)
                                 .arg(tolerance, 0, 'g', 3)
                                 .toUtf8();
  QTest::qFail(message.constData(), file, line);
  return false;
}

// A value at full precision: a number, an optional one, or a container of them.
template <class T>
QString exact_text(const T& value) {
  if constexpr (std::is_arithmetic_v<T>) {
    return QString::number(static_cast<double>(value), 'g', 17);
  } else if constexpr (std::is_same_v<T, std::optional<typename T::value_type>>) {
    return value ? exact_text(*value) : QStringLiteral("nullopt");
  } else {
    QStringList parts;
    for (const auto& v : value) parts << exact_text(v);
    return QStringLiteral("{") + parts.join(QStringLiteral(", ")) + QStringLiteral("}");
  }
}

template <class A, class E>
bool compare_exact(const A& actual, const E& expected, const char* actual_text,
                   const char* expected_text, const char* file, int line) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfloat-equal"
#endif
  // The one place a test compares floating-point values for equality: the caller says that the
  // same bits flow through by construction. (QTest::qCompare would compare doubles fuzzily.)
  const bool same = actual == expected;
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  if (same) return QTest::qVerify(true, "", "", file, line);
  const QByteArray message = QStringLiteral(
                                 "Compared values are not the same bits.\n"
                                 "   Actual   (%1): %2\n   Expected (%3): %4")
                                 .arg(QString::fromUtf8(actual_text), exact_text(actual),
                                      QString::fromUtf8(expected_text), exact_text(expected))
                                 .toUtf8();
  QTest::qFail(message.constData(), file, line);
  return false;
}

}  // namespace adala::test

#define ADALA_COMPARE_NEAR(actual, expected, tolerance)                                          \
  do {                                                                                           \
    if (!adala::test::compare_near(static_cast<double>(actual), static_cast<double>(expected),   \
                                   static_cast<double>(tolerance), #actual, #expected, __FILE__, \
                                   __LINE__))                                                    \
      return;                                                                                    \
  } while (false)

#define ADALA_COMPARE_EXACT(actual, expected)                                                      \
  do {                                                                                             \
    if (!adala::test::compare_exact((actual), (expected), #actual, #expected, __FILE__, __LINE__)) \
      return;                                                                                      \
  } while (false)

#define ADALA_NOT_FLOATING_(actual, expected)                                               \
  static_assert(!adala::test::holds_floating_v<decltype(actual)> &&                         \
                    !adala::test::holds_floating_v<decltype(expected)>,                     \
                "QCOMPARE on floating-point values: use ADALA_COMPARE_NEAR "                \
                "with a stated tolerance, or ADALA_COMPARE_EXACT where the same bits flow " \
                "through by construction (tests/support/float_compare.h)")

#undef QCOMPARE
#define QCOMPARE(actual, expected)                                                          \
  do {                                                                                      \
    ADALA_NOT_FLOATING_(actual, expected);                                                  \
    if (!QTest::qCompare(actual, expected, #actual, #expected, __FILE__, __LINE__)) return; \
  } while (false)

#undef QTRY_COMPARE_WITH_TIMEOUT
#define QTRY_COMPARE_WITH_TIMEOUT(expr, expected, timeout) \
  do {                                                     \
    ADALA_NOT_FLOATING_(expr, expected);                   \
    QTRY_IMPL((expr) == (expected), timeout)               \
    QCOMPARE(expr, expected);                              \
  } while (false)
