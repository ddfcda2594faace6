#include "engine/report/report_locale.h"

#include <fmt/format.h>

#include <cmath>
#include <ctime>

#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"

namespace adala::report {

namespace {

std::string grouped(const std::string& digits, const std::string& group) {
  if (group.empty() || digits.size() <= 3) return digits;
  std::string out;
  const size_t first = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out += digits.substr(0, first);
  for (size_t i = first; i < digits.size(); i += 3) out += group + digits.substr(i, 3);
  return out;
}

// "-1234.50" (printf) -> the locale's signs, grouping and decimal point.
std::string localized(const ReportLocale& locale, const std::string& c_text) {
  std::string text = c_text;
  std::string sign;
  if (!text.empty() && text[0] == '-') {
    sign = locale.minus;
    text.erase(0, 1);
  }
  const size_t point = text.find('.');
  std::string whole = point == std::string::npos ? text : text.substr(0, point);
  std::string rest =
      point == std::string::npos ? std::string() : locale.decimal + text.substr(point + 1);
  return sign + grouped(whole, locale.group) + rest;
}

// The exact decimal expansion of |value| ("%.1100f" / "%.1100e" print every digit a double
// has), rounded to `decimals` places with ties away from zero, as QLocale (double-conversion)
// rounds; printf would round ties to even.
std::string rounded(const std::string& exact, int decimals, bool* carried_out) {
  const size_t point = exact.find('.');
  std::string whole = exact.substr(0, point);
  std::string fraction = point == std::string::npos ? std::string() : exact.substr(point + 1);
  const bool up = size_t(decimals) < fraction.size() && fraction[size_t(decimals)] >= '5';
  fraction.resize(size_t(decimals), '0');
  std::string digits = whole + fraction;
  *carried_out = false;
  if (up) {
    size_t i = digits.size();
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i == 0) {
      digits.insert(digits.begin(), '1');
      *carried_out = true;
    } else {
      ++digits[i - 1];
    }
  }
  const size_t whole_digits = digits.size() - size_t(decimals);
  return decimals > 0 ? digits.substr(0, whole_digits) + "." + digits.substr(whole_digits) : digits;
}

}  // namespace

std::string to_fixed(const ReportLocale& locale, double value, int decimals) {
  // Every digit of the double (exact, as QLocale rounds), then rounded half-up to `decimals`.
  const std::string exact = fmt::format("{:.1100f}", std::abs(value));
  bool carried = false;
  const std::string text = rounded(exact, decimals, &carried);
  return localized(locale,
                   (value < 0 ? "-" : "") + text);  // -0.001 -> "-0.00", as QLocale writes it
}

std::string to_exponent(const ReportLocale& locale, double value, int decimals) {
  const std::string text = fmt::format("{:.1100e}", std::abs(value));
  const size_t e = text.find('e');
  int exponent = std::stoi(text.substr(e + 1));
  bool carried = false;
  std::string mantissa = rounded(text.substr(0, e), decimals, &carried);
  if (carried) {  // 9.99 -> 10.0: one digit before the point again
    mantissa.erase(mantissa.size() - 1);
    if (decimals > 0) std::swap(mantissa[1], mantissa[2]);
    ++exponent;
  }
  const std::string exponent_digits = zero_padded(std::abs(exponent), 2);
  return localized(locale, (value < 0 ? "-" : "") + mantissa) + locale.exponential +
         (exponent < 0 ? locale.minus : "+") + exponent_digits;
}

std::string to_integer(const ReportLocale& locale, int64_t value) {
  const std::string digits =
      std::to_string(value < 0 ? -(value + 1) + uint64_t(1) : uint64_t(value));
  return (value < 0 ? locale.minus : std::string()) + grouped(digits, locale.group);
}

std::string format_number(const ReportLocale& locale, double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "∞" : "−∞");
  const double a = std::abs(value);
  if (a != 0 && (a < 1e-3 || a >= 1e6)) return to_exponent(locale, value, significant - 1);
  // Fixed notation with `significant` significant digits, trailing zeros kept short.
  const int digits_before = a >= 1 ? int(std::floor(std::log10(a))) + 1 : 0;
  int decimals = std::max(0, significant - digits_before);
  if (a < 1 && a > 0) decimals = significant - 1 - int(std::floor(std::log10(a)));
  return to_fixed(locale, value, std::min(decimals, 8));
}

std::string format_percent(const ReportLocale& locale, double fraction, int decimals) {
  if (!std::isfinite(fraction)) return {};
  return to_fixed(locale, 100.0 * fraction, decimals) + locale.percent;
}

std::string format_duration(const ReportLocale& locale, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return {};
  if (seconds < 60)
    return arg(AdalaReport::tr("%1 s"), {to_fixed(locale, seconds, seconds < 10 ? 2 : 1)});
  const int64_t total = int64_t(std::llround(seconds));
  const int64_t h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  if (h == 0) return arg(AdalaReport::tr("%1 min %2 s"), {std::to_string(m), zero_padded(s, 2)});
  return arg(AdalaReport::tr("%1 h %2 min"), {to_integer(locale, h), zero_padded(m, 2)});
}

std::string format_datetime(const ReportLocale& locale, int64_t utc_msecs) {
  if (locale.datetime) return locale.datetime(utc_msecs);
  const std::time_t t = std::time_t(utc_msecs / 1000);
  std::tm local{};
  localtime_r(&t, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", &local);
  return buffer;
}

std::string format_data_size(const ReportLocale& locale, int64_t bytes) {
  if (locale.data_size) return locale.data_size(bytes);
  if (bytes < 1024 && bytes > -1024) return to_integer(locale, bytes) + " bytes";
  static const char* units[] = {"KB", "MB", "GB", "TB", "PB", "EB"};
  double v = double(bytes);
  int unit = -1;
  while (std::abs(v) >= 1024 && unit < 5) {
    v /= 1024;
    ++unit;
  }
  return to_fixed(locale, v, 1) + " " + units[unit];
}

}  // namespace adala::report
