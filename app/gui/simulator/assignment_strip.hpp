// AssignmentStrip: the recommended setting of each unit as a row of coloured cells, one colour per
// format (the session's colour of that format, as its plots draw it), with a legend below.
#pragma once

#include <QWidget>
#include <vector>

#include "app/gui/simulator/tune_assignment.hpp"
#include "plots/series_colours.hpp"

namespace floatscope::gui {

class AssignmentStrip : public QWidget {
    Q_OBJECT
public:
    /// `colours` gives each setting its colour (shared with the plots, so bf16 is one colour); it
    /// must outlive the strip.
    AssignmentStrip(plots::SeriesColours& colours, QWidget* parent = nullptr);

    void set_assignment(std::vector<UnitSetting> settings);
    const std::vector<UnitSetting>& assignment() const { return settings_; }
    /// The distinct settings in the order of their first unit: the legend's entries.
    std::vector<std::string> legend() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    plots::SeriesColours& colours_;
    std::vector<UnitSetting> settings_;
    bool shown_ = false;  ///< an assignment was set (before: nothing to say)
};

}  // namespace floatscope::gui
