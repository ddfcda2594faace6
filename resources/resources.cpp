#include "resources/resources.h"

#include <QFile>

namespace adala {

QIcon workbenchIcon(const QString& name) {
  const QString path = QStringLiteral(":/icons/%1.svg").arg(name);
  return QFile::exists(path) ? QIcon(path) : QIcon();
}

}  // namespace adala
