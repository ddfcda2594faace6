#include <QtTest/QtTest>

#include "engine/core/json.h"

using adala::Json;
using adala::JsonError;

class TestJson : public QObject {
  Q_OBJECT
 private slots:
  void round_trip() {
    const std::string text =
        "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"x\\\"y\\u00e9\"},\"e\":-2.5e-3}";
    Json v = Json::parse(text);
    QCOMPARE(v.at("a").as_int(), int64_t(1));
    QCOMPARE(v.at("b").size(), size_t(3));
    QCOMPARE(QString::fromStdString(v.at("c").at("d").as_string()), QString::fromUtf8("x\"y\xc3\xa9"));
    QCOMPARE(v.at("e").as_double(), -2.5e-3);
    Json again = Json::parse(v.dump(2));
    QCOMPARE(QString::fromStdString(again.dump()), QString::fromStdString(v.dump()));
  }
  void numbers_print_short_and_exact() {
    QCOMPARE(QString::fromStdString(Json(0.1).dump()), QString("0.1"));
    QCOMPARE(QString::fromStdString(Json(0.005062).dump()), QString("0.005062"));
    for (double v : {1.0 / 3.0, 2.0 / 7.0 * 1e-12, 123456.789012345678, -4.9e-300})
      QCOMPARE(Json::parse(Json(v).dump()).as_double(), v);
  }

  void errors_say_where() {
    for (const char* bad : {"{", "{\"a\":}", "[1,]", "{\"a\":1,\"a\":2}", "tru", "\"abc", "1 2", "{'a':1}"}) {
      bool threw = false;
      try {
        Json::parse(bad);
      } catch (const JsonError& e) {
        threw = std::string(e.what()).find("at byte") != std::string::npos;
      }
      QVERIFY2(threw, bad);
    }
  }
  void type_errors() {
    Json v = Json::parse("{\"n\":1.5}");
    QVERIFY_EXCEPTION_THROWN(v.at("n").as_int(), JsonError);
    QVERIFY_EXCEPTION_THROWN(v.at("n").as_string(), JsonError);
    QVERIFY_EXCEPTION_THROWN(v.at("missing"), JsonError);
  }
};

QTEST_GUILESS_MAIN(TestJson)
#include "test_json.moc"
