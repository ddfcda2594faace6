#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"
#include "engine/report/report_writers.h"

namespace adala::report {

std::string figure_caption(const ReportFigure& figure) {
  return arg(AdalaReport::tr("Figure %1."), {std::to_string(figure.number)}) + ' ' + figure.caption;
}

std::string file_figure_png(const ReportFigure& figure) {
  if (figure.is_chart()) return {};
  std::ifstream file(figure.image_path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  std::string png = bytes.str();
  return starts_with(png, "\x89PNG") ? png : std::string();
}

bool write_file_atomically(const std::string& path, const std::string& bytes, std::string* error) {
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  auto fail = [&](int code) {
    if (error) *error = "cannot write " + path + ": " + std::strerror(code);
    std::remove(temporary.c_str());
    return false;
  };
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) return fail(errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int write_error = errno;
  if (std::fclose(file) != 0 || !written) return fail(written ? errno : write_error);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) return fail(errno);
  return true;
}

}  // namespace adala::report
