#pragma once
// How the report writes numbers, dates and file sizes for its language, without Qt. The
// application fills it from a QLocale (app/report_render/qt_report.h: report_locale), so the
// output is what QLocale writes; the defaults are English with "," grouping.
#include <cstdint>
#include <functional>
#include <string>

namespace adala::report {

struct ReportLocale {
  std::string name = "en";  // BCP-47, e.g. "en", "ko" (the HTML's lang)
  std::string decimal = ".";
  std::string group = ",";  // "" = no grouping
  std::string percent = "%";
  std::string minus = "-";
  std::string exponential = "e";
  // A UTC time (milliseconds since the epoch) as a short local date and time. Default:
  // "2024-05-01 14:00" in the process's time zone.
  std::function<std::string(int64_t)> datetime;
  // A file size ("2.0 KB"). Default: bytes below 1024, else KB/MB/GB with one decimal.
  std::function<std::string(int64_t)> data_size;
};

// QLocale::toString(value, 'f' | 'e', precision) and toString(qint64).
std::string to_fixed(const ReportLocale& locale, double value, int decimals);
std::string to_exponent(const ReportLocale& locale, double value, int decimals);
std::string to_integer(const ReportLocale& locale, int64_t value);

// Locale-aware formatting used by the document builder (exposed for the tests).
std::string format_number(const ReportLocale& locale, double value, int significant = 4);
std::string format_percent(const ReportLocale& locale, double fraction, int decimals = 2);
std::string format_duration(const ReportLocale& locale, double seconds);
std::string format_datetime(const ReportLocale& locale, int64_t utc_msecs);
std::string format_data_size(const ReportLocale& locale, int64_t bytes);

}  // namespace adala::report
