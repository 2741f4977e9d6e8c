// The cost model: JSON resource loading, memory by bits per value, roofline time and energy.
#include "core/cost_model.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"

namespace floatscope::core {

namespace {

template <typename Map>
std::string keys_of(const Map& map) {
    std::string text;
    for (const auto& [key, value] : map) text += (text.empty() ? "" : ", ") + key;
    return text;
}

HardwareSpec read_hardware(const nlohmann::json& j) {
    HardwareSpec h;
    h.name = j.at("name").get<std::string>();
    h.description = j.value("description", "");
    h.memory_bandwidth_gb_s = j.at("memory_bandwidth_gb_s").get<double>();
    h.memory_gb = j.at("memory_gb").get<double>();
    for (const auto& [format, tflops] : j.at("dense_tflops").items()) h.dense_tflops[format] = tflops.get<double>();
    h.source = j.at("source").get<std::string>();
    return h;
}

EnergyTable read_energy(const nlohmann::json& j) {
    EnergyTable e;
    for (const auto& [format, pj] : j.at("add_pj").items()) e.add_pj[format] = pj.get<double>();
    for (const auto& [format, pj] : j.at("multiply_pj").items()) e.multiply_pj[format] = pj.get<double>();
    for (const auto& [format, measured] : j.at("nearest_measured_format").items())
        if (format != "about") e.nearest_measured_format[format] = measured.get<std::string>();
    e.dram_pj_per_64_bits_low = j.at("dram_pj_per_64_bits_low").get<double>();
    e.dram_pj_per_64_bits_high = j.at("dram_pj_per_64_bits_high").get<double>();
    e.source = j.at("source").get<std::string>();
    return e;
}

}  // namespace

double EnergyTable::multiply_add_pj(std::string_view format) const {
    std::string measured(format);
    if (auto it = nearest_measured_format.find(format); it != nearest_measured_format.end()) measured = it->second;
    const auto add = add_pj.find(measured);
    const auto multiply = multiply_pj.find(measured);
    if (add == add_pj.end() || multiply == multiply_pj.end())
        throw Error(fmt::format("energy table: no add and multiply figures for '{}'; known: {} (and {})", format,
                                keys_of(multiply_pj), keys_of(nearest_measured_format)));
    return add->second + multiply->second;
}

const HardwareSpec& CostModel::find(std::string_view name) const {
    for (const HardwareSpec& h : hardware)
        if (h.name == name) return h;
    std::string known;
    for (const HardwareSpec& h : hardware) known += (known.empty() ? "" : ", ") + h.name;
    throw Error(fmt::format("unknown hardware '{}'; known: {}", name, known));
}

std::string resource_dir() {
    if (const char* dir = std::getenv("FLOATSCOPE_RESOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
    return FLOATSCOPE_RESOURCE_DIR;
}

CostModel load_cost_model(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw Error(
            fmt::format("cannot read the cost model '{}' (set FLOATSCOPE_RESOURCE_DIR to the folder "
                        "holding hardware.json)",
                        path));
    try {
        const nlohmann::json j = nlohmann::json::parse(in);
        CostModel model;
        for (const nlohmann::json& h : j.at("hardware")) model.hardware.push_back(read_hardware(h));
        model.energy = read_energy(j.at("energy"));
        return model;
    } catch (const nlohmann::json::exception& e) {
        throw Error(fmt::format("cost model '{}' is malformed: {}", path, e.what()));
    }
}

CostModel load_cost_model() { return load_cost_model(resource_dir() + "/hardware.json"); }

double memory_bytes(double parameters, double bits_per_value) { return parameters * bits_per_value / 8; }

std::string datasheet_format(const FormatSpec& format) {
    const int bits = format.total_bits();
    if (format.kind == FormatKind::Integer && format.has_sign && (bits == 8 || bits == 4))
        return "int" + std::to_string(bits);
    if (format.kind == FormatKind::Lookup && bits == 4) return "fp4";
    if (format.kind != FormatKind::Binary) return format.name;
    const std::pair<int, int> layout{format.exponent_bits, format.mantissa_bits};
    if (layout == std::pair{11, 52}) return "fp64";
    if (layout == std::pair{8, 23}) return "fp32";
    if (layout == std::pair{8, 10}) return "tf32";
    if (layout == std::pair{8, 7}) return "bf16";
    if (layout == std::pair{5, 10}) return "fp16";
    if (bits == 8 || bits == 6 || bits == 4) return "fp" + std::to_string(bits);
    return format.name;
}

double bytes_per_value(const FormatSpec& format) {
    // Formats wider than binary64 have no narrow properties; binary128 takes its 16 bytes.
    if (is_wider_than_binary64(format)) return format.total_bits() / 8.0;
    return format_properties(format).bytes_per_value;
}

CostEstimate estimate_cost(const CostModel& model, std::string_view hardware, const WorkloadCounts& work) {
    const HardwareSpec& h = model.find(hardware);
    CostEstimate c;
    double operation_pj = 0;
    for (const auto& [format, operations] : work.operations) {
        const auto peak = h.dense_tflops.find(format);
        if (peak == h.dense_tflops.end())
            throw Error(fmt::format("{} has no datasheet figure for '{}'; it lists {}", h.name, format,
                                    keys_of(h.dense_tflops)));
        c.compute_seconds += operations / (peak->second * 1e12);
        operation_pj += operations / 2 * model.energy.multiply_add_pj(format);  // two operations per FMA
    }
    c.memory_seconds = work.dram_bytes / (h.memory_bandwidth_gb_s * 1e9);
    c.seconds = std::max(c.compute_seconds, c.memory_seconds);
    const double accesses = work.dram_bytes / 8;  // 64-bit accesses
    c.energy_joules_low = (operation_pj + accesses * model.energy.dram_pj_per_64_bits_low) * 1e-12;
    c.energy_joules_high = (operation_pj + accesses * model.energy.dram_pj_per_64_bits_high) * 1e-12;
    c.fits_in_memory = work.resident_bytes <= h.memory_gb * 1e9;
    return c;
}

}  // namespace floatscope::core
