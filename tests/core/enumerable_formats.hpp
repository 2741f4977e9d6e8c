// The formats small enough to enumerate: the catalog's of at most 16 bits and the tests' custom ones.
#pragma once

#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "mpfr_reference.hpp"

namespace floatscope::test {

inline std::vector<core::FormatSpec> enumerable_formats() {
    std::vector<core::FormatSpec> formats;
    for (const core::FormatSpec& f : core::catalog_formats())
        if (f.total_bits() <= 16) formats.push_back(f);
    for (const std::string& name : custom_format_names) formats.push_back(core::parse_format(name));
    return formats;
}

}  // namespace floatscope::test
