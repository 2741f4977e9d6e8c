// Workload parameters: the schema a workload publishes (the CLI lists it, the GUI builds its form
// from it) and the validated values a run receives.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::emu {

enum class ParameterType {
    Integer,  ///< whole number within [min, max]
    Real,  ///< double within [min, max]
    Boolean,  ///< true/false (also 1/0, yes/no, on/off)
    Choice,  ///< one of `choices`
    Text,  ///< free text (a file path, a format name); checked by the workload
};

/// "integer" "real" "boolean" "choice" "text".
const char* to_string(ParameterType type);

struct ParameterSpec {
    std::string name;  ///< lower-case, '-' between words: "init-scale"
    ParameterType type = ParameterType::Integer;
    std::string default_value;  ///< as the user would type it
    double min = 0;  ///< Integer and Real only
    double max = 0;
    std::vector<std::string> choices;  ///< Choice only
    std::string help;  ///< one sentence
};

/// The values of one run: every parameter of the schema, validated, defaults filled in.
class Parameters {
public:
    Parameters() = default;
    /// Checks `assignments` ("name=value", as `--set` gives them) against `schema` and fills in the
    /// defaults. Throws floatscope::Error naming the parameter and what would be valid (unknown
    /// names list the schema's names; values out of range give the range; choices list the choices).
    static Parameters parse(const std::vector<ParameterSpec>& schema, const std::vector<std::string>& assignments);
    /// The same from name -> value pairs.
    static Parameters from_map(const std::vector<ParameterSpec>& schema,
                               const std::map<std::string, std::string>& values);

    long long integer(std::string_view name) const;
    double real(std::string_view name) const;  ///< Real, and Integer read as a double
    bool boolean(std::string_view name) const;
    const std::string& text(std::string_view name) const;  ///< the normalised text of any parameter

    /// Every parameter as name -> normalised text, in schema order (reports, sessions).
    const std::vector<std::pair<std::string, std::string>>& values() const { return values_; }

private:
    const std::pair<std::string, std::string>& find(std::string_view name) const;
    std::vector<std::pair<std::string, std::string>> values_;
    std::vector<ParameterType> types_;
};

}  // namespace floatscope::emu
