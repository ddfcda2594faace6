#pragma once
// Translation without Qt: every user-visible word of the report goes through one hook,
// `Translator`, which the application backs with QCoreApplication::translate (see
// app/report_render/qt_report.h). By default it is the identity (English source strings;
// "%n" still becomes the number).
//
// lupdate finds the strings as before: ADALA_REPORT_TR_FUNCTIONS(AdalaReport) is an alias of
// Q_DECLARE_TR_FUNCTIONS (lupdate -tr-function-alias, see translations/CMakeLists.txt), so
// tr("...") inside such a class and AdalaReport::tr("...") elsewhere land in context
// "AdalaReport", the context of the existing .ts entries. ADALA_REPORT_TRANSLATE_NOOP is an
// alias of QT_TRANSLATE_NOOP, for strings translated later from a table.
#include <functional>
#include <string>

namespace adala::report {

// context, source text, disambiguation (may be null), n (-1: no plural form).
using Translator = std::function<std::string(const char*, const char*, const char*, int)>;

// Replaces the translator (an empty one restores the identity). Set it before building
// documents; it is read, not locked, while a document is built.
void set_translator(Translator translator);
std::string translate(const char* context, const char* source, const char* disambiguation = nullptr,
                      int n = -1);

}  // namespace adala::report

#define ADALA_REPORT_TR_FUNCTIONS(context)                                                      \
 public:                                                                                        \
  static std::string tr(const char* source, const char* disambiguation = nullptr, int n = -1) { \
    return ::adala::report::translate(#context, source, disambiguation, n);                     \
  }                                                                                             \
                                                                                                \
 private:

#define ADALA_REPORT_TRANSLATE_NOOP(context, source) source

// The report's translation context. Deliberately at global scope so the context lupdate
// records and the one translate() looks up are the same plain name.
class AdalaReport {
  ADALA_REPORT_TR_FUNCTIONS(AdalaReport)
};
