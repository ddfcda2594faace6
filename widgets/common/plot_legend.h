#pragma once
// Legends that never sit on the data, and that switch graphs on and off: the legend moves
// out of the axis rect (to its right or under it), and a click on an entry hides or shows
// that graph (its entry greyed while hidden).
#include <functional>

class QCustomPlot;
class QCPAbstractPlottable;

namespace adala::widgets {

enum class LegendPlace { Right, Below };

// Moves `plot`'s legend out of the axis rect into the plot layout (row of the axis rect, to
// the right; or a row under it). Call once, after any title row was inserted.
void placeLegendOutside(QCustomPlot* plot, LegendPlace place);

// A click on a legend entry toggles the visibility of its plottable and replots; `toggled`
// (optional) hears of it afterwards.
void enableLegendToggle(QCustomPlot* plot, std::function<void(QCPAbstractPlottable*)> toggled = {});

// Greys a hidden plottable's entry, restores a visible one's (after a palette change).
void updateLegendItemColors(QCustomPlot* plot);

}  // namespace adala::widgets
