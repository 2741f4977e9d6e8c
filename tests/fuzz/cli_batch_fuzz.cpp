// Fuzz target: the CLI commands that read text, run in-process as floatscope-cli runs them.
// Input: the first line holds the arguments (`eval -f fp16 --round rtz`, `convert --from ...`,
// `encode`, `decode`, `show`, `formats`), the rest is their stdin (eval and convert batch lines).
// Only floatscope::Error and CLI11's parse errors may come out; anything else is a crash.
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = text.find('\n');
    std::istringstream arguments(text.substr(0, newline));
    std::vector<std::string> words = {"floatscope-cli"};
    for (std::string word; arguments >> word;) words.push_back(word);
    // testfloat reads files named on the command line: not a text parser, fuzzed separately.
    if (words.size() < 2 || words[1] == "testfloat") return 0;
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());

    CLI::App app("floatscope-cli fuzzing", "floatscope-cli");
    app.require_subcommand(1);
    const std::vector<cli::Command> commands = {cli::add_formats_command(app), cli::add_show_command(app),
                                                cli::add_encode_command(app),  cli::add_decode_command(app),
                                                cli::add_convert_command(app), cli::add_eval_command(app)};
    std::istringstream in(newline == std::string::npos ? std::string() : text.substr(newline + 1));
    std::streambuf* const saved = std::cin.rdbuf(in.rdbuf());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        for (const cli::Command& command : commands) {
            if (!command.app->parsed()) continue;
            std::ostringstream out;
            command.run(out);
        }
    } catch (const CLI::Error&) {
    } catch (const Error&) {
    }
    std::cin.rdbuf(saved);
    return 0;
}
