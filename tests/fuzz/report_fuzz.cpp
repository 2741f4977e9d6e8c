// Fuzz target: report files (emu::read_csv, emu::read_json), as `merge` and the GUI read them.
// Input: a selector byte (even: CSV, odd: JSON), then the text. Property: a report read back
// from what the writers make of it is the same report, in either format.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "emulation/simulation/report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    fuzz::FuzzInput input(data, size);
    const bool json = input.byte() & 1;
    std::istringstream in(input.rest());
    emu::Report report;
    try {
        report = json ? emu::read_json(in) : emu::read_csv(in);
    } catch (const Error&) {
        return 0;
    }
    std::ostringstream csv, json_text;
    emu::write_csv(report, csv);
    emu::write_json(report, json_text);
    std::istringstream csv_in(csv.str()), json_in(json_text.str());
    try {
        if (!(emu::read_csv(csv_in) == report)) fuzz::property_failed("read_csv(write_csv(r)) == r", csv.str());
        if (!(emu::read_json(json_in) == report))
            fuzz::property_failed("read_json(write_json(r)) == r", json_text.str());
    } catch (const Error& e) {
        fuzz::property_failed("a written report reads back", e.what());
    }
    return 0;
}
