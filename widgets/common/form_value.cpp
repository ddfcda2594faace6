#include "widgets/common/form_value.h"

#include <cmath>

namespace adala::widgets {

QJsonValue parseScalar(const QString& text) {
  const QString t = text.trimmed();
  bool ok = false;
  const qlonglong i = t.toLongLong(&ok);
  if (ok) return QJsonValue(static_cast<qint64>(i));
  const double d = t.toDouble(&ok);
  if (ok && std::isfinite(d)) return QJsonValue(d);
  if (t == QLatin1String("true")) return QJsonValue(true);
  if (t == QLatin1String("false")) return QJsonValue(false);
  return QJsonValue(t);
}

}  // namespace adala::widgets
