#include <QtTest/QtTest>

#include <string>

#include "engine/json/json.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_json {

using adala::Json;
using adala::json_type_name;
using adala::JsonError;
using adala::parse_json_strict;

namespace {

// The message of the JsonError that parsing `text` throws ("" when it parses).
std::string parse_error(const std::string& text) {
  try {
    parse_json_strict(text);
  } catch (const JsonError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestJson : public QObject {
  Q_OBJECT
 private slots:
  void round_trip() {
    const std::string text =
        "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"x\\\"y\\u00e9\"},\"e\":-2.5e-3}";
    Json v = parse_json_strict(text);
    QCOMPARE(v.at("a").get<int64_t>(), int64_t(1));
    QCOMPARE(v.at("b").size(), size_t(3));
    QCOMPARE(QString::fromStdString(v.at("c").at("d").get<std::string>()),
             QString::fromUtf8("x\"y\xc3\xa9"));
    // The parser and the compiler both round "-2.5e-3" to the nearest double.
    ADALA_COMPARE_EXACT(v.at("e").get<double>(), -2.5e-3);
    Json again = parse_json_strict(v.dump(2));
    QCOMPARE(QString::fromStdString(again.dump()), QString::fromStdString(v.dump()));
    QCOMPARE(
        QString::fromStdString(v.dump()),
        QString::fromUtf8(
            "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"x\\\"y\xc3\xa9\"},\"e\":-0.0025}"));
  }
  void keys_keep_insertion_order() {
    Json v = parse_json_strict("{\"z\":1,\"a\":{\"y\":2,\"b\":3}}");
    v["m"] = 4;
    QCOMPARE(QString::fromStdString(v.dump()),
             QString("{\"z\":1,\"a\":{\"y\":2,\"b\":3},\"m\":4}"));
  }
  void numbers_print_short_and_exact() {
    QCOMPARE(QString::fromStdString(Json(0.1).dump()), QString("0.1"));
    QCOMPARE(QString::fromStdString(Json(0.005062).dump()), QString("0.005062"));
    for (double v : {1.0 / 3.0, 2.0 / 7.0 * 1e-12, 123456.789012345678, -4.9e-300})
      ADALA_COMPARE_EXACT(parse_json_strict(Json(v).dump()).get<double>(), v);  // round trip
  }

  void errors_say_where() {
    for (const char* bad :
         {"{", "{\"a\":}", "[1,]", "{\"a\":1,\"a\":2}", "tru", "\"abc", "1 2", "{'a':1}", ""}) {
      const std::string what = parse_error(bad);
      QVERIFY2(what.rfind("JSON parse error at byte ", 0) == 0, bad);
    }
    QCOMPARE(
        QString::fromStdString(parse_error("[1,]")),
        QString("JSON parse error at byte 4: syntax error while parsing value - unexpected ']'; "
                "expected '[', '{', or a literal"));
  }
  void duplicate_keys_are_refused_with_their_offset() {
    QCOMPARE(QString::fromStdString(parse_error("{\"a\":1,\"a\":2}")),
             QString("JSON parse error at byte 10: duplicate key \"a\""));
    // Nested, after other values: the offset is just past the second key's closing quote.
    const std::string nested = "{\"x\":[1,{\"k\":null}],\"y\":{\"k\":1,\"j\":2,\"k\":3}}";
    QCOMPARE(
        QString::fromStdString(parse_error(nested)),
        QString("JSON parse error at byte %1: duplicate key \"k\"").arg(nested.rfind("\"k\"") + 3));
    try {
      parse_json_strict(nested);
    } catch (const JsonError& e) {
      QCOMPARE(e.byte(), nested.rfind("\"k\"") + 3);
    }
    // The same key in sibling objects is fine.
    QCOMPARE(parse_json_strict("[{\"a\":1},{\"a\":2}]").at(1).at("a").get<int>(), 2);
  }
  // Objects with many keys (a safetensors header lists one per tensor): every key kept in
  // order, a duplicate far down still found at its offset.
  void many_keys_keep_order_and_duplicates_are_found() {
    std::string text = "{";
    const int n = 50000;
    for (int i = 0; i < n; ++i)
      text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    const std::string valid = text + "}";
    const Json v = parse_json_strict(valid);
    QCOMPARE(v.size(), size_t(n));
    int i = 0;
    for (const auto& [key, value] : v.items()) {
      QCOMPARE(key, "k" + std::to_string(i));
      QCOMPARE(value.get<int>(), i);
      ++i;
    }
    const std::string duplicated = text + ",\"k123\":0}";
    QCOMPARE(
        QString::fromStdString(parse_error(duplicated)),
        QString("JSON parse error at byte %1: duplicate key \"k123\"").arg(duplicated.size() - 3));
    // The same key in sibling objects is no duplicate.
    QCOMPARE(parse_json_strict("[{\"a\":1},{\"a\":2},{\"b\":{\"a\":3}}]").size(), size_t(3));
  }

  void invalid_utf8_and_lone_surrogates_are_refused() {
    const struct {
      const char* text;
      const char* what;
    } cases[] = {
        {"{\"a\xff\":1}", "ill-formed UTF-8"},       // a byte that is never UTF-8
        {"[\"\xc3\"]", "ill-formed UTF-8"},          // a sequence cut short
        {"[\"\xc0\xaf\"]", "ill-formed UTF-8"},      // an overlong '/'
        {"[\"\xed\xa0\x80\"]", "ill-formed UTF-8"},  // a surrogate encoded in UTF-8
        {"[\"\\ud800\"]", "surrogate U+D800..U+DBFF must be followed"},
        {"[\"\\udc00\"]", "surrogate U+DC00..U+DFFF must follow"},
        {"[\"\\ud800\\u0041\"]", "surrogate U+D800..U+DBFF must be followed"},
    };
    for (const auto& c : cases) {
      const std::string what = parse_error(c.text);
      QVERIFY2(what.rfind("JSON parse error at byte ", 0) == 0, c.text);
      QVERIFY2(what.find(c.what) != std::string::npos, what.c_str());
    }
    QCOMPARE(parse_json_strict("[\"\\ud83d\\ude00\"]").at(0).get<std::string>(),
             std::string("\xf0\x9f\x98\x80"));
  }

  void nesting_is_limited() {
    const std::string deep_ok = std::string(200, '[') + std::string(200, ']');
    QCOMPARE(parse_json_strict(deep_ok).size(), size_t(1));
    const std::string too_deep = std::string(300, '[') + std::string(300, ']');
    QCOMPARE(QString::fromStdString(parse_error(too_deep)),
             QString("JSON parse error at byte 257: nesting deeper than 256 levels"));
  }
  void types_are_named_like_the_config_errors_name_them() {
    const Json v =
        parse_json_strict("[1, -2, 1.5, \"s\", true, null, [], {}, 18446744073709551615]");
    const char* expected[] = {"integer", "integer", "number", "string", "boolean",
                              "null",    "array",   "object", "integer"};
    for (size_t i = 0; i < v.size(); ++i)
      QCOMPARE(QString(json_type_name(v[i])), QString(expected[i]));
  }
  void type_errors() {
    Json v = parse_json_strict("{\"n\":1.5}");
    QVERIFY(!v.at("n").is_number_integer());  // readers check this before taking an integer
    QVERIFY_EXCEPTION_THROWN(v.at("n").get<std::string>(), Json::type_error);
    QVERIFY_EXCEPTION_THROWN(v.at("missing"), Json::out_of_range);
  }
};

ADALA_TEST_GUILESS_MAIN(TestJson)
}  // namespace test_json

#include "test_json.moc"
