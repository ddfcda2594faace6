// `--progress jsonl` read back (app/cli/progress_stream.h): what ProgressEvents writes parses
// to the same values (NaN through null included); every malformed line (not JSON, not an
// object, missing fields, wrong types, numbers out of range, unknown names) is reported with
// a reason naming the field, and nothing throws; the stream splits lines across chunks and
// explains a failure with the error event, else the command's own "adala ..." line.
#include <QtTest/QtTest>

#include <cmath>
#include <cstdio>
#include <string>
#include <variant>

#include "app/cli/progress_events.h"
#include "app/cli/progress_stream.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_progress_stream {

using namespace adala;
using namespace adala::cli;

namespace {

// What a ProgressEvents call writes, as text.
template <typename F>
std::string written(F&& write) {
  char* data = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  {
    ProgressEvents events(out);
    write(events);
  }
  std::fclose(out);
  std::string text(data, size);
  std::free(data);
  return text;
}

ProgressLine one(const std::string& text) {
  ProgressStream stream;
  auto lines = stream.feed(text);
  auto rest = stream.finish();
  lines.insert(lines.end(), rest.begin(), rest.end());
  if (lines.size() != 1) return ProgressLine{ProgressLine::Kind::Invalid, {}, "not one line", text};
  return lines.front();
}

}  // namespace

class TestProgressStream : public QObject {
  Q_OBJECT

  // A malformed line: Invalid, with a reason that contains `reason`.
  static void expectInvalid(const std::string& line, const std::string& reason) {
    const ProgressLine p = parse_progress_line(line);
    QVERIFY2(p.kind == ProgressLine::Kind::Invalid, line.c_str());
    QVERIFY2(p.error.find(reason) != std::string::npos,
             (line + " -> \"" + p.error + "\", expected \"" + reason + "\"").c_str());
  }

 private slots:
  void step_round_trips_with_nan_as_null() {
    StepMetrics m;
    m.stage = "attention_alignment";
    m.step = 3;
    m.total_steps = 6;
    m.epoch = 1;
    m.loss = 0.1234567890123456;
    m.lr = 1e-3;
    m.per_block_mse = {0.5, std::nan(""), 1.0 / 3.0};
    m.images_per_second = 812.25;
    m.eta_seconds = 2.5;
    m.data_wait_share = 0.125;
    m.extra["wall_time"] = 1764870000.123456;
    m.per_block["health.min_normaliser"] = {std::nan(""), 2e-7};
    const std::string text = written([&](ProgressEvents& e) { e.engine_event(m); });
    QCOMPARE(std::count(text.begin(), text.end(), '\n'), 1);
    const ProgressLine p = one(text);
    QVERIFY2(p.kind == ProgressLine::Kind::Event, p.error.c_str());
    const auto* back = std::get_if<StepMetrics>(&p.message);
    QVERIFY(back);
    QCOMPARE(QString::fromStdString(back->stage), QString("attention_alignment"));
    QCOMPARE(back->step, int64_t(3));
    QCOMPARE(back->total_steps, int64_t(6));
    QCOMPARE(back->epoch, int64_t(1));
    // Exact: nlohmann writes JSON numbers with round-trip precision and reads them back.
    ADALA_COMPARE_EXACT(back->loss, m.loss);
    ADALA_COMPARE_EXACT(back->lr, m.lr);
    QCOMPARE(int(back->per_block_mse.size()), 3);
    ADALA_COMPARE_EXACT(back->per_block_mse[0], 0.5);
    QVERIFY(std::isnan(back->per_block_mse[1]));
    ADALA_COMPARE_EXACT(back->per_block_mse[2], 1.0 / 3.0);
    ADALA_COMPARE_EXACT(back->images_per_second, 812.25);
    ADALA_COMPARE_EXACT(back->data_wait_share, 0.125);
    ADALA_COMPARE_EXACT(back->extra.at("wall_time"), m.extra["wall_time"]);
    QCOMPARE(int(back->per_block.at("health.min_normaliser").size()), 2);
    QVERIFY(std::isnan(back->per_block.at("health.min_normaliser")[0]));
    ADALA_COMPARE_EXACT(back->per_block.at("health.min_normaliser")[1], 2e-7);
  }

  void every_run_event_round_trips() {
    StageEvent stage;
    stage.stage = "feature_alignment";
    stage.kind = StageEvent::Kind::Cancelled;
    stage.total_steps = 10;
    stage.step = 4;
    stage.seconds = 1.5;
    stage.message = "stopped";
    const std::string text = written([&](ProgressEvents& e) {
      e.run("micro", "/runs/micro-1", 2);
      e.recorded(42);
      e.engine_event(stage);
      e.engine_event(EvalMetrics{"teacher", "top1", 0.75, 12});
      e.engine_event(ArtifactEvent{"teacher", "weights", "/runs/micro-1/teacher.safetensors"});
      e.engine_event(LogEvent{LogEvent::Level::Warning, "slow \"data\"\nline"});
      e.finished("interrupted", 42);
      e.finished("done", -1);
      e.error("it broke");
    });
    ProgressStream stream;
    const auto lines = stream.feed(text);
    QCOMPARE(int(lines.size()), 9);
    for (const auto& l : lines) QVERIFY2(l.kind == ProgressLine::Kind::Event, l.error.c_str());
    const auto& run = std::get<RunMessage>(lines[0].message);
    QCOMPARE(QString::fromStdString(run.name), QString("micro"));
    QCOMPARE(QString::fromStdString(run.run_dir), QString("/runs/micro-1"));
    QCOMPARE(run.processes, int64_t(2));
    QCOMPARE(std::get<RecordedMessage>(lines[1].message).run_id, int64_t(42));
    const auto& s = std::get<StageEvent>(lines[2].message);
    QVERIFY(s.kind == StageEvent::Kind::Cancelled);
    QCOMPARE(s.step, int64_t(4));
    QCOMPARE(s.total_steps, int64_t(10));
    ADALA_COMPARE_EXACT(s.seconds, 1.5);  // a JSON number written by nlohmann and read back
    QCOMPARE(QString::fromStdString(s.message), QString("stopped"));
    const auto& e = std::get<EvalMetrics>(lines[3].message);
    QCOMPARE(QString::fromStdString(e.key), QString("top1"));
    ADALA_COMPARE_EXACT(e.value, 0.75);  // a JSON number written by nlohmann and read back
    QCOMPARE(e.step, int64_t(12));
    QCOMPARE(QString::fromStdString(std::get<ArtifactEvent>(lines[4].message).kind),
             QString("weights"));
    const auto& log = std::get<LogEvent>(lines[5].message);
    QVERIFY(log.level == LogEvent::Level::Warning);
    QCOMPARE(QString::fromStdString(log.message), QString("slow \"data\"\nline"));
    QCOMPARE(QString::fromStdString(std::get<RunFinishedMessage>(lines[6].message).status),
             QString("interrupted"));
    QCOMPARE(std::get<RunFinishedMessage>(lines[6].message).run_id, int64_t(42));
    QCOMPARE(std::get<RunFinishedMessage>(lines[7].message).run_id, int64_t(-1));
    QCOMPARE(QString::fromStdString(std::get<ErrorMessage>(lines[8].message).message),
             QString("it broke"));
    QCOMPARE(QString::fromStdString(stream.failure_reason()), QString("it broke"));
  }

  void bench_events_round_trip() {
    const std::string text = written([](ProgressEvents& e) {
      e.start("scaling", 12, "vit_small", {64, 96}, {"softmax", "linear"});
      e.progress(3, 12, "64px linear");
      e.csv("/tmp/s.csv");
      e.done(4, 42);
    });
    ProgressStream stream;
    const auto lines = stream.feed(text);
    QCOMPARE(int(lines.size()), 4);
    for (const auto& l : lines) QVERIFY2(l.kind == ProgressLine::Kind::Event, l.error.c_str());
    const auto& start = std::get<BenchStartMessage>(lines[0].message);
    QCOMPARE(start.total, int64_t(12));
    QCOMPARE(int(start.resolutions.size()), 2);
    QCOMPARE(start.resolutions[1], int64_t(96));
    QCOMPARE(QString::fromStdString(start.modes[1]), QString("linear"));
    const auto& p = std::get<BenchProgressMessage>(lines[1].message);
    QCOMPARE(p.done, int64_t(3));
    QCOMPARE(QString::fromStdString(p.label), QString("64px linear"));
    QCOMPARE(QString::fromStdString(std::get<CsvMessage>(lines[2].message).path),
             QString("/tmp/s.csv"));
    QCOMPARE(std::get<BenchDoneMessage>(lines[3].message).run_id, int64_t(42));
  }

  // A measured point travels as its CSV fields and comes back through the CSV reader's checks.
  void point_event_round_trips_and_is_checked() {
    ScalingCsvRow row;
    row.preset = "vit_tiny";
    row.resolution = 112;
    row.mode = "linear";
    row.ms_per_img = 2.5;
    row.ms_per_img_min = 2.25;
    row.ms_per_img_max = 3.125;
    row.load_1m = 1.75;
    row.note = "a \"note\", with a comma";
    const std::string text = written([&](ProgressEvents& e) { e.point(scaling_csv_fields(row)); });
    const ProgressLine line = one(text);
    QVERIFY2(line.kind == ProgressLine::Kind::Event, line.error.c_str());
    const ScalingCsvRow& back = std::get<BenchPointMessage>(line.message).row;
    QCOMPARE(back.resolution, int64_t(112));
    QCOMPARE(back.mode, std::string("linear"));
    // Written as shortest round-trip text (the CSV's fields) and read back: the same bits.
    ADALA_COMPARE_EXACT(back.ms_per_img, 2.5);
    ADALA_COMPARE_EXACT(back.ms_per_img_min, 2.25);
    ADALA_COMPARE_EXACT(back.ms_per_img_max, 3.125);
    ADALA_COMPARE_EXACT(back.load_1m, 1.75);
    QCOMPARE(back.note, row.note);
    QVERIFY(std::isnan(back.train_ms));
    // The CSV reader's checks: a spread that does not hold its median, a negative number, a
    // number that is not one, a missing resolution; and fields that are not strings.
    expectInvalid(R"({"event":"point","row":{"resolution":"112","mode":"linear",)"
                  R"("ms_per_img":"2","ms_per_img_min":"3"}})",
                  "(ms_per_img_min): 3 is above ms_per_img (2)");
    expectInvalid(R"({"event":"point","row":{"resolution":"112","mode":"linear",)"
                  R"("load_1m":"-1"}})",
                  "(load_1m): -1 is out of range");
    expectInvalid(R"({"event":"point","row":{"resolution":"112","mode":"linear",)"
                  R"("ms_per_img_max":"nan"}})",
                  "(ms_per_img_max): nan is out of range");
    expectInvalid(R"({"event":"point","row":{"mode":"linear"}})", "is not a scaling benchmark CSV");
    expectInvalid(R"({"event":"point","row":{"resolution":112,"mode":"linear"}})",
                  "\"row.resolution\" must be a string");
    expectInvalid(R"({"event":"point","row":[]})", "\"row\" must be an object");
  }

  void not_json() {
    expectInvalid("{", "JSON parse error");
    expectInvalid("{\"event\":\"log\",", "JSON parse error");
    expectInvalid("{\"event\":\"log\"} trailing", "JSON parse error");
    expectInvalid("{\"event\":\"log\",\"event\":\"step\"}", "duplicate");
    expectInvalid(std::string("{\"event\":\"") + std::string(1, '\x01') + "\"}",
                  "JSON parse error");
    expectInvalid(std::string(300, '[').insert(0, "{\"a\":"), "JSON parse error");
  }

  void not_an_event_object() {
    expectInvalid("{}", "no \"event\" field");
    expectInvalid("{\"event\":7}", "\"event\" must be a string, got integer");
    expectInvalid("{\"event\":\"bogus\"}", "unknown event \"bogus\"");
    // A line that does not start with '{' is the command's own text, not an event.
    const ProgressLine text = parse_progress_line("adala run: error: config.json: cannot open");
    QVERIFY(text.kind == ProgressLine::Kind::Text);
    QVERIFY(parse_progress_line("[1,2]").kind == ProgressLine::Kind::Text);
  }

  void missing_fields() {
    expectInvalid("{\"event\":\"recorded\"}", "recorded event: \"run_id\" is missing");
    expectInvalid("{\"event\":\"log\",\"level\":\"info\"}", "log event: \"message\" is missing");
    expectInvalid(
        "{\"event\":\"step\",\"stage\":\"teacher\",\"step\":1,\"total_steps\":5,\"epoch\":0,"
        "\"lr\":0.1,\"per_block_mse\":[],\"images_per_second\":1,\"eta_seconds\":1,"
        "\"data_wait_share\":0}",
        "step event: \"loss\" is missing");
    expectInvalid("{\"event\":\"stage\",\"stage\":\"teacher\",\"kind\":\"started\"}",
                  "stage event: \"total_steps\" is missing");
    expectInvalid("{\"event\":\"run\",\"name\":\"x\",\"processes\":2}",
                  "run event: \"run_dir\" is missing");
    expectInvalid("{\"event\":\"error\"}", "error event: \"message\" is missing");
    expectInvalid("{\"event\":\"progress\",\"done\":1,\"total\":2}",
                  "progress event: \"label\" is missing");
  }

  void wrong_types() {
    expectInvalid("{\"event\":\"recorded\",\"run_id\":\"42\"}",
                  "\"run_id\" must be an integer, got string");
    expectInvalid("{\"event\":\"recorded\",\"run_id\":4.5}",
                  "\"run_id\" must be an integer, got number");
    expectInvalid("{\"event\":\"error\",\"message\":null}",
                  "\"message\" must be a string, got null");
    expectInvalid("{\"event\":\"log\",\"level\":\"loud\",\"message\":\"x\"}",
                  "\"level\" \"loud\" is not one of info, warning, error");
    expectInvalid(
        "{\"event\":\"eval\",\"stage\":\"t\",\"key\":\"top1\",\"value\":\"0.5\",\"step\":1}",
        "\"value\" must be a number, got string");
    const std::string step =
        "{\"event\":\"step\",\"stage\":\"teacher\",\"step\":1,\"total_steps\":5,\"epoch\":0,"
        "\"loss\":0.5,\"lr\":0.1,\"images_per_second\":1,\"eta_seconds\":1,\"data_wait_share\":0,";
    expectInvalid(step + "\"per_block_mse\":{}}", "\"per_block_mse\" must be an array, got object");
    expectInvalid(step + "\"per_block_mse\":[1,\"x\"]}",
                  "\"per_block_mse[]\" must be a number, got string");
    expectInvalid(step + "\"per_block_mse\":[],\"extra\":[1]}",
                  "\"extra\" must be an object, got array");
    expectInvalid(step + "\"per_block_mse\":[],\"extra\":{\"wall_time\":true}}",
                  "\"extra.wall_time\" must be a number, got boolean");
    expectInvalid(step + "\"per_block_mse\":[],\"per_block\":{\"h\":3}}",
                  "\"per_block.h\" must be an array");
    expectInvalid("{\"event\":\"finished\",\"status\":\"exploded\",\"run_id\":null}",
                  "\"status\" \"exploded\"");
  }

  void numbers_out_of_range() {
    expectInvalid("{\"event\":\"recorded\",\"run_id\":0}", "\"run_id\" 0 is out of range");
    expectInvalid("{\"event\":\"recorded\",\"run_id\":-3}", "\"run_id\" -3 is out of range");
    expectInvalid("{\"event\":\"recorded\",\"run_id\":18446744073709551615}",
                  "\"run_id\" is out of range");
    expectInvalid("{\"event\":\"recorded\",\"run_id\":1e400}", "JSON parse error");
    expectInvalid("{\"event\":\"run\",\"name\":\"x\",\"run_dir\":\"/r\",\"processes\":0}",
                  "\"processes\" 0 is out of range");
    expectInvalid("{\"event\":\"progress\",\"done\":5,\"total\":2,\"label\":\"\"}",
                  "\"done\" 5 is past total 2");
    const std::string step =
        "{\"event\":\"step\",\"stage\":\"teacher\",\"total_steps\":5,\"epoch\":0,\"loss\":0.5,"
        "\"lr\":0.1,\"per_block_mse\":[],\"images_per_second\":1,\"eta_seconds\":1,";
    expectInvalid(step + "\"step\":6,\"data_wait_share\":0}", "\"step\" 6 is past total_steps 5");
    expectInvalid(step + "\"step\":-1,\"data_wait_share\":0}", "\"step\" -1 is out of range");
    expectInvalid(step + "\"step\":1,\"data_wait_share\":1.5}",
                  "\"data_wait_share\" is out of range (0..1)");
    std::string many = step + "\"step\":1,\"data_wait_share\":0,\"per_block\":{\"h\":[";
    for (size_t i = 0; i <= kMaxProgressBlocks; ++i) many += i ? ",0" : "0";
    expectInvalid(many + "]}}", "\"per_block.h\" has 4097 values");
  }

  void stream_splits_lines_across_chunks_and_explains_failures() {
    ProgressStream stream;
    const std::string line = "{\"event\":\"recorded\",\"run_id\":7}\n";
    size_t events = 0;
    for (char c : line) events += stream.feed(std::string(1, c)).size();
    QCOMPARE(events, size_t(1));
    auto lines =
        stream.feed("== teacher: 5 steps\r\nadala run: started 2 processes\n{bad\nrank 1 was");
    QCOMPARE(int(lines.size()), 3);
    QVERIFY(lines[0].kind == ProgressLine::Kind::Text);
    QCOMPARE(QString::fromStdString(lines[0].text), QString("== teacher: 5 steps"));
    QVERIFY(lines[2].kind == ProgressLine::Kind::Invalid);
    QCOMPARE(QString::fromStdString(stream.failure_reason()),
             QString("adala run: started 2 processes"));
    lines = stream.finish();  // the unterminated last line
    QCOMPARE(int(lines.size()), 1);
    QCOMPARE(QString::fromStdString(lines[0].text), QString("rank 1 was"));
    stream.feed("adala run: error: /x.json: cannot open the config file\nmore text\n");
    QCOMPARE(QString::fromStdString(stream.failure_reason()),
             QString("adala run: error: /x.json: cannot open the config file"));
    stream.feed("{\"event\":\"error\",\"message\":\"the real reason\"}\n");
    QCOMPARE(QString::fromStdString(stream.failure_reason()), QString("the real reason"));
    QVERIFY(stream.text_tail().size() <= 12);
  }
};

ADALA_TEST_MAIN(TestProgressStream)
}  // namespace test_progress_stream

#include "test_progress_stream.moc"
