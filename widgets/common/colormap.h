#pragma once
// Colour maps for attention maps, through OpenCV's applyColorMap (the one place widgets use
// OpenCV). Values map linearly to 0..255 on [vmin, vmax], then through the colour map.
#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

namespace adala::widgets {

enum class Colormap { Viridis, Inferno, Magma, Turbo, Jet };

QStringList colormapNames();  // in enum order, for a combo box
int opencvColormap(Colormap map);

// The 0..255 level of a value on the scale (what the colour map is applied to).
int colormapLevel(double value, double vmin, double vmax);
QColor colormapColor(Colormap map, int level);

// A gridWidth x gridHeight RGB image: one pixel per value (row-major, `values` from `offset`).
QImage colormapGrid(const float* values, int gridHeight, int gridWidth, double vmin, double vmax,
                    Colormap map);
// A vertical colour bar, top = vmax.
QImage colourBar(Colormap map, int width, int height);

// Alpha blend of a colour-mapped overlay (opacity in [0, 1]) over a base image of the same size.
QImage blendOverlay(const QImage& base, const QImage& overlay, double opacity);

}  // namespace adala::widgets
