#pragma once
// The workbench's embedded icons, by name ("start", "pause", ...): :/icons/<name>.svg.
#include <QIcon>
#include <QString>

namespace adala {

QIcon workbenchIcon(const QString& name);

}  // namespace adala
