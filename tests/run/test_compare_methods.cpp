// `adala compare-methods` and `adala ablate` as a user calls them, on a micro model and a slice of
// Fashion-MNIST: one shared teacher, every method recorded with the comparison's tags, and a table
// whose figures are the database's; malformed --methods lists are refused before anything trains.
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/store/run_store.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_compare_methods {

using namespace adala;
using adala_test::run_adala;
using store::OpenMode;
using store::RunStore;

namespace {

std::string fresh_dir(const std::string& name) {
  const std::string dir = std::string(ADALA_TEST_TMP) + "/compare_methods/" + name + "-" +
                          std::to_string(QCoreApplication::applicationPid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_config(const std::string& dir) {
  const std::string path = dir + "/micro.json";
  std::ofstream(path) << R"({"name": "methods", "seed": 5, "device": "cpu", "threads": 1,
  "model": {"preset": "fmnist_micro"},
  "data": {"train_limit": 128, "test_limit": 64},
  "lora_rank": 2, "attention_rows": 8,
  "stages": {
    "teacher": {"max_steps": 6, "batch_size": 32},
    "attention_alignment": {"max_steps": 3, "batch_size": 32},
    "feature_alignment": {"max_steps": 3, "batch_size": 32},
    "fine_tuning": {"max_steps": 3, "batch_size": 32}}})";
  return path;
}

std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

bool has_tag(const store::RunInfo& r, const std::string& tag) {
  return std::find(r.tags.begin(), r.tags.end(), tag) != r.tags.end();
}

}  // namespace

class TestCompareMethods : public QObject {
  Q_OBJECT
 private slots:
  void malformed_methods_are_refused() {
    const std::string dir = fresh_dir("malformed");
    const std::string config = write_config(dir);
    for (const auto& [list, expected] :
         std::vector<std::pair<QString, QString>>{{"adala,monarch", "\"monarch\""},
                                                  {"adala,,naive", "empty name"},
                                                  {"naive,naive", "listed twice"},
                                                  {"", "no method"}}) {
      const auto r =
          run_adala({"compare-methods", QString::fromStdString(config), "--methods", list, "--db",
                     "none", "--out", QString::fromStdString(dir + "/out")});
      QVERIFY2(r.code == 2, qPrintable(list + ": " + r.err));
      QVERIFY2(r.err.contains(expected), qPrintable(r.err));
      QVERIFY(!std::filesystem::exists(dir + "/out/teacher"));  // nothing trained
    }
  }

  void table_equals_the_database() {
    const std::string dir = fresh_dir("table");
    const std::string config = write_config(dir);
    const std::string db = dir + "/runs.sqlite", out = dir + "/cmp";
    const auto r =
        run_adala({"compare-methods", QString::fromStdString(config), "--methods",
                   "adala,lolcats,hedgehog,performer,naive", "--db", QString::fromStdString(db),
                   "--out", QString::fromStdString(out), "--repeats", "1"});
    QVERIFY2(r.code == 0, qPrintable(r.err.right(3000)));
    QVERIFY(std::filesystem::exists(out + "/comparison.md"));
    const auto rows = read_csv(out + "/comparison.csv");
    QCOMPARE(rows.size(), size_t(6));
    QCOMPARE(QString::fromStdString(rows[0].at("method")), QString("teacher"));

    RunStore store(db, OpenMode::ReadOnly);
    std::map<std::string, store::RunInfo> by_method;
    for (const auto& run : store.list_runs())
      if (has_tag(run, "comparison") && has_tag(run, "comparison:cmp"))
        for (const auto& t : run.tags)
          if (t.rfind("method:", 0) == 0) by_method[t.substr(7)] = run;
    QCOMPARE(by_method.size(), size_t(6));
    const double teacher_top1 = std::stod(rows[0].at("top1"));
    for (const auto& row : rows) {
      const std::string m = row.at("method");
      QVERIFY2(by_method.count(m), m.c_str());
      const auto& run = by_method.at(m);
      QCOMPARE(std::to_string(run.id), row.at("run"));
      const auto evals = store.evaluations(run.id);
      const char* key = m == "teacher" ? "teacher/top1" : "fine_tuning/top1";
      QVERIFY2(evals.count(key), m.c_str());
      // The CSV's doubles are written by fmt's "{}" (shortest round-trip) and peak_bytes as an
      // integer; the database's are SQLite REALs: parsed back, the same doubles. The gap is the
      // command's formula on those same doubles.
      ADALA_COMPARE_EXACT(std::stod(row.at("top1")), evals.at(key));
      ADALA_COMPARE_EXACT(std::stod(row.at("gap_points")),
                          m == "teacher" ? 0.0 : 100.0 * (evals.at(key) - teacher_top1));
      // Every method's run evaluated the one shared teacher (the same weights and test slice:
      // the same count of correct predictions over 64, the same double).
      ADALA_COMPARE_EXACT(evals.at("teacher/top1"), teacher_top1);
      for (const char* suffix : {"", "_4x"}) {
        const std::string res = row.at(std::string("resolution") + suffix);
        ADALA_COMPARE_EXACT(std::stod(row.at(std::string("ms_per_img") + suffix)),
                            evals.at("comparison/ms_per_img@" + res));
        ADALA_COMPARE_EXACT(std::stod(row.at(std::string("peak_bytes") + suffix)),
                            evals.at("comparison/peak_bytes@" + res));
      }
      QCOMPARE(row.at("resolution_4x"), std::to_string(4 * 28));
      // The stages each method ran.
      std::set<std::string> stages;
      for (const auto& s : store.stages(run.id)) stages.insert(s.stage);
      QCOMPARE(stages.count("feature_alignment"), size_t(m == "adala" || m == "performer"));
      QCOMPARE(stages.count("attention_alignment"), size_t(m != "naive" && m != "teacher"));
      QCOMPARE(stages.count("fine_tuning"), size_t(m != "teacher"));
    }

    // `adala report` on any one of the runs exports the whole comparison.
    const std::string md = dir + "/report.md";
    const auto report = run_adala({"report", QString::fromStdString(rows[2].at("run")), "--db",
                                   QString::fromStdString(db), "-o", QString::fromStdString(md),
                                   "--language", "en"});
    if (report.code == 0 || !report.err.contains("unknown command")) {
      QVERIFY2(report.code == 0, qPrintable(report.err));
      std::ifstream in(md);
      const std::string text((std::istreambuf_iterator<char>(in)), {});
      QVERIFY2(text.find("Linearisation methods") != std::string::npos, text.c_str());
      for (const char* m : {"adala", "lolcats", "hedgehog", "performer", "naive"})
        QVERIFY2(text.find(std::string("| ") + m + " |") != std::string::npos, m);
      QVERIFY(text.find("ms / image @ 112²") != std::string::npos);
    }
  }

  // `adala ablate` with the paper's rows: (e) Stage 1 + 3 ("Stage 1 only") and (f) Stage 1 + 2
  // + 3 with only q/k/v trained in Stage 2, next to (a)-(d); its table is the database's.
  void ablate_has_the_paper_rows() {
    const std::string dir = fresh_dir("ablate");
    const std::string config = write_config(dir);
    const std::string db = dir + "/runs.sqlite", out = dir + "/abl";
    const auto r = run_adala({"ablate", QString::fromStdString(config), "--db",
                              QString::fromStdString(db), "--out", QString::fromStdString(out)});
    QVERIFY2(r.code == 0, qPrintable(r.err.right(3000)));
    const auto rows = read_csv(out + "/ablation.csv");
    std::vector<std::string> variants;
    for (const auto& row : rows) variants.push_back(row.at("variant"));
    QCOMPARE(variants, std::vector<std::string>({"a", "b", "c", "d", "e", "f"}));
    RunStore store(db, OpenMode::ReadOnly);
    std::map<std::string, store::RunInfo> by_variant;
    for (const auto& run : store.list_runs())
      for (const auto& t : run.tags)
        if (t.rfind("variant:", 0) == 0) by_variant[t.substr(8, 1)] = run;  // "a-teacher": a
    for (const auto& row : rows) {
      const std::string v = row.at("variant");
      QVERIFY2(by_variant.count(v), v.c_str());
      const auto evals = store.evaluations(by_variant.at(v).id);
      const char* key = v == "a" ? "teacher/top1" : "fine_tuning/top1";
      QVERIFY2(evals.count(key), v.c_str());
      // ablation.csv streams top-1 at the default 6 significant digits: half a unit in the 6th
      // digit (a count over 64 prints exactly; another variant's is 1/64 away).
      ADALA_COMPARE_NEAR(std::stod(row.at("top1")), evals.at(key), 5e-6 * std::abs(evals.at(key)));
    }
    auto stages_of = [&](const std::string& v) {
      std::set<std::string> s;
      for (const auto& st : store.stages(by_variant.at(v).id)) s.insert(st.stage);
      return s;
    };
    QCOMPARE(stages_of("e").count("attention_alignment"), size_t(1));
    QCOMPARE(stages_of("e").count("feature_alignment"), size_t(0));
    QCOMPARE(stages_of("f").count("feature_alignment"), size_t(1));
    // (f)'s recorded config trains only q/k/v in Stage 2; (d)'s the whole student.
    std::ifstream f_config(out + "/f/config.json"), d_config(out + "/d/config.json");
    const std::string f_text((std::istreambuf_iterator<char>(f_config)), {});
    const std::string d_text((std::istreambuf_iterator<char>(d_config)), {});
    QVERIFY(f_text.find("\"trainable\": \"qkv\"") != std::string::npos);
    QVERIFY(d_text.find("\"trainable\"") == std::string::npos);
  }

  // ablate is ViT-AdaLA's ablation: a config with another method is refused before training.
  void ablate_refuses_other_methods() {
    const std::string dir = fresh_dir("ablate_method");
    const std::string path = dir + "/lolcats.json";
    std::ofstream(path)
        << R"({"name": "x", "method": "lolcats", "model": {"preset": "fmnist_micro"}})";
    const auto r = run_adala({"ablate", QString::fromStdString(path), "--db", "none", "--out",
                              QString::fromStdString(dir + "/out")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("\"lolcats\""), qPrintable(r.err));
    QVERIFY(!std::filesystem::exists(dir + "/out/a-teacher"));
  }
};

ADALA_TEST_MAIN(TestCompareMethods)
}  // namespace test_compare_methods

#include "test_compare_methods.moc"
