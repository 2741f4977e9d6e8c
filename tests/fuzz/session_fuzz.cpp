// Fuzz target: GUI session files (gui::parse_session, Qt-free), as File > Open Session reads them.
// Input: the session's JSON text. Property: a session read back from what session_json makes of
// it is the same session, and writing that again gives the same text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app/gui/simulator/simulation_session.hpp"
#include "core/error.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gui::Session session;
    try {
        session = gui::parse_session(text);
    } catch (const Error&) {
        return 0;
    }
    const std::string saved = gui::session_json(session);
    try {
        const gui::Session loaded = gui::parse_session(saved);
        if (!(loaded == session)) fuzz::property_failed("parse_session(session_json(s)) == s", saved);
        if (gui::session_json(loaded) != saved) fuzz::property_failed("session_json is stable after a reload", saved);
    } catch (const Error& e) {
        fuzz::property_failed("a saved session loads", e.what());
    }
    return 0;
}
