// Every plot a Report has data for.
#include "plots/report_plots.hpp"

namespace floatscope::plots {

ReportPlots all_report_plots(const emu::Report& report) {
    ReportPlots all;
    std::vector<PlotModel> normwise = error_growth_plots(report, ErrorMeasure::NormwiseRelError);
    // The unfloored componentwise maximum is the headline of reports that predate the normwise error.
    std::vector<PlotModel> unfloored =
        normwise.empty() ? error_growth_plots(report, ErrorMeasure::RelativeErrorMax) : std::vector<PlotModel>{};
    for (std::vector<PlotModel> group :
         {std::move(normwise), error_growth_plots(report, ErrorMeasure::ComponentwiseRelErrorMax), std::move(unfloored),
          error_growth_plots(report, ErrorMeasure::BitsCorrectMin),
          error_growth_plots(report, ErrorMeasure::BitsOfError), value_range_histograms(report), training_plots(report),
          refinement_plots(report), quantization_plots(report), quantization_tradeoff_plots(report)})
        for (PlotModel& plot : group) all.plots.push_back(std::move(plot));
    for (const ExceptionClass exception : {ExceptionClass::Overflow, ExceptionClass::Underflow, ExceptionClass::NaN})
        for (HeatmapModel& heatmap : exception_heatmaps(report, exception, CellValue::Fraction))
            all.heatmaps.push_back(std::move(heatmap));
    for (HeatmapModel& heatmap : quantization_heatmaps(report)) all.heatmaps.push_back(std::move(heatmap));
    return all;
}

}  // namespace floatscope::plots
