// ViTConfig's one field list: every field round-trips through JSON (checkpoint metadata) and
// is accepted by the experiment reader, with the value it was given.
#include <QtTest/QtTest>

#include <string>
#include <variant>

#include "engine/model/overloaded.h"
#include "engine/model/vit_config.h"
#include "engine/model/vit_config_json.h"
#include "engine/train/config/experiment_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_vit_config_fields {

using namespace adala;

namespace {

// fmnist_micro with one head, so that any embed_dim is valid.
ViTConfig base_config() {
  ViTConfig c = vit_preset("fmnist_micro");
  c.num_heads = 1;
  return c;
}

// `base` with one field changed to another valid value.
ViTConfig with_changed_field(const ViTConfig& base, const ViTConfigField& field) {
  ViTConfig c = base;
  std::visit(Overloaded{[&](std::string ViTConfig::*text) {
                          // A field with a list of choices changes to another of them.
                          if (field.choices)
                            c.*text = field.choices->at(field.choices->at(0) == c.*text ? 1 : 0);
                          else
                            c.*text += "_changed";
                        },
                        [&](int64_t ViTConfig::*integer) {
                          // The patch grid must still tile the image (the reader checks it).
                          if (integer == &ViTConfig::img_size)
                            c.img_size += c.patch_size;
                          else if (integer == &ViTConfig::patch_size)
                            c.patch_size /= 2;
                          else
                            c.*integer += 1;
                        },
                        [&](double ViTConfig::*number) { c.*number *= 0.5; },
                        [&](bool ViTConfig::*boolean) { c.*boolean = !(c.*boolean); }},
             field.member);
  return c;
}

QString describe(const ViTConfig& c) {
  return QString::fromStdString(vit_config_to_json(c).dump());
}

}  // namespace

class TestViTConfigFields : public QObject {
  Q_OBJECT
 private slots:
  void every_member_is_listed_once() {
    const auto& fields = vit_config_fields();
    QCOMPARE(fields.size(), size_t(21));
    for (const auto& field : fields) {
      QCOMPARE(find_vit_config_field(field.name), &field);
      QVERIFY2(!(with_changed_field(base_config(), field) == base_config()), field.name);
    }
    QVERIFY(find_vit_config_field("preset") == nullptr);
    QVERIFY(find_vit_config_field("nmae") == nullptr);
  }

  void every_field_round_trips_through_json() {
    for (const auto& field : vit_config_fields()) {
      const ViTConfig changed = with_changed_field(base_config(), field);
      const ViTConfig back = vit_config_from_json(Json::parse(vit_config_to_json(changed).dump()));
      QVERIFY2(back == changed, qPrintable(QString(field.name) + ": " + describe(back)));
    }
    QCOMPARE(vit_config_to_json(base_config()).size(), vit_config_fields().size());
  }

  void experiment_reader_accepts_every_field() {
    for (const auto& field : vit_config_fields()) {
      const ViTConfig changed = with_changed_field(base_config(), field);
      const std::string value = vit_config_to_json(changed).at(field.name).dump();
      std::string model = "{\"preset\":\"fmnist_micro\",";
      if (std::string(field.name) != "num_heads") model += "\"num_heads\":1,";
      model += "\"" + std::string(field.name) + "\":" + value + "}";
      try {
        const ExperimentConfig c =
            parse_experiment_config(Json::parse("{\"model\":" + model + "}"));
        QVERIFY2(c.model == changed, qPrintable(QString(field.name) + ": " + describe(c.model)));
      } catch (const ConfigError& e) {
        QFAIL(qPrintable(QString(field.name) + " refused: " + e.what()));
      }
    }
  }

  void experiment_reader_checks_the_listed_ranges() {
    for (const auto& [doc, expected] :
         {std::pair{"{\"model\":{\"norm_eps\":0}}", "model.norm_eps: out of range: 0"},
          std::pair{"{\"model\":{\"layer_scale_init\":-1}}",
                    "model.layer_scale_init: out of range"},
          std::pair{"{\"model\":{\"no_embed_class\":1}}",
                    "model.no_embed_class: expected true or false"},
          std::pair{"{\"model\":{\"depth\":257}}", "model.depth: out of range: 257"},
          std::pair{"{\"model\":{\"feature_map\":\"favor\"}}",
                    "model.feature_map: unknown value \"favor\" (allowed: elu1, relu, "
                    "hedgehog, performer)"},
          std::pair{"{\"model\":{\"performer_features\":-1}}",
                    "model.performer_features: out of range: -1"},
          std::pair{"{\"model\":{\"performer_features\":65537}}",
                    "model.performer_features: out of range: 65537"},
          std::pair{"{\"model\":{\"performer_redraw_interval\":-5}}",
                    "model.performer_redraw_interval: out of range: -5"},
          std::pair{"{\"model\":{\"performer_redraw_interval\":1.5}}",
                    "model.performer_redraw_interval: expected an integer"},
          std::pair{"{\"model\":{\"performer_seed\":-1}}",
                    "model.performer_seed: out of range: -1"},
          std::pair{"{\"model\":{\"feature_map\":1}}", "model.feature_map: expected a string"}}) {
      QString message;
      try {
        parse_experiment_config(Json::parse(doc));
      } catch (const ConfigError& e) {
        message = e.what();
      }
      QVERIFY2(message.startsWith(expected), qPrintable(message));
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestViTConfigFields)
}  // namespace test_vit_config_fields

#include "test_vit_config_fields.moc"
