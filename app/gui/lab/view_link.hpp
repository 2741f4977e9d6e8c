// View links: the lab's state (formats, rounding, value, edit, shown view) as one line of text to
// copy, paste, pass as --state or keep in a session file, and to restore a view from.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floatscope::gui {

class LabState;

/// What a link holds, each part spelled as the lab reads it back.
struct ViewLink {
    std::vector<std::pair<std::string, std::string>> custom_formats;  ///< name, descriptor (format_descriptor.hpp)
    std::vector<std::string> formats;  ///< the chosen ones
    std::string rounding;  ///< rne, rtz, ...
    std::string value;  ///< as parse_entered_value reads it: 0.1, 1/3, fp16:3C00
    std::string edit;  ///< a row's edited pattern, FORMAT:HEX; empty for none
    std::string view;  ///< a MainWindow view name; empty keeps the current one
    friend bool operator==(const ViewLink&, const ViewLink&) = default;
};

/// "floatscope:1?custom=NAME!DESCRIPTOR&format=fp16&format=bf16&rounding=rne&value=0.1&view=bits",
/// every part percent-encoded.
std::string view_link_text(const ViewLink& link);

/// Reads what view_link_text writes. Throws floatscope::Error saying what is wrong (no
/// "floatscope:1?" prefix, an unknown key, a part that is not key=value, a missing value or
/// rounding); what the parts mean is checked by apply_view_link.
ViewLink parse_view_link(std::string_view text);

/// The lab's state as a link showing `view`.
ViewLink lab_view_link(const LabState& state, const std::string& view);

/// Adds the link's custom formats (ones already there under the same descriptor are kept), then
/// sets the chosen formats, rounding, value and edit. Everything is checked on a scratch state
/// first: on any error (a bad descriptor, an unknown format, a value that does not read, a name
/// taken by another definition) floatscope::Error says which part, and `state` is unchanged.
void apply_view_link(LabState& state, const ViewLink& link);

}  // namespace floatscope::gui
