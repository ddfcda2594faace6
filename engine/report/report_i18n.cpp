#include "engine/report/report_i18n.h"

#include <utility>

namespace adala::report {

namespace {

Translator& installed() {
  static Translator translator;
  return translator;
}

// What QCoreApplication::translate does without a translation: the source, %n -> n.
std::string identity(const char* source, int n) {
  std::string text = source ? source : "";
  if (n < 0) return text;
  const std::string number = std::to_string(n);
  for (size_t at = text.find("%n"); at != std::string::npos;
       at = text.find("%n", at + number.size()))
    text.replace(at, 2, number);
  return text;
}

}  // namespace

void set_translator(Translator translator) { installed() = std::move(translator); }

std::string translate(const char* context, const char* source, const char* disambiguation, int n) {
  if (const Translator& t = installed()) return t(context, source, disambiguation, n);
  return identity(source, n);
}

}  // namespace adala::report
