#pragma once
// Text typed into a numeric form field as the JSON value the experiment document gets.
#include <QJsonValue>
#include <QString>

namespace adala::widgets {

// An integer, a number, a boolean, else the text kept as a string (the engine then names the
// field and says what it expected).
QJsonValue parseScalar(const QString& text);

}  // namespace adala::widgets
