#pragma once
// The scaling benchmark's CSV (`adala bench scaling --csv`, the workbench's Export CSV…):
// one column schema, one writer and one reader. Plain C++, no LibTorch, so the widgets read it
// too. Fields follow RFC 4180: separated by commas, quoted when they hold a comma, a quote or
// a line break, quotes doubled. Numbers are written as the shortest text that reads back as
// the same value; an empty field is a value that was not measured.
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace adala {

// A file that cannot be read or written, or a field that is not what its column holds. The
// message names the file, and where it applies the line and the column.
class ScalingCsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One point, in the file's units: GMACs (1 multiply-add = 1 FLOP, per image), MB (1e6
// bytes), milliseconds. NaN and -1 stand for an empty field.
struct ScalingCsvRow {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string preset, mode;
  int64_t resolution = 0;  // square input side, pixels (required)
  int64_t tokens = -1, chunk = -1, batch = -1;
  double gmacs_model = kNone, gmacs_attention_only = kNone, gmacs_measured = kNone;
  double gflops_model_2x = kNone;
  bool ran = true;  // an empty field reads as 1
  std::string note;
  double ms_per_img = kNone, imgs_per_s = kNone, peak_rss_mb = kNone, peak_alloc_mb = kNone;
  int64_t timed_runs = -1;
  bool train_ran = false;
  std::string train_note;
  double train_ms = kNone, train_peak_rss_mb = kNone, train_peak_alloc_mb = kNone;
  int64_t train_timed_runs = -1;
  int64_t rounds = -1, train_rounds = -1;
  // The spread of each measured point (empty in files written before it was recorded: no
  // spread known): the fastest and slowest single timed run over all rounds (ms_per_img, the
  // median, lies between them), the lowest and highest round's peak RSS, the fastest and
  // slowest training step; and the highest 1-minute load average read before its runs.
  double ms_per_img_min = kNone, ms_per_img_max = kNone;
  double peak_rss_mb_min = kNone, peak_rss_mb_max = kNone;
  double train_ms_min = kNone, train_ms_max = kNone;
  double load_1m = kNone;
  // The reference matmul's rate read before and after each of the point's measurements
  // (rate_range.h), GFLOP/s, and whether it moved by more than kUnsteadyRateMove over them
  // (empty in files written before the probe: no rate known, not flagged).
  double matmul_gflops_min = kNone, matmul_gflops_max = kNone;
  bool unsteady = false;
};

// The columns, in the order the writer puts them.
const std::vector<std::string>& scaling_csv_columns();

// Limits the reader checks (inclusive).
constexpr int64_t kScalingCsvMaxResolution = 1 << 16;

void write_scaling_csv(std::ostream& out, const std::vector<ScalingCsvRow>& rows);
// Writes beside `path` and renames over it, so a reader never sees half a file.
void save_scaling_csv(const std::string& path, const std::vector<ScalingCsvRow>& rows);

// Reads by the header's column names (any order; unknown columns are ignored; older files'
// gflops, gflops_attention_only and peak_mb are read as gmacs_model, gmacs_attention_only and
// peak_rss_mb). `resolution` and `mode` are required. A spread must hold its median: a min
// above the median or the max, a max below the median, is an error (as is a negative or
// non-finite number in any column, and a matmul rate minimum above its maximum). `source`
// names the input in errors.
std::vector<ScalingCsvRow> read_scaling_csv(std::istream& in, const std::string& source);
std::vector<ScalingCsvRow> load_scaling_csv(const std::string& path);

// One row as (column, field text) pairs, the fields as the writer puts them in a file, and
// back with the reader's checks (the `point` event of `adala bench scaling --progress jsonl`
// carries a point this way). Throws ScalingCsvError naming `source` and the column.
std::vector<std::pair<std::string, std::string>> scaling_csv_fields(const ScalingCsvRow& row);
ScalingCsvRow scaling_csv_row_from_fields(
    const std::vector<std::pair<std::string, std::string>>& fields, const std::string& source);

// RFC 4180 pieces, shared by the writer and the reader (and tested on their own).
std::string csv_quote(const std::string& field);  // quoted only where needed
struct CsvRecord {
  int line = 0;  // where the record starts, 1-based
  std::vector<std::string> fields;
};
// Every record (CRLF or LF line ends; a blank line is no record). Throws ScalingCsvError for a
// quote inside an unquoted field, text after a closing quote or a quote never closed.
std::vector<CsvRecord> parse_csv(std::istream& in, const std::string& source);

}  // namespace adala
