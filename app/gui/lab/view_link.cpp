// View links written and read as a URL-style query, applied to the lab's state all or nothing.
#include "app/gui/lab/view_link.hpp"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <fmt/format.h>

#include "app/gui/lab/format_descriptor.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "core/error.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::gui {

namespace {

constexpr std::string_view prefix = "floatscope:1?";

/// Percent-encodes everything that could split a part: & = ! and the reserved characters.
std::string encoded(const std::string& text) {
    return QByteArray::fromStdString(text).toPercentEncoding(QByteArray(), "!").toStdString();
}

std::string decoded(const QString& text) { return QByteArray::fromPercentEncoding(text.toUtf8()).toStdString(); }

/// Applies the link to `state` in order; throws at the first part that does not apply.
void apply_parts(LabState& state, const ViewLink& link) {
    for (const auto& [name, descriptor] : link.custom_formats) {
        if (state.is_custom(name) && state.custom_descriptor(name) == descriptor) continue;
        try {
            state.add_custom_format(parse_format_descriptor(descriptor, name));
        } catch (const Error& e) {
            throw Error(fmt::format("custom format '{}': {}", name, e.what()));
        }
    }
    QStringList chosen;
    for (const std::string& name : link.formats) chosen << QString::fromStdString(name);
    state.set_chosen(chosen);
    try {
        state.set_rounding_mode(core::parse_rounding_mode(link.rounding));
    } catch (const Error& e) {
        throw Error(fmt::format("rounding: {}", e.what()));
    }
    state.set_value_text(link.value);
    if (!link.edit.empty()) {
        const EnteredValue edit = parse_entered_value(link.edit, state.formats(), state.formats().front());
        if (!edit.pattern) throw Error(fmt::format("edit '{}' is not a bit pattern FORMAT:HEX", link.edit));
        state.set_edit(*edit.pattern);
    }
}

}  // namespace

std::string view_link_text(const ViewLink& link) {
    std::vector<std::string> parts;
    for (const auto& [name, descriptor] : link.custom_formats)
        parts.push_back("custom=" + encoded(name) + "!" + encoded(descriptor));
    for (const std::string& name : link.formats) parts.push_back("format=" + encoded(name));
    parts.push_back("rounding=" + encoded(link.rounding));
    parts.push_back("value=" + encoded(link.value));
    if (!link.edit.empty()) parts.push_back("edit=" + encoded(link.edit));
    if (!link.view.empty()) parts.push_back("view=" + encoded(link.view));
    std::string text(prefix);
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "&" : "") + parts[i];
    return text;
}

ViewLink parse_view_link(std::string_view raw) {
    const QString text = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size())).trimmed();
    if (!text.startsWith(QString::fromLatin1(prefix.data(), prefix.size())))
        throw Error(
            fmt::format("not a FloatScope view link: it should start with '{}' (Edit > Copy view link "
                        "writes one)",
                        prefix));
    ViewLink link;
    bool has_rounding = false, has_value = false;
    for (const QString& part : text.mid(static_cast<qsizetype>(prefix.size())).split('&', Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf('=');
        if (equals <= 0) throw Error(fmt::format("view link part '{}' is not key=value", part.toStdString()));
        const QString key = part.left(equals), value = part.mid(equals + 1);
        if (key == QLatin1String("custom")) {
            const qsizetype bang = value.indexOf('!');
            if (bang <= 0) throw Error(fmt::format("custom format '{}' is not NAME!DESCRIPTOR", value.toStdString()));
            link.custom_formats.emplace_back(decoded(value.left(bang)), decoded(value.mid(bang + 1)));
        } else if (key == QLatin1String("format")) {
            link.formats.push_back(decoded(value));
        } else if (key == QLatin1String("rounding")) {
            link.rounding = decoded(value);
            has_rounding = true;
        } else if (key == QLatin1String("value")) {
            link.value = decoded(value);
            has_value = true;
        } else if (key == QLatin1String("edit")) {
            link.edit = decoded(value);
        } else if (key == QLatin1String("view")) {
            link.view = decoded(value);
        } else {
            throw Error(
                fmt::format("unknown view link key '{}'; the keys are custom, format, rounding, value, edit, "
                            "view",
                            key.toStdString()));
        }
    }
    if (!has_rounding || !has_value) throw Error("a view link needs a rounding and a value");
    return link;
}

ViewLink lab_view_link(const LabState& state, const std::string& view) {
    ViewLink link;
    for (const core::FormatSpec& f : state.formats())
        if (state.is_custom(f.name)) link.custom_formats.emplace_back(f.name, state.custom_descriptor(f.name));
    for (const QString& name : state.chosen_names()) link.formats.push_back(name.toStdString());
    link.rounding = core::to_string(state.rounding_mode());
    link.value = value_spelling(state, state.value());
    if (const auto& edit = state.edit())
        link.edit = value_spelling(state, entered_pattern(state.format(edit->format), edit->bits));
    link.view = view;
    return link;
}

void apply_view_link(LabState& state, const ViewLink& link) {
    // A trial run on a scratch state that knows the same custom formats: errors surface there.
    LabState scratch;
    for (const core::FormatSpec& f : state.formats())
        if (state.is_custom(f.name))
            scratch.add_custom_format(parse_format_descriptor(state.custom_descriptor(f.name), f.name));
    try {
        apply_parts(scratch, link);
    } catch (const Error& e) {
        throw Error(fmt::format("cannot open the view link: {}", e.what()));
    }
    apply_parts(state, link);
}

}  // namespace floatscope::gui
