#pragma once
#include <string>

#include <QString>

namespace adala::report_render {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace adala::report_render
