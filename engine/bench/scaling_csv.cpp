#include "engine/bench/scaling_csv.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

namespace adala {

namespace {

using Row = ScalingCsvRow;

// A field's text is not what its column holds; the caller adds where.
struct FieldError {
  std::string message;
};

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

int64_t parse_integer(const std::string& text, int64_t min, int64_t max) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool whole = end == text.data() + text.size();
  if (ec == std::errc::invalid_argument || !whole)
    throw FieldError{fmt::format("\"{}\" is not an integer", text)};
  if (ec == std::errc::result_out_of_range || value < min || value > max)
    throw FieldError{fmt::format("{} is out of range ({} to {})", text, min, max)};
  return value;
}

double parse_real(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw FieldError{fmt::format("\"{}\" is not a number", text)};
  if (!std::isfinite(value) || value < 0)
    throw FieldError{fmt::format("{} is out of range (a finite number >= 0)", text)};
  return value;
}

// Shortest text that reads back as the same double; empty for "not measured".
std::string real_text(double value) { return std::isnan(value) ? "" : fmt::format("{}", value); }

struct Column {
  std::string name;
  std::function<std::string(const Row&)> write;
  std::function<void(Row&, const std::string&)> read;  // the field, trimmed unless text
};

Column text_column(const char* name, std::string Row::*member, bool trim) {
  return {
      name, [member](const Row& r) { return r.*member; },
      [member, trim](Row& r, const std::string& text) { r.*member = trim ? trimmed(text) : text; }};
}

Column integer_column(const char* name, int64_t Row::*member, int64_t min, int64_t max) {
  return {
      name,
      [member](const Row& r) { return r.*member < 0 ? std::string() : std::to_string(r.*member); },
      [member, min, max](Row& r, const std::string& text) {
        r.*member = text.empty() ? -1 : parse_integer(text, min, max);
      }};
}

Column real_column(const char* name, double Row::*member) {
  return {name, [member](const Row& r) { return real_text(r.*member); },
          [member](Row& r, const std::string& text) {
            r.*member = text.empty() ? Row::kNone : parse_real(text);
          }};
}

Column flag_column(const char* name, bool Row::*member, bool when_empty) {
  return {name, [member](const Row& r) { return std::string(r.*member ? "1" : "0"); },
          [member, when_empty](Row& r, const std::string& text) {
            if (text.empty()) {
              r.*member = when_empty;
            } else if (text == "0" || text == "1") {
              r.*member = text == "1";
            } else {
              throw FieldError{fmt::format("\"{}\" is not 0 or 1", text)};
            }
          }};
}

const std::vector<Column>& columns() {
  constexpr int64_t kMaxCount = int64_t(1) << 40;
  static const std::vector<Column> table = {
      text_column("preset", &Row::preset, true),
      integer_column("resolution", &Row::resolution, 1, kScalingCsvMaxResolution),
      integer_column("tokens", &Row::tokens, 0, kMaxCount),
      text_column("mode", &Row::mode, true),
      integer_column("chunk", &Row::chunk, 0, kMaxCount),
      integer_column("batch", &Row::batch, 1, kMaxCount),
      real_column("gmacs_model", &Row::gmacs_model),
      real_column("gmacs_attention_only", &Row::gmacs_attention_only),
      real_column("gmacs_measured", &Row::gmacs_measured),
      real_column("gflops_model_2x", &Row::gflops_model_2x),
      flag_column("ran", &Row::ran, true),
      text_column("note", &Row::note, false),
      real_column("ms_per_img", &Row::ms_per_img),
      integer_column("timed_runs", &Row::timed_runs, 0, kMaxCount),
      real_column("imgs_per_s", &Row::imgs_per_s),
      real_column("peak_rss_mb", &Row::peak_rss_mb),
      real_column("peak_alloc_mb", &Row::peak_alloc_mb),
      flag_column("train_ran", &Row::train_ran, false),
      text_column("train_note", &Row::train_note, false),
      real_column("train_ms", &Row::train_ms),
      integer_column("train_timed_runs", &Row::train_timed_runs, 0, kMaxCount),
      real_column("train_peak_rss_mb", &Row::train_peak_rss_mb),
      real_column("train_peak_alloc_mb", &Row::train_peak_alloc_mb),
      integer_column("rounds", &Row::rounds, 0, kMaxCount),
      real_column("ms_per_img_min", &Row::ms_per_img_min),
      real_column("ms_per_img_max", &Row::ms_per_img_max),
      real_column("peak_rss_mb_min", &Row::peak_rss_mb_min),
      real_column("peak_rss_mb_max", &Row::peak_rss_mb_max),
      real_column("train_ms_min", &Row::train_ms_min),
      real_column("train_ms_max", &Row::train_ms_max),
      real_column("load_1m", &Row::load_1m),
      real_column("matmul_gflops_min", &Row::matmul_gflops_min),
      real_column("matmul_gflops_max", &Row::matmul_gflops_max),
      flag_column("unsteady", &Row::unsteady, false),
      integer_column("train_rounds", &Row::train_rounds, 0, kMaxCount),
  };
  return table;
}

// Older spellings (the workbench's first exports) and the column they mean.
const std::map<std::string, std::string>& column_aliases() {
  static const std::map<std::string, std::string> aliases = {
      {"gflops", "gmacs_model"},
      {"gflops_attention_only", "gmacs_attention_only"},
      {"peak_mb", "peak_rss_mb"}};
  return aliases;
}

}  // namespace

const std::vector<std::string>& scaling_csv_columns() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& c : columns()) n.push_back(c.name);
    return n;
  }();
  return names;
}

std::string csv_quote(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<CsvRecord> parse_csv(std::istream& in, const std::string& source) {
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a UTF-8 byte order mark
  const size_t n = text.size();
  const auto line_end = [&](size_t at) { return text[at] == '\n' || text[at] == '\r'; };
  // Past one line end (LF, CRLF or CR).
  const auto skip_line_end = [&](size_t at) {
    return at + ((text[at] == '\r' && at + 1 < n && text[at + 1] == '\n') ? 2 : 1);
  };
  std::vector<CsvRecord> records;
  size_t i = 0;
  int line = 1;
  while (i < n) {
    if (line_end(i)) {  // a blank line: no record
      i = skip_line_end(i);
      ++line;
      continue;
    }
    CsvRecord record;
    record.line = line;
    const auto fail = [&](int at_line, const std::string& what) {
      throw ScalingCsvError(fmt::format("{}, line {}, column {}: {}", source, at_line,
                                        record.fields.size() + 1, what));
    };
    for (;;) {  // one field per pass
      std::string field;
      if (i < n && text[i] == '"') {
        const int opened = line;
        for (++i;;) {
          if (i >= n) fail(opened, "a quoted field is never closed");
          if (text[i] == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i++];
        }
        if (i < n && text[i] != ',' && !line_end(i)) fail(line, "text after the closing quote");
      } else {
        for (; i < n && text[i] != ',' && !line_end(i); ++i) {
          if (text[i] == '"')
            fail(line, "a quote inside an unquoted field (quote the whole field)");
          field += text[i];
        }
      }
      record.fields.push_back(std::move(field));
      if (i < n && text[i] == ',') {
        ++i;
        continue;
      }
      break;  // a line end or the end of the text
    }
    if (i < n) {
      i = skip_line_end(i);
      ++line;
    }
    records.push_back(std::move(record));
  }
  return records;
}

void write_scaling_csv(std::ostream& out, const std::vector<ScalingCsvRow>& rows) {
  std::string text;
  for (const auto& c : columns()) text += (text.empty() ? "" : ",") + c.name;
  text += '\n';
  for (const auto& row : rows) {
    bool first = true;
    for (const auto& c : columns()) {
      if (!first) text += ',';
      first = false;
      text += csv_quote(c.write(row));
    }
    text += '\n';
  }
  out << text;
}

void save_scaling_csv(const std::string& path, const std::vector<ScalingCsvRow>& rows) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw ScalingCsvError("cannot write " + path);
    write_scaling_csv(out, rows);
    out.flush();
    if (!out) {
      std::remove(partial.c_str());
      throw ScalingCsvError("error writing " + path);
    }
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    throw ScalingCsvError("cannot write " + path);
  }
}

namespace {

// A spread (min, median, max) that does not hold its median; the first column at fault and
// why, or "" when it holds. Empty fields (NaN) are not compared.
struct SpreadFault {
  std::string column, message;
};
SpreadFault spread_fault(const Row& row) {
  struct Spread {
    const char *min_name, *median_name, *max_name;
    double min, median, max;
  };
  const Spread spreads[] = {{"ms_per_img_min", "ms_per_img", "ms_per_img_max", row.ms_per_img_min,
                             row.ms_per_img, row.ms_per_img_max},
                            {"peak_rss_mb_min", "peak_rss_mb", "peak_rss_mb_max",
                             row.peak_rss_mb_min, row.peak_rss_mb, row.peak_rss_mb_max},
                            {"train_ms_min", "train_ms", "train_ms_max", row.train_ms_min,
                             row.train_ms, row.train_ms_max}};
  for (const auto& s : spreads) {
    if (s.min > s.median)
      return {s.min_name, fmt::format("{} is above {} ({})", real_text(s.min), s.median_name,
                                      real_text(s.median))};
    if (s.max < s.median)
      return {s.max_name, fmt::format("{} is below {} ({})", real_text(s.max), s.median_name,
                                      real_text(s.median))};
    if (s.min > s.max)
      return {s.min_name,
              fmt::format("{} is above {} ({})", real_text(s.min), s.max_name, real_text(s.max))};
  }
  if (row.matmul_gflops_min > row.matmul_gflops_max)
    return {"matmul_gflops_min",
            fmt::format("{} is above matmul_gflops_max ({})", real_text(row.matmul_gflops_min),
                        real_text(row.matmul_gflops_max))};
  return {};
}

std::vector<ScalingCsvRow> rows_of(const std::vector<CsvRecord>& records,
                                   const std::string& source) {
  const CsvRecord& header = records.front();
  // Column of the file -> column of the schema (-1: ignored).
  std::vector<int> schema_of(header.fields.size(), -1);
  std::map<std::string, size_t> seen;
  for (size_t f = 0; f < header.fields.size(); ++f) {
    std::string name = trimmed(header.fields[f]);
    if (auto alias = column_aliases().find(name); alias != column_aliases().end())
      name = alias->second;
    for (size_t c = 0; c < columns().size(); ++c) {
      if (columns()[c].name != name) continue;
      if (seen.count(name))
        throw ScalingCsvError(
            fmt::format("{}, line {}, column {}: column \"{}\" appears twice (also column {})",
                        source, header.line, f + 1, name, seen[name] + 1));
      seen[name] = f;
      schema_of[f] = static_cast<int>(c);
    }
  }
  if (!seen.count("resolution") || !seen.count("mode"))
    throw ScalingCsvError(source +
                          " is not a scaling benchmark CSV (it has no \"resolution\" and \"mode\" "
                          "columns; write one with adala bench scaling --csv FILE)");
  std::vector<ScalingCsvRow> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    if (record.fields.size() != header.fields.size())
      throw ScalingCsvError(fmt::format("{}, line {}: {} fields, the header has {}", source,
                                        record.line, record.fields.size(), header.fields.size()));
    ScalingCsvRow row;
    for (size_t f = 0; f < record.fields.size(); ++f) {
      if (schema_of[f] < 0) continue;
      const Column& column = columns()[static_cast<size_t>(schema_of[f])];
      try {
        const bool text = column.name == "note" || column.name == "train_note";
        column.read(row, text ? record.fields[f] : trimmed(record.fields[f]));
        if (column.name == "resolution" && row.resolution < 0)
          throw FieldError{"a resolution is required"};
        if (column.name == "mode" && row.mode.empty()) throw FieldError{"a mode is required"};
      } catch (const FieldError& e) {
        throw ScalingCsvError(fmt::format("{}, line {}, column {} ({}): {}", source, record.line,
                                          f + 1, column.name, e.message));
      }
    }
    if (const SpreadFault fault = spread_fault(row); !fault.column.empty()) {
      const auto at = seen.find(fault.column);
      throw ScalingCsvError(fmt::format("{}, line {}, column {} ({}): {}", source, record.line,
                                        at == seen.end() ? 0 : at->second + 1, fault.column,
                                        fault.message));
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::vector<ScalingCsvRow> read_scaling_csv(std::istream& in, const std::string& source) {
  const std::vector<CsvRecord> records = parse_csv(in, source);
  if (records.empty()) throw ScalingCsvError(source + " is empty");
  return rows_of(records, source);
}

std::vector<std::pair<std::string, std::string>> scaling_csv_fields(const ScalingCsvRow& row) {
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& c : columns()) fields.emplace_back(c.name, c.write(row));
  return fields;
}

ScalingCsvRow scaling_csv_row_from_fields(
    const std::vector<std::pair<std::string, std::string>>& fields, const std::string& source) {
  std::vector<CsvRecord> records(2);
  records[0].line = records[1].line = 1;
  for (const auto& [name, text] : fields) {
    records[0].fields.push_back(name);
    records[1].fields.push_back(text);
  }
  return rows_of(records, source).front();
}

std::vector<ScalingCsvRow> load_scaling_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScalingCsvError("cannot read " + path);
  return read_scaling_csv(in, path);
}

}  // namespace adala
