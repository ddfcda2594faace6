// `adala runs ...` on a real database: the command's output (std::cout swapped for a
// buffer), its confirmation prompt (std::cin swapped) and its effect on the file.
#include <QtTest/QtTest>

#include <cmath>
#include <iostream>
#include <sstream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/json/json.h"
#include "engine/store/run_store.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_runs_command {

using adala::Json;
using adala::parse_json_strict;
using adala::cli::Args;
using adala::store::RunStatus;
using adala::store::RunStore;
using adala::store::StoreError;

namespace {

struct Outcome {
  int code = -1;
  std::string out;
};

// Runs `adala runs ARGS... --db PATH` with `input` on stdin.
Outcome run_command(Args args, const std::string& db, const std::string& input = "") {
  args.push_back("--db");
  args.push_back(db);
  std::ostringstream out;
  std::istringstream in(input);
  auto* saved_out = std::cout.rdbuf(out.rdbuf());
  auto* saved_in = std::cin.rdbuf(in.rdbuf());
  Outcome outcome;
  try {
    outcome.code = adala::cli::runs_command(args);
  } catch (...) {
    std::cout.rdbuf(saved_out);
    std::cin.rdbuf(saved_in);
    throw;
  }
  std::cout.rdbuf(saved_out);
  std::cin.rdbuf(saved_in);
  std::cin.clear();
  outcome.out = out.str();
  return outcome;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Two finished runs that differ in one config value and in their results.
std::string make_database(const std::string& dir) {
  const std::string path = dir + "/runs.sqlite";
  RunStore store(path);
  const double lrs[] = {0.001, 0.0003};
  for (int i = 0; i < 2; ++i) {
    const std::string config = R"({"depth":12,"stage2":{"lr":)" + std::to_string(lrs[i]) + "}}";
    const int64_t run = store.create_run(i == 0 ? "fast" : "slow", config, "cpu", "2.1.0", "0.1.0");
    store.set_run_status(run, RunStatus::Running);
    store.begin_stage(run, "stage2", 2, 3);
    for (int step = 0; step < 3; ++step) {
      store.add_metric(run, "stage2", step, "loss", -1, (i + 1) * (3 - step));
      store.add_metric(run, "stage2", step, "attn_mse", 0, 0.5);
      store.add_metric(run, "stage2", step, "attn_mse", 1, 1.5);
    }
    store.end_stage(run, "stage2", RunStatus::Done);
    store.add_evaluation(run, "stage3", "top1", 0.8 + i * 0.05);
    const std::string artifact = dir + "/run" + std::to_string(run) + ".ckpt";
    store_test::write_bytes(artifact, "weights");
    store.add_artifact(run, "checkpoint", artifact);
    store.set_run_status(run, RunStatus::Done);
  }
  store.add_metric(1, "stage2", 3, "loss", -1, std::nan(""));
  return path;
}

}  // namespace

class TestRunsCommand : public QObject {
  Q_OBJECT
 private slots:
  void list_shows_every_run() {
    const std::string db = make_database(store_test::fresh_dir("cli-list"));
    const Outcome outcome = run_command({"list"}, db);
    QCOMPARE(outcome.code, 0);
    QVERIFY2(contains(outcome.out, "fast") && contains(outcome.out, "slow"), outcome.out.c_str());
    QVERIFY2(contains(outcome.out, "done") && contains(outcome.out, "1/1"), outcome.out.c_str());
    QVERIFY(outcome.out.find("slow") < outcome.out.find("fast"));  // newest first
  }

  // A run killed in the first of its three stages has recorded one stage: the list counts the
  // stages it was started with (its folder's stages.json), not the one row.
  void list_counts_the_stages_a_run_was_started_with() {
    const std::string dir = store_test::fresh_dir("cli-planned");
    const std::string db = dir + "/runs.sqlite";
    const std::string folder = dir + "/run-a";
    std::filesystem::create_directories(folder);
    store_test::write_bytes(folder + "/stages.json", "[1,2,3]");
    {
      RunStore store(db);
      const int64_t run = store.create_run("killed", "{}", "cpu", "", "", "training", folder);
      store.set_run_status(run, RunStatus::Running);
      store.begin_stage(run, "attention_alignment", 1, 10);
      store.end_stage(run, "attention_alignment", RunStatus::Interrupted);
      store.set_run_status(run, RunStatus::Interrupted);
      // Its folder gone: what the database knows.
      const int64_t gone =
          store.create_run("gone", "{}", "cpu", "", "", "training", dir + "/missing");
      store.begin_stage(gone, "teacher", 0, 5);
      store.end_stage(gone, "teacher", RunStatus::Done);
    }
    const Outcome outcome = run_command({"list"}, db);
    QCOMPARE(outcome.code, 0);
    QVERIFY2(contains(outcome.out, "0/3") && !contains(outcome.out, "0/1"), outcome.out.c_str());
    QVERIFY2(contains(outcome.out, "1/1"), outcome.out.c_str());
  }

  // A benchmark run: KIND and a point count in the list, its points in `show` and `export`.
  void benchmark_runs_are_listed_shown_and_exported() {
    const std::string db = make_database(store_test::fresh_dir("cli-bench"));
    {
      RunStore store(db);
      const int64_t run =
          store.create_run("bench scaling vit_small 224-448px", R"({"benchmark":"scaling"})", "cpu",
                           "", "", "benchmark");
      adala::store::BenchmarkPoint p;
      p.benchmark = "scaling";
      p.preset = "vit_small";
      p.mode = "linear";
      p.resolution = 448;
      p.tokens = 785;
      p.gflops = 17.125;
      p.gflops_attention_only = 5.5;
      p.peak_mb = 96.25;
      p.ms_per_img = 123.5;
      p.imgs_per_s = 1000.0 / 123.5;
      adala::store::BenchmarkPoint skipped = p;
      skipped.mode = "softmax";
      skipped.ran = false;
      skipped.note = "skipped: needs ~9.1 GB (2.0 GB available)";
      skipped.peak_mb = skipped.ms_per_img = skipped.imgs_per_s = std::nan("");
      store.add_benchmark_points(run, {p, skipped});
      store.set_run_status(run, RunStatus::Done);
    }
    const Outcome listed = run_command({"list"}, db);
    QCOMPARE(listed.code, 0);
    for (const char* part : {"KIND", "benchmark", "2 points", "training", "1/1"})
      QVERIFY2(contains(listed.out, part), (std::string(part) + " in:\n" + listed.out).c_str());
    const Outcome only = run_command({"list", "--kind", "benchmark"}, db);
    QVERIFY2(contains(only.out, "bench scaling") && !contains(only.out, "fast"), only.out.c_str());

    const Outcome shown = run_command({"show", "3"}, db);
    QCOMPARE(shown.code, 0);
    for (const char* part : {"[done]  benchmark", "benchmark points (2", "vit_small", "448", "785",
                             "17.12", "5.50", "96.2", "123.50", "8.097", "skipped: needs ~9.1 GB"})
      QVERIFY2(contains(shown.out, part), (std::string(part) + " in:\n" + shown.out).c_str());

    const Outcome csv = run_command({"export", "3", "--format", "csv"}, db);
    QCOMPARE(csv.code, 0);
    QVERIFY2(contains(csv.out, "run_id,benchmark,preset,resolution,tokens,mode"), csv.out.c_str());
    QVERIFY2(contains(csv.out, "3,scaling,vit_small,448,785,linear,1,17.125,5.5,,96.25,,123.5,"),
             csv.out.c_str());
    QVERIFY2(
        contains(csv.out, "softmax,1,17.125,5.5,,,,,,0,skipped: needs ~9.1 GB (2.0 GB available)"),
        csv.out.c_str());
    const Json doc = parse_json_strict(run_command({"export", "3", "--format", "json"}, db).out);
    QCOMPARE(doc.at("run").at("kind").get<std::string>(), std::string("benchmark"));
    QCOMPARE(doc.at("benchmark_points").size(), size_t(2));
    // 123.5 stored as REAL, exported by Json at round-trip precision and parsed back.
    ADALA_COMPARE_EXACT(doc.at("benchmark_points")[0].at("ms_per_img").get<double>(), 123.5);
    QVERIFY(doc.at("benchmark_points")[1].at("ms_per_img").is_null());
  }

  void show_prints_stages_evaluations_metrics_artifacts() {
    const std::string db = make_database(store_test::fresh_dir("cli-show"));
    const Outcome outcome = run_command({"show", "fast"}, db);
    QCOMPARE(outcome.code, 0);
    for (const char* part : {"run 1  fast  [done]", "stage2", "stage3/top1", "0.8",
                             "stage2/attn_mse[mean]", "checkpoint", "\"depth\": 12"}) {
      QVERIFY2(contains(outcome.out, part), (std::string(part) + " in:\n" + outcome.out).c_str());
    }
  }

  void compare_lists_final_metrics_and_config_differences() {
    const std::string db = make_database(store_test::fresh_dir("cli-compare"));
    const Outcome outcome = run_command({"compare", "1", "2"}, db);
    QCOMPARE(outcome.code, 0);
    const std::string& out = outcome.out;
    QVERIFY2(contains(out, "run 1 fast") && contains(out, "run 2 slow"), out.c_str());
    const size_t config_at = out.find("config differences");
    QVERIFY(config_at != std::string::npos);
    const std::string config = out.substr(config_at);
    QVERIFY2(contains(config, "stage2.lr"), out.c_str());
    QVERIFY2(contains(config, "0.001") && contains(config, "0.0003"), out.c_str());
    QVERIFY2(!contains(config, "depth"), out.c_str());  // equal in both: not a difference
    // run 1 ended with a NaN loss at step 3, run 2 with 2 at step 2.
    QVERIFY2(contains(out, "stage2/loss"), out.c_str());
    QVERIFY2(contains(out, "nan"), out.c_str());
    QVERIFY2(contains(out, "stage2/attn_mse[mean]"), out.c_str());
    QVERIFY2(contains(out, "0.85"), out.c_str());
    const Outcome blocks = run_command({"compare", "1", "2", "--blocks"}, db);
    QVERIFY2(contains(blocks.out, "stage2/attn_mse[1]"), blocks.out.c_str());
    QVERIFY_EXCEPTION_THROWN(run_command({"compare", "1"}, db), adala::cli::UsageError);
  }

  void export_csv_and_json() {
    const std::string dir = store_test::fresh_dir("cli-export");
    const std::string db = make_database(dir);
    const Outcome csv = run_command({"export", "1", "--format", "csv"}, db);
    QCOMPARE(csv.code, 0);
    std::istringstream lines(csv.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    QCOMPARE(rows.size(), size_t(1 + 10));
    QCOMPARE(rows[0], std::string("run_id,stage,step,key,block,value"));
    QCOMPARE(rows[1], std::string("1,stage2,0,attn_mse,0,0.5"));
    QCOMPARE(rows[3], std::string("1,stage2,0,loss,,3"));
    QCOMPARE(rows.back(), std::string("1,stage2,3,loss,,nan"));

    const std::string file = dir + "/run1.json";
    const Outcome json = run_command({"export", "fast", "--format", "json", "-o", file}, db);
    QCOMPARE(json.code, 0);
    const Json doc = parse_json_strict(store_test::read_bytes(file));
    QCOMPARE(doc.at("run").at("name").get<std::string>(), std::string("fast"));
    QCOMPARE(doc.at("config").at("depth").get<int64_t>(), int64_t(12));
    QCOMPARE(doc.at("metrics").size(), size_t(10));
    QVERIFY(doc.at("metrics").back().at("value").is_null());  // NaN
    QVERIFY(doc.at("metrics").front().at("block").is_number_integer());
    // 0.8 + 0 * 0.05 written for run 1, exported by Json at round-trip precision, parsed back.
    ADALA_COMPARE_EXACT(doc.at("evaluations").at("stage3/top1").get<double>(), 0.8);
    QCOMPARE(doc.at("artifacts").size(), size_t(1));
    QCOMPARE(doc.at("stages").at(0).at("status").get<std::string>(), std::string("done"));
    QVERIFY_EXCEPTION_THROWN(run_command({"export", "1", "--format", "xml"}, db),
                             adala::cli::UsageError);
  }

  void delete_asks_first() {
    const std::string dir = store_test::fresh_dir("cli-delete");
    const std::string db = make_database(dir);
    const std::string artifact = dir + "/run1.ckpt";

    Outcome refused = run_command({"delete", "1"}, db, "n\n");
    QCOMPARE(refused.code, 1);
    QVERIFY2(contains(refused.out, "Delete run 1 (fast) and its 1 artifacts? [y/N]"),
             refused.out.c_str());
    QVERIFY(store_test::fs::exists(artifact));
    refused = run_command({"delete", "1"}, db, "");  // no answer at all: no
    QCOMPARE(refused.code, 1);
    QVERIFY(RunStore(db).find_run(1).has_value());

    const Outcome accepted = run_command({"delete", "1"}, db, "y\n");
    QCOMPARE(accepted.code, 0);
    QVERIFY2(contains(accepted.out, "deleted run 1"), accepted.out.c_str());
    QVERIFY(!store_test::fs::exists(artifact));
    QVERIFY(!RunStore(db).find_run(1).has_value());

    const Outcome forced = run_command({"delete", "slow", "--yes"}, db, "");
    QCOMPARE(forced.code, 0);
    QVERIFY(!contains(forced.out, "[y/N]"));
    QVERIFY(RunStore(db).list_runs().empty());
  }

  void tag_and_note() {
    const std::string db = make_database(store_test::fresh_dir("cli-tag"));
    QCOMPARE(run_command({"tag", "2", "best"}, db).code, 0);
    QCOMPARE(run_command({"note", "2", "use this one"}, db).code, 0);
    const auto run = RunStore(db).find_run(2);
    QCOMPARE(run->tags, std::vector<std::string>{"best"});
    QCOMPARE(run->notes, std::string("use this one"));
    const Outcome listed = run_command({"list", "--tag", "best"}, db);
    QVERIFY2(contains(listed.out, "slow") && !contains(listed.out, "fast"), listed.out.c_str());
    run_command({"tag", "2", "best", "--remove"}, db);
    QVERIFY(RunStore(db).find_run(2)->tags.empty());
  }

  // A new display name; names that would be ambiguous or unprintable are refused, naming why,
  // and leave the old name.
  void rename() {
    const std::string db = make_database(store_test::fresh_dir("cli-rename"));
    const Outcome renamed = run_command({"rename", "2", "slow-but-good"}, db);
    QCOMPARE(renamed.code, 0);
    QVERIFY2(contains(renamed.out, "renamed from slow to slow-but-good"), renamed.out.c_str());
    QCOMPARE(RunStore(db).find_run(2)->name, std::string("slow-but-good"));
    QCOMPARE(run_command({"show", "slow-but-good"}, db).code, 0);  // found by its new name
    const std::pair<std::string, std::string> refused[] = {
        {"", "the name is empty"},
        {"42", "digits only"},
        {"a/b", "contains '/'"},
        {std::string("tab\there"), "control character"},
        {std::string(201, 'x'), "longer than 200 bytes"}};
    for (const auto& [name, why] : refused) {
      try {
        run_command({"rename", "2", name}, db);
        QFAIL(("accepted the name \"" + name + "\"").c_str());
      } catch (const std::exception& e) {
        QVERIFY2(contains(e.what(), why), e.what());
      }
      QCOMPARE(RunStore(db).find_run(2)->name, std::string("slow-but-good"));
    }
  }

  void errors_name_the_problem() {
    const std::string dir = store_test::fresh_dir("cli-errors");
    const std::string db = make_database(dir);
    try {
      run_command({"show", "nope"}, db);
      QFAIL("unknown run accepted");
    } catch (const adala::cli::UsageError& e) {
      QVERIFY2(contains(e.what(), "no run \"nope\""), e.what());
    }
    // More digits than an int64 holds: no such run, not a raw "stoll" from the number parser.
    try {
      run_command({"show", "99999999999999999999999"}, db);
      QFAIL("an id past int64 was accepted");
    } catch (const adala::cli::UsageError& e) {
      QVERIFY2(contains(e.what(), "no run \"99999999999999999999999\""), e.what());
    }
    const std::string missing = dir + "/missing.sqlite";
    try {
      run_command({"list"}, missing);
      QFAIL("missing database accepted");
    } catch (const StoreError& e) {
      QVERIFY2(contains(e.what(), "no run database at " + missing), e.what());
    }
    QVERIFY_EXCEPTION_THROWN(run_command({"tag", "1", "x"}, missing), StoreError);
    QVERIFY(!store_test::fs::exists(missing));  // no command creates a database
    QVERIFY_EXCEPTION_THROWN(run_command({"frobnicate"}, db), adala::cli::UsageError);
    QCOMPARE(run_command({"check"}, db).code, 0);
  }

  // Each sub-command takes its own options only, typed (CLI11).
  void options_are_per_sub_command_and_typed() {
    const std::string db = make_database(store_test::fresh_dir("cli-options"));
    const auto usage_error = [&](Args args) -> std::string {
      try {
        run_command(std::move(args), db);
      } catch (const adala::cli::UsageError& e) {
        return e.what();
      }
      return "";
    };
    std::string error = usage_error({"list", "--step-ms", "3"});
    QVERIFY2(contains(error, "not expected here: --step-ms 3") &&
                 contains(error, "see adala runs list --help"),
             error.c_str());
    error = usage_error({"bench", "--metrics", "abc"});
    QVERIFY2(contains(error, "--metrics") && contains(error, "\"abc\" is not a number"),
             error.c_str());
    error = usage_error({"bench", "--step-ms", "0"});
    QVERIFY2(contains(error, "--step-ms") && contains(error, "0 is not above 0"), error.c_str());
    error = usage_error({"list", "--kind", "training,benchmark"});
    QVERIFY2(contains(error, "--kind"), error.c_str());
    error = usage_error({"show"});
    QVERIFY2(contains(error, "RUN"), error.c_str());
    error = usage_error({"tag", "1"});
    QVERIFY2(contains(error, "TAG"), error.c_str());
    // --db before the sub-command works too; --help prints the sub-command's options.
    QCOMPARE(run_command({"--db", db, "check"}, db).code, 0);
    const Outcome help = run_command({"export", "--help"}, db);
    QCOMPARE(help.code, 0);
    QVERIFY2(contains(help.out, "-o,--output") && contains(help.out, "--format") &&
                 contains(help.out, "csv"),
             help.out.c_str());
  }

  void bench_reports_throughput_and_overhead() {
    const std::string dir = store_test::fresh_dir("cli-bench");
    const std::string db = dir + "/bench.sqlite";
    const Outcome outcome =
        run_command({"bench", "--metrics", "3000", "--batch", "15", "--step-ms", "100"}, db);
    QCOMPARE(outcome.code, 0);
    QVERIFY2(contains(outcome.out, "metrics/s") &&
                 contains(outcome.out, "overhead on a 100.000 ms step"),
             outcome.out.c_str());
    QVERIFY_EXCEPTION_THROWN(run_command({"bench", "--metrics", "10"}, db), StoreError);  // exists
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunsCommand)
}  // namespace test_runs_command

#include "test_runs_command.moc"
