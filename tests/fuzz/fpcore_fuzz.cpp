// Fuzz target: FPCore text (emu::fpcore::parse_fpcores) and, with the selector's top bit set, the
// evaluator under small step and time limits (run_benchmarks). Input: a selector byte, then the
// text. Property: printing the parsed FPCores and parsing the print gives the same trees (the
// print of the reparse is the print itself).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/fpcore/fpcore.hpp"
#include "emulation/fpcore/runner.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace floatscope;
using namespace floatscope::emu::fpcore;

std::string print_all(const std::vector<FPCore>& cores) {
    std::string text;
    for (const FPCore& core : cores) text += print_fpcore(core) + "\n";
    return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput input(data, size);
    const std::uint8_t selector = input.byte();
    const std::string text = input.rest();
    std::vector<FPCore> cores;
    try {
        cores = parse_fpcores(text, "<fuzz>");
    } catch (const Error&) {
        return 0;
    }
    const std::string printed = print_all(cores);
    std::vector<FPCore> again;
    try {
        again = parse_fpcores(printed, "<printed>");
    } catch (const Error& e) {
        fuzz::property_failed("printed FPCores parse", printed + "\n" + e.what());
    }
    if (print_all(again) != printed) fuzz::property_failed("print, parse, print gives the same text", printed);
    if ((selector & 0x80) == 0) return 0;
    // Evaluation: a few samples in two formats, each evaluation held to 10^4 steps and 50 ms.
    RunOptions options;
    options.formats = {core::parse_format(selector & 1 ? "fp16" : "fp8_e4m3"), core::parse_format("fp32")};
    options.samples = 3;
    options.mpfr_precision = 80;
    options.limits.max_iterations = 10000;
    options.limits.max_seconds = 0.05;
    options.seconds_per_benchmark = 0.5;
    run_benchmarks(list_benchmarks({cores}), options);
    return 0;
}
