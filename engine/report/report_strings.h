#pragma once
// The translation context of every report string: AdalaReport::tr("...") is found by
// lupdate (context "AdalaReport") and translated through the installed QTranslator.
// Deliberately at global scope so the context lupdate records and the one tr() looks up
// are the same plain name.
#include <QCoreApplication>
#include <QString>

class AdalaReport {
  Q_DECLARE_TR_FUNCTIONS(AdalaReport)
};
