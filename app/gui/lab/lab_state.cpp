// The format lab's shared state and its persistence in QSettings.
#include "app/gui/lab/lab_state.hpp"

#include <QSettings>
#include <QUndoStack>
#include <algorithm>

#include <fmt/format.h>

#include "app/gui/lab/format_descriptor.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

namespace {

/// How a change joins the one before it in the undo history.
enum class Joins {
    Never,
    Typing,  ///< a keystroke: joins the keystrokes before it
    Edit,  ///< a bit edit that starts a click or a drag: joins nothing
    DragOn,  ///< a later cell of the same drag: joins the edit before it
};

/// One change of the value or the edit, undone by restoring what was there before.
class ValueChange : public QUndoCommand {
public:
    ValueChange(LabState& state, EnteredValue value, std::optional<BitPattern> edit, Joins joins)
        : state_(state),
          before_(state.value()),
          before_edit_(state.edit()),
          after_(std::move(value)),
          after_edit_(std::move(edit)),
          joins_(joins) {
        setText(after_edit_ ? QStringLiteral("bit edit")
                            : QStringLiteral("value ") + QString::fromStdString(after_.text));
    }
    void undo() override { state_.restore_value(before_, before_edit_); }
    void redo() override { state_.restore_value(after_, after_edit_); }
    int id() const override {
        switch (joins_) {
            case Joins::Typing: return 1;
            case Joins::Edit:
            case Joins::DragOn: return 2;
            case Joins::Never: break;
        }
        return -1;
    }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const ValueChange*>(other);
        if (next->joins_ == Joins::Edit) return false;
        after_ = next->after_;
        after_edit_ = next->after_edit_;
        return true;
    }

private:
    LabState& state_;
    EnteredValue before_;
    std::optional<BitPattern> before_edit_;
    EnteredValue after_;
    std::optional<BitPattern> after_edit_;
    Joins joins_;
};

}  // namespace

QStringList default_chosen_formats() {
    return {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2", "fp4_e2m1", "nf4", "int8"};
}

LabState::LabState(QObject* parent) : QObject(parent), formats_(core::catalog_formats()) {
    for (const QString& name : default_chosen_formats()) chosen_.push_back(name.toStdString());
    value_.text = "0.1";
    value_.exact = core::parse_exact_value(value_.text);
    undo_ = new QUndoStack(this);
}

bool LabState::is_custom(const std::string& name) const {
    return std::any_of(custom_.begin(), custom_.end(), [&](const auto& c) { return c.first == name; });
}

std::string LabState::custom_descriptor(const std::string& name) const {
    for (const auto& [custom_name, descriptor] : custom_)
        if (custom_name == name) return descriptor;
    return {};
}

const core::FormatSpec& LabState::format(const std::string& name) const {
    for (const core::FormatSpec& f : formats_)
        if (f.name == name) return f;
    std::string known;
    for (const core::FormatSpec& f : formats_) known += (known.empty() ? "" : ", ") + f.name;
    throw Error(fmt::format("unknown format '{}'; known formats: {}", name, known));
}

std::vector<core::FormatSpec> LabState::chosen_formats() const {
    std::vector<core::FormatSpec> chosen;
    for (const core::FormatSpec& f : formats_)
        if (is_chosen(f.name)) chosen.push_back(f);
    return chosen;
}

QStringList LabState::chosen_names() const {
    QStringList names;
    for (const core::FormatSpec& f : chosen_formats()) names << QString::fromStdString(f.name);
    return names;
}

bool LabState::is_chosen(const std::string& name) const {
    return std::find(chosen_.begin(), chosen_.end(), name) != chosen_.end();
}

void LabState::set_chosen(const QStringList& names) {
    std::vector<std::string> chosen;
    for (const QString& name : names) chosen.push_back(format(name.toStdString()).name);
    chosen_ = std::move(chosen);
    emit chosen_changed();
}

void LabState::set_chosen(const std::string& name, bool chosen) {
    format(name);
    if (chosen == is_chosen(name)) return;
    if (chosen)
        chosen_.push_back(name);
    else
        chosen_.erase(std::find(chosen_.begin(), chosen_.end(), name));
    emit chosen_changed();
}

void LabState::add_custom_format(const core::FormatSpec& spec) {
    if (spec.name.empty()) throw Error("a custom format needs a name");
    if (std::any_of(formats_.begin(), formats_.end(), [&](const auto& f) { return f.name == spec.name; }))
        throw Error(fmt::format("a format named '{}' exists already; choose another name", spec.name));
    const std::string descriptor = format_descriptor(spec);
    // What is kept is what the descriptor reads back to, so that a restart shows the same format.
    formats_.push_back(parse_format_descriptor(descriptor, spec.name));
    custom_.emplace_back(spec.name, descriptor);
    chosen_.push_back(spec.name);
    emit formats_changed();
    emit chosen_changed();
}

void LabState::remove_custom_format(const std::string& name) {
    if (!is_custom(name)) return;
    std::erase_if(formats_, [&](const core::FormatSpec& f) { return f.name == name; });
    std::erase_if(custom_, [&](const auto& c) { return c.first == name; });
    std::erase(chosen_, name);
    if (value_.pattern && value_.pattern->format == name) value_.pattern.reset();  // its text still holds the value
    if (edit_ && edit_->format == name) edit_.reset();
    undo_->clear();  // the history may name the format
    emit formats_changed();
    emit chosen_changed();
}

void LabState::set_rounding_mode(core::RoundingMode mode) {
    if (mode == mode_) return;
    mode_ = mode;
    emit rounding_changed();
}

core::RoundingOptions LabState::rounding_options() const {
    random_.reseed(core::StochasticSource::default_seed);
    core::RoundingOptions options;
    options.mode = mode_;
    options.random = &random_;
    return options;
}

void LabState::set_value(EnteredValue value, bool typing) {
    undo_->push(new ValueChange(*this, std::move(value), std::nullopt, typing ? Joins::Typing : Joins::Never));
}

void LabState::set_value_text(const std::string& text, bool typing) {
    const std::vector<core::FormatSpec> chosen = chosen_formats();
    const core::FormatSpec& pattern_format = chosen.empty() ? formats_.front() : chosen.front();
    set_value(parse_entered_value(text, formats_, pattern_format), typing);
}

void LabState::set_edit(BitPattern pattern, bool continuing) {
    format(pattern.format);
    undo_->push(new ValueChange(*this, value_, std::move(pattern), continuing ? Joins::DragOn : Joins::Edit));
}

void LabState::adopt_edit() {
    if (!edit_) return;
    set_value(entered_pattern(format(edit_->format), edit_->bits));
}

void LabState::restore_value(EnteredValue value, std::optional<BitPattern> edit) {
    value_ = std::move(value);
    edit_ = std::move(edit);
    emit value_changed();
}

std::string value_spelling(const LabState& state, const EnteredValue& value) {
    return value.pattern ? value.pattern->format + ":" +
                               core::format_bits_hex(state.format(value.pattern->format), value.pattern->bits)
                         : value.text;
}

void LabState::save(QSettings& settings) const {
    settings.beginWriteArray(QStringLiteral("lab/custom_formats"), static_cast<int>(custom_.size()));
    for (std::size_t i = 0; i < custom_.size(); ++i) {
        settings.setArrayIndex(static_cast<int>(i));
        settings.setValue(QStringLiteral("name"), QString::fromStdString(custom_[i].first));
        settings.setValue(QStringLiteral("descriptor"), QString::fromStdString(custom_[i].second));
    }
    settings.endArray();
    settings.setValue(QStringLiteral("lab/chosen_formats"), chosen_names());
    settings.setValue(QStringLiteral("lab/rounding"), QString::fromLatin1(core::to_string(mode_)));
    settings.setValue(QStringLiteral("lab/value"), QString::fromStdString(value_spelling(*this, value_)));
    if (edit_)
        settings.setValue(QStringLiteral("lab/edit"), QString::fromStdString(value_spelling(
                                                          *this, entered_pattern(format(edit_->format), edit_->bits))));
    else
        settings.remove(QStringLiteral("lab/edit"));
}

void LabState::load(QSettings& settings) {
    const int count = settings.beginReadArray(QStringLiteral("lab/custom_formats"));
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        try {
            add_custom_format(
                parse_format_descriptor(settings.value(QStringLiteral("descriptor")).toString().toStdString(),
                                        settings.value(QStringLiteral("name")).toString().toStdString()));
        } catch (const Error&) {
            // a descriptor from another version or edited by hand: skipped, the rest still loads
        }
    }
    settings.endArray();
    if (settings.contains(QStringLiteral("lab/chosen_formats"))) {
        QStringList known;
        for (const QString& name : settings.value(QStringLiteral("lab/chosen_formats")).toStringList())
            if (std::any_of(formats_.begin(), formats_.end(),
                            [&](const auto& f) { return f.name == name.toStdString(); }))
                known << name;
        set_chosen(known);
    }
    try {
        set_rounding_mode(
            core::parse_rounding_mode(settings.value(QStringLiteral("lab/rounding"), "rne").toString().toStdString()));
        if (settings.contains(QStringLiteral("lab/value")))
            set_value_text(settings.value(QStringLiteral("lab/value")).toString().toStdString());
        if (settings.contains(QStringLiteral("lab/edit"))) {
            const EnteredValue edit = parse_entered_value(
                settings.value(QStringLiteral("lab/edit")).toString().toStdString(), formats_, formats_.front());
            if (edit.pattern) set_edit(*edit.pattern);
        }
    } catch (const Error&) {
        // keep the defaults
    }
    undo_->clear();  // a session starts with no history
}

}  // namespace floatscope::gui
