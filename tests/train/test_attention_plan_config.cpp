// The experiment's "attention" block (read_attention_plan, config_reader.h): its two forms, the
// window, the method's default, and one named error per malformed case.
#include <QtTest/QtTest>

#include <string>

#include "engine/train/config/experiment_config.h"
#include "tests/support/config_errors.h"
#include "tests/support/micro_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_attention_plan_config {

using namespace adala;
using M = AttentionMode;

namespace {

// fmnist_tiny (the default model) has 4 blocks.
ExperimentConfig parse(const std::string& text) {
  return parse_experiment_config(parse_json_strict(text));
}

}  // namespace

class TestAttentionPlanConfig : public QObject {
  Q_OBJECT
 private slots:
  void without_a_plan_every_block_is_linear() {
    const ExperimentConfig c = parse("{}");
    QVERIFY(c.attention == uniform_attention_plan(4, M::Linear, 3));
    QVERIFY(student_attention_plan(c) == c.attention);
    // A config built in code has no plan: the method's, one entry per block.
    const ExperimentConfig micro = adala_test::micro_experiment_config(1);
    QVERIFY(micro.attention.modes.empty());
    QVERIFY(student_attention_plan(micro) == uniform_attention_plan(2, M::Linear, 3));
  }

  void every_block_named() {
    const ExperimentConfig c = parse(
        R"({"attention":{"blocks":["softmax","linear","window+linear","softmax"],"window":5}})");
    QVERIFY(c.attention.modes ==
            (std::vector<M>{M::Softmax, M::Linear, M::WindowLinear, M::Softmax}));
    QCOMPARE(c.attention.window, int64_t(5));
    QCOMPARE(c.attention.linearised(), (std::vector<bool>{false, true, true, false}));
    // The document is kept as given, so a resumed run reads the same plan.
    QCOMPARE(c.source.at("attention").at("window").get<int64_t>(), int64_t(5));
  }

  void softmax_blocks_short_form() {
    ExperimentConfig c = parse(R"({"attention":{"softmax_blocks":[0,3]}})");
    QVERIFY(c.attention.modes == (std::vector<M>{M::Softmax, M::Linear, M::Linear, M::Softmax}));
    QCOMPARE(c.attention.window, int64_t(3));
    c = parse(R"({"attention":{"softmax_blocks":[2],"mode":"window+linear","window":1}})");
    QVERIFY(c.attention.modes ==
            (std::vector<M>{M::WindowLinear, M::WindowLinear, M::Softmax, M::WindowLinear}));
    QCOMPARE(c.attention.window, int64_t(1));
    c = parse(R"({"attention":{"mode":"window+linear"}})");
    QVERIFY(c.attention == uniform_attention_plan(4, M::WindowLinear, 3));
    c = parse(R"({"attention":{"softmax_blocks":[]}})");
    QVERIFY(c.attention == uniform_attention_plan(4, M::Linear, 3));
    // The depth is the model's, here 2 blocks.
    c = parse(R"({"model":{"preset":"fmnist_micro"},"attention":{"softmax_blocks":[1]}})");
    QVERIFY(c.attention.modes == (std::vector<M>{M::Linear, M::Softmax}));
  }

  void the_example_hybrid_config() {
    const ExperimentConfig c =
        load_experiment_config(ADALA_SOURCE_DIR "/experiments/fashion-mnist-tiny-hybrid.json");
    QVERIFY(c.attention.modes ==
            (std::vector<M>{M::Softmax, M::WindowLinear, M::WindowLinear, M::WindowLinear}));
    QCOMPARE(c.attention.window, int64_t(3));
  }

  void lolcats_runs_window_linear_by_default() {
    // LoLCATS' design: every block a 3 x 3 window + linear attention, unless the config says.
    ExperimentConfig c = parse(R"({"method":"lolcats"})");
    QVERIFY(c.attention == uniform_attention_plan(4, M::WindowLinear, 3));
    c = parse(R"({"method":"lolcats","attention":{"window":5,"softmax_blocks":[0]}})");
    QVERIFY(c.attention.modes ==
            (std::vector<M>{M::Softmax, M::WindowLinear, M::WindowLinear, M::WindowLinear}));
    QCOMPARE(c.attention.window, int64_t(5));
    c = parse(R"({"method":"lolcats","attention":{"mode":"linear"}})");
    QVERIFY(c.attention == uniform_attention_plan(4, M::Linear, 3));
    ExperimentConfig micro = adala_test::micro_experiment_config(1);
    micro.method = LinearisationMethod::Lolcats;
    QVERIFY(student_attention_plan(micro) == uniform_attention_plan(2, M::WindowLinear, 3));
    // The other methods keep linear attention.
    for (const char* m : {"adala", "hedgehog", "performer", "naive"})
      QVERIFY2(parse(std::string(R"({"method":")") + m + "\"}").attention ==
                   uniform_attention_plan(4, M::Linear, 3),
               m);
    QCOMPARE(QString::fromStdString(
                 adala_test::config_error_of(R"({"method":"lolcats","device":"cuda"})")),
             QString("attention.mode: window+linear attention runs on the CPU only (its kernel, "
                     "engine/kernels/window_linear_attention.h); device is \"cuda\" (method "
                     "lolcats's default; \"attention\": {\"mode\": \"linear\"} runs linear "
                     "attention)"));
  }

  void errors_name_the_field_data() {
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not an object") << R"({"attention":["linear"]})"
                                   << "attention: expected an object, got array";
    QTest::newRow("unknown key") << R"({"attention":{"softmax":[0]}})"
                                 << "attention.softmax: unknown key";
    QTest::newRow("too few blocks")
        << R"({"attention":{"blocks":["softmax","linear"]}})"
        << "attention.blocks: 2 entries for a model of 4 blocks (model.depth): give one per block";
    QTest::newRow("too many blocks")
        << R"({"model":{"preset":"fmnist_micro"},"attention":{"blocks":["linear","linear","linear"]}})"
        << "attention.blocks: 3 entries for a model of 2 blocks (model.depth)";
    QTest::newRow("unknown mode")
        << R"({"attention":{"blocks":["softmax","linear","window","linear"]}})"
        << "attention.blocks[2]: unknown attention \"window\" (allowed: softmax, linear, "
           "window+linear)";
    QTest::newRow("blocks not strings") << R"({"attention":{"blocks":[0,1,2,3]}})"
                                        << "attention.blocks[0]: expected a string, got integer";
    QTest::newRow("blocks not a list") << R"({"attention":{"blocks":"linear"}})"
                                       << "attention.blocks: expected an array of strings";
    QTest::newRow("block index out of range")
        << R"({"attention":{"softmax_blocks":[0,4]}})"
        << "attention.softmax_blocks[1]: out of range: 4 (allowed 0..3)";
    QTest::newRow("negative block index") << R"({"attention":{"softmax_blocks":[-1]}})"
                                          << "attention.softmax_blocks[0]: out of range: -1";
    QTest::newRow("block listed twice") << R"({"attention":{"softmax_blocks":[1,2,1]}})"
                                        << "attention.softmax_blocks[2]: block 1 is listed twice";
    QTest::newRow("block index not an integer")
        << R"({"attention":{"softmax_blocks":[1.5]}})"
        << "attention.softmax_blocks[0]: expected an integer, got number";
    QTest::newRow("even window") << R"({"attention":{"mode":"window+linear","window":4}})"
                                 << "attention.window: must be odd (a k x k window centred on "
                                    "its query), got 4";
    QTest::newRow("negative window") << R"({"attention":{"window":-3}})"
                                     << "attention.window: out of range: -3 (allowed 1..4095)";
    QTest::newRow("zero window") << R"({"attention":{"window":0}})"
                                 << "attention.window: out of range: 0";
    QTest::newRow("window not an integer") << R"({"attention":{"window":"3"}})"
                                           << "attention.window: expected an integer, got string";
    QTest::newRow("unknown others' mode") << R"({"attention":{"mode":"quadratic"}})"
                                          << "attention.mode: unknown value \"quadratic\"";
    QTest::newRow("softmax as the others' mode")
        << R"({"attention":{"mode":"softmax"}})"
        << "attention.mode: \"softmax\" is not a linearised attention";
    QTest::newRow("both forms")
        << R"({"attention":{"blocks":["linear","linear","linear","linear"],"softmax_blocks":[0]}})"
        << "attention.softmax_blocks: attention.blocks names every block's attention already";
    QTest::newRow("blocks with mode")
        << R"({"attention":{"blocks":["linear","linear","linear","linear"],"mode":"linear"}})"
        << "attention.mode: attention.blocks names every block's attention already";
    QTest::newRow("nothing linearised")
        << R"({"attention":{"blocks":["softmax","softmax","softmax","softmax"]}})"
        << "attention.blocks: every block is softmax: nothing to linearise";
    QTest::newRow("every block listed softmax")
        << R"({"attention":{"softmax_blocks":[3,2,1,0]}})"
        << "attention.softmax_blocks: every block is softmax: nothing to linearise";
    QTest::newRow("window with performer")
        << R"({"method":"performer","attention":{"blocks":["linear","window+linear","linear","linear"]}})"
        << "attention.blocks: window+linear attention needs a feature map without performer's";
    QTest::newRow("window on cuda")
        << R"({"device":"cuda","attention":{"mode":"window+linear"}})"
        << "attention.mode: window+linear attention runs on the CPU only";
  }
  void errors_name_the_field() {
    QFETCH(QString, doc);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(adala_test::config_error_of(doc.toStdString()));
    QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
  }

  void a_plan_of_another_depth_is_refused_where_it_is_used() {
    ExperimentConfig c = adala_test::micro_experiment_config(1);
    c.attention = uniform_attention_plan(3, M::Linear);
    try {
      student_attention_plan(c);
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("attention.blocks"));
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestAttentionPlanConfig)
}  // namespace test_attention_plan_config

#include "test_attention_plan_config.moc"
