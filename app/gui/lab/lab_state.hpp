// LabState: what every view of the format lab shares - known formats, chosen ones, rounding, the
// value, a bit edit shown against it, and the undo history of value changes.
#pragma once

#include <QObject>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/lab/entered_value.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"
#include "core/stochastic_source.hpp"

class QSettings;
class QUndoStack;

namespace floatscope::gui {

class LabState : public QObject {
    Q_OBJECT
public:
    /// Starts with the catalog, the default chosen formats, rne and the value 0.1.
    explicit LabState(QObject* parent = nullptr);

    /// Catalog formats, then custom ones in the order they were added.
    const std::vector<core::FormatSpec>& formats() const { return formats_; }
    bool is_custom(const std::string& name) const;
    /// The descriptor a custom format was added with (format_descriptor.hpp); empty otherwise.
    std::string custom_descriptor(const std::string& name) const;
    /// Throws floatscope::Error listing the known names when there is no such format.
    const core::FormatSpec& format(const std::string& name) const;

    /// The chosen formats in the order of formats().
    std::vector<core::FormatSpec> chosen_formats() const;
    QStringList chosen_names() const;
    bool is_chosen(const std::string& name) const;
    /// Unknown names throw floatscope::Error (nothing changes then).
    void set_chosen(const QStringList& names);
    void set_chosen(const std::string& name, bool chosen);

    /// Adds a validated custom format under its name and chooses it. Throws floatscope::Error when
    /// the spec is invalid or the name is empty or taken.
    void add_custom_format(const core::FormatSpec& spec);
    void remove_custom_format(const std::string& name);

    core::RoundingMode rounding_mode() const { return mode_; }
    void set_rounding_mode(core::RoundingMode mode);
    /// Options for the chosen mode; stochastic modes restart from the default seed on every call,
    /// so that the same value always shows the same rounding.
    core::RoundingOptions rounding_options() const;

    /// The reference value: what every row rounds, and what a bit edit is measured against.
    const EnteredValue& value() const { return value_; }
    /// Sets the reference and drops any bit edit; undoable. `typing`: a keystroke of the value
    /// entry, merged into one undo step with the keystrokes before it.
    void set_value(EnteredValue value, bool typing = false);
    /// Parses as parse_entered_value does (bit patterns of the first chosen format by default) and
    /// sets the value; throws floatscope::Error and keeps the old value on bad text.
    void set_value_text(const std::string& text, bool typing = false);

    /// A pattern edited in one row (a bit flipped, next up): that row shows it against the
    /// reference, the other rows keep rounding the reference. Undoable; `continuing`: a later cell
    /// of one drag, joined with the edits before it into one undo step.
    const std::optional<BitPattern>& edit() const { return edit_; }
    void set_edit(BitPattern pattern, bool continuing = false);
    /// Makes the edited pattern the reference value (every row then rounds it).
    void adopt_edit();

    /// Undo and redo of values and edits (Edit > Undo, Ctrl+Z).
    QUndoStack* undo_stack() const { return undo_; }

    /// Chosen formats, custom formats (name and descriptor), rounding mode, value and bit edit.
    void save(QSettings& settings) const;
    /// Reads what save wrote; entries that no longer parse are skipped.
    void load(QSettings& settings);

    /// Replaces the value and the edit as they are, outside the undo history (undo and redo use it).
    void restore_value(EnteredValue value, std::optional<BitPattern> edit);

signals:
    void formats_changed();
    void chosen_changed();
    void rounding_changed();
    void value_changed();

private:
    std::vector<core::FormatSpec> formats_;
    std::vector<std::pair<std::string, std::string>> custom_;  // name, descriptor
    std::vector<std::string> chosen_;
    core::RoundingMode mode_ = core::RoundingMode::NearestEven;
    mutable core::StochasticSource random_;
    EnteredValue value_;
    std::optional<BitPattern> edit_;
    QUndoStack* undo_ = nullptr;
};

/// How a value is written to be read back by parse_entered_value: FORMAT:HEX for a bit pattern (so
/// that NaN payloads and -0 come back as they were), the text otherwise.
std::string value_spelling(const LabState& state, const EnteredValue& value);

/// The formats chosen on first start: fp64 fp32 tf32 bf16 fp16 fp8_e4m3 fp8_e5m2 fp4_e2m1 nf4 int8.
QStringList default_chosen_formats();

}  // namespace floatscope::gui
