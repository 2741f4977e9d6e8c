// Resolving scalar format names against the catalog, suggesting among catalog and block names.
#include "app/cli/format_name.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/unknown_format_error.hpp"
#include "emulation/quantize/block_format.hpp"

namespace floatscope::cli {

core::FormatSpec parse_scalar_format(std::string_view name) {
    try {
        return core::parse_format(name);
    } catch (const core::UnknownFormatError& unknown) {
        const std::vector<std::string>& blocks = emu::block_format_names();
        const std::string base(name.substr(0, name.find(':')));
        for (const std::string& block : blocks)
            if (block == base)
                throw Error(
                    fmt::format("'{}' is a block-scaled format (one scale per block of values); this "
                                "command takes a scalar format, such as its element format (floatscope-cli "
                                "formats lists both kinds)",
                                name));
        std::vector<std::string> candidates = core::known_format_names();
        candidates.insert(candidates.end(), blocks.begin(), blocks.end());
        throw core::UnknownFormatError(unknown.name(), candidates);
    }
}

}  // namespace floatscope::cli
