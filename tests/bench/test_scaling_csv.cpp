// The scaling benchmark's CSV (engine/bench/scaling_csv.h): RFC 4180 quoting both ways,
// round trips of every column, older column names, and errors that name file, line and column.
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "engine/measure/rate_range.h"
#include "engine/bench/scaling_csv.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_scaling_csv {

using namespace adala;

namespace {

std::vector<CsvRecord> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_csv(in, "t.csv");
}

std::vector<ScalingCsvRow> read(const std::string& text) {
  std::istringstream in(text);
  return read_scaling_csv(in, "t.csv");
}

// The message of the ScalingCsvError that reading text throws ("" when none is thrown).
std::string read_error(const std::string& text) {
  try {
    read(text);
  } catch (const ScalingCsvError& e) {
    return e.what();
  }
  return "";
}

std::string header() {
  std::string h;
  for (const auto& c : scaling_csv_columns()) h += (h.empty() ? "" : ",") + c;
  return h + "\n";
}

ScalingCsvRow full_row() {
  ScalingCsvRow r;
  r.preset = "vit_small";
  r.resolution = 448;
  r.tokens = 785;
  r.mode = "softmax-chunked";
  r.chunk = 64;
  r.batch = 2;
  r.gmacs_model = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
  r.gmacs_attention_only = 4.6;
  r.gmacs_measured = 17.1;
  r.gflops_model_2x = 34.4;
  r.ran = true;
  r.note = "ok, \"fast\"\nsecond line";
  r.ms_per_img = 1.0 / 3.0;
  r.timed_runs = 3;
  r.imgs_per_s = 3.0;
  r.peak_rss_mb = 1e-7;
  r.peak_alloc_mb = 123456789.125;
  r.train_ran = true;
  r.train_note = ",";
  r.train_ms = 250;
  r.train_timed_runs = 1;
  r.train_peak_rss_mb = 0;
  r.train_peak_alloc_mb = 80.5;
  r.rounds = 3;
  r.ms_per_img_min = 0.25;
  r.ms_per_img_max = 0.5;
  r.peak_rss_mb_min = 0;
  r.peak_rss_mb_max = 2e-7;
  r.train_ms_min = 240.5;
  r.train_ms_max = 260;
  r.load_1m = 5.82;
  r.matmul_gflops_min = 95.5;
  r.matmul_gflops_max = 120.25;
  r.unsteady = true;
  r.train_rounds = 2;
  return r;
}

// Exact on purpose: the CSV writes each real as its shortest round-trip text and reads it back
// with from_chars, so a round trip must give the same bits (NaN, "not measured", as NaN).
bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::equal_to<double>()(a, b);
}

bool same(const ScalingCsvRow& a, const ScalingCsvRow& b) {
  return a.preset == b.preset && a.resolution == b.resolution && a.tokens == b.tokens &&
         a.mode == b.mode && a.chunk == b.chunk && a.batch == b.batch &&
         same(a.gmacs_model, b.gmacs_model) &&
         same(a.gmacs_attention_only, b.gmacs_attention_only) &&
         same(a.gmacs_measured, b.gmacs_measured) && same(a.gflops_model_2x, b.gflops_model_2x) &&
         a.ran == b.ran && a.note == b.note && same(a.ms_per_img, b.ms_per_img) &&
         a.timed_runs == b.timed_runs && same(a.imgs_per_s, b.imgs_per_s) &&
         same(a.peak_rss_mb, b.peak_rss_mb) && same(a.peak_alloc_mb, b.peak_alloc_mb) &&
         a.train_ran == b.train_ran && a.train_note == b.train_note &&
         same(a.train_ms, b.train_ms) && a.train_timed_runs == b.train_timed_runs &&
         same(a.train_peak_rss_mb, b.train_peak_rss_mb) &&
         same(a.train_peak_alloc_mb, b.train_peak_alloc_mb) && a.rounds == b.rounds &&
         same(a.ms_per_img_min, b.ms_per_img_min) && same(a.ms_per_img_max, b.ms_per_img_max) &&
         same(a.peak_rss_mb_min, b.peak_rss_mb_min) && same(a.peak_rss_mb_max, b.peak_rss_mb_max) &&
         same(a.train_ms_min, b.train_ms_min) && same(a.train_ms_max, b.train_ms_max) &&
         same(a.load_1m, b.load_1m) && same(a.matmul_gflops_min, b.matmul_gflops_min) &&
         same(a.matmul_gflops_max, b.matmul_gflops_max) && a.unsteady == b.unsteady &&
         a.train_rounds == b.train_rounds;
}

}  // namespace

class TestScalingCsv : public QObject {
  Q_OBJECT
 private slots:
  void quoting_only_where_needed() {
    QCOMPARE(csv_quote("plain text"), std::string("plain text"));
    QCOMPARE(csv_quote(""), std::string(""));
    QCOMPARE(csv_quote("a,b"), std::string("\"a,b\""));
    QCOMPARE(csv_quote("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(csv_quote("two\nlines"), std::string("\"two\nlines\""));
    QCOMPARE(csv_quote("cr\r"), std::string("\"cr\r\""));
    QCOMPARE(csv_quote("\""), std::string("\"\"\"\""));
  }

  void parser_reads_rfc_4180() {
    const auto records = parse(
        "a,\"b,c\",\"d \"\"e\"\"\"\r\n"
        "\n"
        "\"multi\nline\",,\"\"\n"
        "\"\"\n"
        "last,row");  // no line end at the end
    QCOMPARE(records.size(), size_t(4));
    QCOMPARE(records[0].fields, (std::vector<std::string>{"a", "b,c", "d \"e\""}));
    QCOMPARE(records[0].line, 1);
    QCOMPARE(records[1].fields, (std::vector<std::string>{"multi\nline", "", ""}));
    QCOMPARE(records[1].line, 3);  // the blank line 2 is no record
    QCOMPARE(records[2].fields, (std::vector<std::string>{""}));
    QCOMPARE(records[2].line, 5);
    QCOMPARE(records[3].fields, (std::vector<std::string>{"last", "row"}));
    QCOMPARE(records[3].line, 6);
    QCOMPARE(parse("x,\n")[0].fields, (std::vector<std::string>{"x", ""}));
    QCOMPARE(parse("\xEF\xBB\xBFid\n")[0].fields, (std::vector<std::string>{"id"}));
  }

  void parser_errors_name_line_and_column() {
    const auto error_of = [](const std::string& text) -> std::string {
      try {
        parse(text);
      } catch (const ScalingCsvError& e) {
        return e.what();
      }
      return "";
    };
    QCOMPARE(error_of("a,b\nc,d\"e\n"),
             std::string("t.csv, line 2, column 2: a quote inside an unquoted field (quote the "
                         "whole field)"));
    QCOMPARE(error_of("a\n\"b\"x,c\n"),
             std::string("t.csv, line 2, column 1: text after the closing quote"));
    QCOMPARE(error_of("a,b\n1,\"open\nstill open\n"),
             std::string("t.csv, line 2, column 2: a quoted field is never closed"));
  }

  void every_column_round_trips() {
    std::vector<ScalingCsvRow> rows = {full_row(), ScalingCsvRow{}};
    rows[1].resolution = 2048;
    rows[1].mode = "softmax";
    rows[1].ran = false;
    rows[1].note = "skipped: needs ~26.1 GB (\"8.0 GB\", available), sorry";
    std::ostringstream out;
    write_scaling_csv(out, rows);
    const auto back = read(out.str());
    QCOMPARE(back.size(), rows.size());
    QVERIFY(same(back[0], rows[0]));
    QVERIFY(same(back[1], rows[1]));
    ADALA_COMPARE_EXACT(back[0].gmacs_model, 0.1 + 0.2);  // all 17 digits written and read back
    QVERIFY(std::isnan(back[1].ms_per_img));
    QCOMPARE(back[1].tokens, int64_t(-1));
    // The empty fields of a row that knows only resolution, mode and note.
    QVERIFY2(out.str().find("\n,2048,,softmax,,,,,,,0,\"skipped: needs ~26.1 GB (\"\"8.0 GB\"\", "
                            "available), sorry\",,,,,,0,,,,,,,,,,,,,,,,0,\n") != std::string::npos,
             out.str().c_str());
  }

  void save_and_load_a_file() {
    const auto dir = std::filesystem::path(ADALA_TEST_TMP) / "scaling-csv";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "points.csv").string();
    save_scaling_csv(path, {full_row()});
    QVERIFY(!std::filesystem::exists(path + ".partial"));
    const auto back = load_scaling_csv(path);
    QCOMPARE(back.size(), size_t(1));
    QVERIFY(same(back[0], full_row()));
    try {
      load_scaling_csv((dir / "missing.csv").string());
      QFAIL("a missing file was read");
    } catch (const ScalingCsvError& e) {
      QVERIFY2(std::string(e.what()).find("cannot read") != std::string::npos, e.what());
    }
    QVERIFY_EXCEPTION_THROWN(save_scaling_csv((dir / "no-such-dir" / "x.csv").string(), {}),
                             ScalingCsvError);
  }

  void columns_by_name_any_order_and_older_names() {
    const auto rows = read(
        "mode, resolution ,extra,gflops,peak_mb,gflops_attention_only,note\n"
        "linear,224,ignored,4.3,60,1.2,\n");
    QCOMPARE(rows.size(), size_t(1));
    QCOMPARE(rows[0].mode, std::string("linear"));
    QCOMPARE(rows[0].resolution, int64_t(224));
    // from_chars and the compiler both round the same decimal text to the nearest double.
    ADALA_COMPARE_EXACT(rows[0].gmacs_model, 4.3);
    ADALA_COMPARE_EXACT(rows[0].peak_rss_mb, 60.0);
    ADALA_COMPARE_EXACT(rows[0].gmacs_attention_only, 1.2);
    QVERIFY(rows[0].ran);  // no ran column: it ran
    QVERIFY(std::isnan(rows[0].ms_per_img));
  }

  void fields_are_range_checked() {
    const std::string h = "preset,resolution,mode,tokens,ms_per_img,ran\n";
    QCOMPARE(read_error(h + "s,224,linear,197,abc,1\n"),
             std::string("t.csv, line 2, column 5 (ms_per_img): \"abc\" is not a number"));
    QCOMPARE(read_error(h + "s,224,linear,197,-1,1\n"),
             std::string("t.csv, line 2, column 5 (ms_per_img): -1 is out of range (a finite "
                         "number >= 0)"));
    QCOMPARE(read_error(h + "s,224,linear,197,inf,1\n"),
             std::string("t.csv, line 2, column 5 (ms_per_img): inf is out of range (a finite "
                         "number >= 0)"));
    QCOMPARE(read_error(h + "s,0,linear,197,1,1\n"),
             std::string("t.csv, line 2, column 2 (resolution): 0 is out of range (1 to 65536)"));
    QCOMPARE(read_error(h + "s,224.5,linear,197,1,1\n"),
             std::string("t.csv, line 2, column 2 (resolution): \"224.5\" is not an integer"));
    QCOMPARE(read_error(h + "s,,linear,197,1,1\n"),
             std::string("t.csv, line 2, column 2 (resolution): a resolution is required"));
    QCOMPARE(read_error(h + "s,224,,197,1,1\n"),
             std::string("t.csv, line 2, column 3 (mode): a mode is required"));
    QCOMPARE(read_error(h + "s,224,linear,99999999999999999999,1,1\n"),
             std::string("t.csv, line 2, column 4 (tokens): 99999999999999999999 is out of range "
                         "(0 to 1099511627776)"));
    QCOMPARE(read_error(h + "s,224,linear,197,1,yes\n"),
             std::string("t.csv, line 2, column 6 (ran): \"yes\" is not 0 or 1"));
    // A quoted note over two lines: the next record's line number counts both.
    QCOMPARE(read_error("mode,note,resolution\nlinear,\"a\nb\",224\nlinear,x,oops\n"),
             std::string("t.csv, line 4, column 3 (resolution): \"oops\" is not an integer"));
  }

  // The spread columns: a file without them (written before they were) reads as "no spread";
  // a spread must hold its median, and its numbers are checked as every number is.
  void spread_columns_are_checked() {
    const auto older = read("resolution,mode,ms_per_img,peak_rss_mb,rounds\n224,linear,10,50,3\n");
    QCOMPARE(older.size(), size_t(1));
    ADALA_COMPARE_EXACT(older[0].ms_per_img, 10.0);  // a whole number read from the text
    QVERIFY(std::isnan(older[0].ms_per_img_min) && std::isnan(older[0].ms_per_img_max));
    QVERIFY(std::isnan(older[0].peak_rss_mb_min) && std::isnan(older[0].load_1m));

    const std::string h =
        "resolution,mode,ms_per_img,ms_per_img_min,ms_per_img_max,peak_rss_mb,peak_rss_mb_min,"
        "peak_rss_mb_max,train_ms,train_ms_min,train_ms_max,load_1m\n";
    const auto good = read(h + "224,linear,10,9,12,50,50,50,30,29,31,0\n");
    // Whole numbers read from the text: exact.
    ADALA_COMPARE_EXACT(good[0].ms_per_img_min, 9.0);
    ADALA_COMPARE_EXACT(good[0].ms_per_img_max, 12.0);
    ADALA_COMPARE_EXACT(good[0].peak_rss_mb_max, 50.0);
    ADALA_COMPARE_EXACT(good[0].train_ms_min, 29.0);
    ADALA_COMPARE_EXACT(good[0].load_1m, 0.0);
    // Only one end known, or no median: nothing to compare it with.
    ADALA_COMPARE_EXACT(read(h + "224,linear,,9,,,,,,,,\n")[0].ms_per_img_min, 9.0);
    // min above the median
    QCOMPARE(read_error(h + "224,linear,10,11,12,,,,,,,\n"),
             std::string("t.csv, line 2, column 4 (ms_per_img_min): 11 is above ms_per_img (10)"));
    // max below the median
    QCOMPARE(read_error(h + "224,linear,10,9,9.5,,,,,,,\n"),
             std::string("t.csv, line 2, column 5 (ms_per_img_max): 9.5 is below ms_per_img (10)"));
    // min above max (no median to compare with)
    QCOMPARE(read_error(h + "224,linear,,12,11,,,,,,,\n"),
             std::string("t.csv, line 2, column 4 (ms_per_img_min): 12 is above ms_per_img_max "
                         "(11)"));
    QCOMPARE(read_error(h + "224,linear,,,,50,51,52,,,,\n"),
             std::string("t.csv, line 2, column 7 (peak_rss_mb_min): 51 is above peak_rss_mb "
                         "(50)"));
    QCOMPARE(read_error(h + "224,linear,,,,,,,30,31,32,\n"),
             std::string("t.csv, line 2, column 10 (train_ms_min): 31 is above train_ms (30)"));
    QCOMPARE(read_error(h + "224,linear,,,,,,,30,20,25,\n"),
             std::string("t.csv, line 2, column 11 (train_ms_max): 25 is below train_ms (30)"));
    // negative
    QCOMPARE(read_error(h + "224,linear,10,-1,12,,,,,,,\n"),
             std::string("t.csv, line 2, column 4 (ms_per_img_min): -1 is out of range (a "
                         "finite number >= 0)"));
    QCOMPARE(read_error(h + "224,linear,,,,,,,,,,-0.5\n"),
             std::string("t.csv, line 2, column 12 (load_1m): -0.5 is out of range (a finite "
                         "number >= 0)"));
    // not finite
    QCOMPARE(read_error(h + "224,linear,10,9,inf,,,,,,,\n"),
             std::string("t.csv, line 2, column 5 (ms_per_img_max): inf is out of range (a "
                         "finite number >= 0)"));
    QCOMPARE(read_error(h + "224,linear,10,nan,12,,,,,,,\n"),
             std::string("t.csv, line 2, column 4 (ms_per_img_min): nan is out of range (a "
                         "finite number >= 0)"));
    QCOMPARE(read_error(h + "224,linear,,,,,,,,,,1e400\n"),
             std::string("t.csv, line 2, column 12 (load_1m): \"1e400\" is not a number"));
  }

  // The reference matmul's rate: min and max read back as written, min above max refused, an
  // older file without the columns reads as no rate and not unsteady.
  void rate_columns_round_trip_and_are_checked() {
    const auto older = read("resolution,mode\n224,linear\n");
    QVERIFY(std::isnan(older[0].matmul_gflops_min) && std::isnan(older[0].matmul_gflops_max));
    QVERIFY(!older[0].unsteady);
    QCOMPARE(older[0].train_rounds, int64_t(-1));
    const std::string h =
        "resolution,mode,matmul_gflops_min,matmul_gflops_max,unsteady,train_rounds\n";
    const auto good = read(h + "224,linear,100,126,1,3\n");
    // Whole numbers read from the text: exact.
    ADALA_COMPARE_EXACT(good[0].matmul_gflops_min, 100.0);
    ADALA_COMPARE_EXACT(good[0].matmul_gflops_max, 126.0);
    QVERIFY(good[0].unsteady);
    QCOMPARE(good[0].train_rounds, int64_t(3));
    QCOMPARE(read_error(h + "224,linear,130,126,1,3\n"),
             std::string("t.csv, line 2, column 3 (matmul_gflops_min): 130 is above "
                         "matmul_gflops_max (126)"));
    QCOMPARE(read_error(h + "224,linear,100,126,yes,3\n"),
             std::string("t.csv, line 2, column 5 (unsteady): \"yes\" is not 0 or 1"));
  }

  // The flag: a run is unsteady when its fastest reading is more than 25 % above its slowest.
  void rate_range_flags_a_move_above_a_quarter() {
    RateRange steady;
    QVERIFY(steady.empty() && !steady.unsteady());
    QCOMPARE(rate_range_text(steady), std::string("-"));
    QCOMPARE(rate_range_cell(steady), std::string("-"));
    for (double r : {110.0, 100.0, 124.0, 105.0}) steady.add(r);
    steady.add(std::nan(""));  // failed readings are ignored
    steady.add(0);
    steady.add(-5);
    // min / max copy the readings: exact.
    ADALA_COMPARE_EXACT(steady.lo, 100.0);
    ADALA_COMPARE_EXACT(steady.hi, 124.0);
    QVERIFY(std::abs(steady.moved() - 0.24) < 1e-12);
    QVERIFY(!steady.unsteady());
    QCOMPARE(unsteady_rate_text(steady), std::string());
    QCOMPARE(rate_range_cell(steady), std::string("100-124"));

    RateRange moved = steady;
    moved.add(126.0);
    QVERIFY(std::abs(moved.moved() - 0.26) < 1e-12);
    QVERIFY(moved.unsteady());
    QCOMPARE(unsteady_rate_text(moved),
             std::string("unsteady: matmul rate moved 26 % (100.0-126.0 GFLOP/s)"));
    QCOMPARE(rate_range_cell(moved), std::string("100-126!"));
    RateRange just_above;  // a whole number would read "25 %"
    just_above.add(100.0);
    just_above.add(125.1);
    QCOMPARE(unsteady_rate_text(just_above),
             std::string("unsteady: matmul rate moved 25.1 % (100.0-125.1 GFLOP/s)"));

    // Two points' ranges merge into the run's.
    RateRange a, b;
    a.add(200);
    a.add(210);
    b.add(150);
    QVERIFY(!a.unsteady() && !b.unsteady());
    a.merge(b);
    a.merge(RateRange{});
    // min / max copy the readings: exact.
    ADALA_COMPARE_EXACT(a.lo, 150.0);
    ADALA_COMPARE_EXACT(a.hi, 210.0);
    QVERIFY(a.unsteady());  // 40 %
  }

  // One row as (column, field) pairs and back: what the benchmark's point event carries.
  void fields_round_trip_with_the_same_checks() {
    const auto fields = scaling_csv_fields(full_row());
    QCOMPARE(fields.size(), scaling_csv_columns().size());
    QCOMPARE(fields.front(), (std::pair<std::string, std::string>("preset", "vit_small")));
    QVERIFY(same(scaling_csv_row_from_fields(fields, "event"), full_row()));
    auto bad = fields;
    for (auto& [name, text] : bad)
      if (name == "ms_per_img_max") text = "0.1";  // below the median 1/3
    try {
      scaling_csv_row_from_fields(bad, "event");
      QFAIL("a spread below its median was read");
    } catch (const ScalingCsvError& e) {
      QVERIFY2(std::string(e.what()).find("(ms_per_img_max): 0.1 is below ms_per_img") !=
                   std::string::npos,
               e.what());
    }
  }

  void file_level_errors() {
    QCOMPARE(read_error(""), std::string("t.csv is empty"));
    QVERIFY(read_error("a,b\n1,2\n").find("t.csv is not a scaling benchmark CSV") == 0);
    QCOMPARE(read_error("resolution,mode\n224\n"),
             std::string("t.csv, line 2: 1 fields, the header has 2"));
    QCOMPARE(read_error("resolution,mode,gflops,gmacs_model\n"),
             std::string("t.csv, line 1, column 4: column \"gmacs_model\" appears twice (also "
                         "column 3)"));
    QVERIFY(read(header()).empty());  // a header alone: no points, no error
  }
};

ADALA_TEST_GUILESS_MAIN(TestScalingCsv)
}  // namespace test_scaling_csv

#include "test_scaling_csv.moc"
