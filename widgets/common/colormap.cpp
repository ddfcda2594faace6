#include "widgets/common/colormap.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace adala::widgets {

QStringList colormapNames() {
  return {QCoreApplication::translate("adala::widgets", "viridis"),
          QCoreApplication::translate("adala::widgets", "inferno"),
          QCoreApplication::translate("adala::widgets", "magma"),
          QCoreApplication::translate("adala::widgets", "turbo"),
          QCoreApplication::translate("adala::widgets", "jet")};
}

int opencvColormap(Colormap map) {
  switch (map) {
    case Colormap::Viridis:
      return cv::COLORMAP_VIRIDIS;
    case Colormap::Inferno:
      return cv::COLORMAP_INFERNO;
    case Colormap::Magma:
      return cv::COLORMAP_MAGMA;
    case Colormap::Turbo:
      return cv::COLORMAP_TURBO;
    case Colormap::Jet:
      return cv::COLORMAP_JET;
  }
  return cv::COLORMAP_VIRIDIS;
}

int colormapLevel(double value, double vmin, double vmax) {
  if (!(vmax > vmin) || !std::isfinite(value)) return 0;
  const double t = (value - vmin) / (vmax - vmin);
  return std::clamp(static_cast<int>(std::lround(255.0 * t)), 0, 255);
}

namespace {

// The colour map's 256 colours as RGB, computed once per map.
const std::vector<QRgb>& lookup(Colormap map) {
  static std::vector<QRgb> tables[5];
  auto& table = tables[static_cast<int>(map)];
  if (table.empty()) {
    cv::Mat levels(1, 256, CV_8UC1);
    for (int i = 0; i < 256; ++i) levels.at<uchar>(0, i) = static_cast<uchar>(i);
    cv::Mat bgr;
    cv::applyColorMap(levels, bgr, opencvColormap(map));
    table.resize(256);
    for (int i = 0; i < 256; ++i) {
      const auto c = bgr.at<cv::Vec3b>(0, i);
      table[static_cast<size_t>(i)] = qRgb(c[2], c[1], c[0]);
    }
  }
  return table;
}

}  // namespace

QColor colormapColor(Colormap map, int level) {
  return QColor(lookup(map)[static_cast<size_t>(std::clamp(level, 0, 255))]);
}

QImage colormapGrid(const float* values, int gridHeight, int gridWidth, double vmin, double vmax,
                    Colormap map) {
  cv::Mat levels(gridHeight, gridWidth, CV_8UC1);
  for (int r = 0; r < gridHeight; ++r)
    for (int c = 0; c < gridWidth; ++c)
      levels.at<uchar>(r, c) =
          static_cast<uchar>(colormapLevel(values[r * gridWidth + c], vmin, vmax));
  cv::Mat bgr, rgb;
  cv::applyColorMap(levels, bgr, opencvColormap(map));
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  QImage image(gridWidth, gridHeight, QImage::Format_RGB888);
  for (int r = 0; r < gridHeight; ++r)
    std::copy_n(rgb.ptr<uchar>(r), gridWidth * 3, image.scanLine(r));
  return image;
}

QImage colourBar(Colormap map, int width, int height) {
  QImage bar(std::max(1, width), std::max(2, height), QImage::Format_RGB32);
  const auto& table = lookup(map);
  for (int y = 0; y < bar.height(); ++y) {
    const int level = 255 - static_cast<int>(std::lround(255.0 * y / (bar.height() - 1)));
    auto* line = reinterpret_cast<QRgb*>(bar.scanLine(y));
    std::fill(line, line + bar.width(), table[static_cast<size_t>(level)]);
  }
  return bar;
}

QImage blendOverlay(const QImage& base, const QImage& overlay, double opacity) {
  QImage out = base.convertToFormat(QImage::Format_RGB32);
  QPainter p(&out);
  p.setOpacity(std::clamp(opacity, 0.0, 1.0));
  p.drawImage(out.rect(), overlay);
  return out;
}

}  // namespace adala::widgets
