// Bad input at every entry point of floatscope-cli, from the table tests/data/bad_inputs.tsv:
// each row must end with its exit code (2) and a message naming the input, print nothing on
// stdout (no partial output), create no file, and finish (no hang).
#include <catch2/catch.hpp>

#include "tests/app/test_support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

using floatscope::test::CliResult;
using floatscope::test::run_cli;
using floatscope::test::TempDir;

/// One row of the table.
struct BadInput {
    int line = 0;
    std::vector<std::string> arguments;
    std::string input;  ///< stdin
    int exit_code = 0;
    std::string fragment;  ///< expected in stderr
    std::vector<std::pair<std::string, std::string>> files;  ///< written to the working folder first
};

/// The table's escapes: \n \t \r \\ \s (a space, for arguments) \xHH (any byte).
std::string unescape(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        const char c = text[++i];
        if (c == 'n')
            out += '\n';
        else if (c == 't')
            out += '\t';
        else if (c == 'r')
            out += '\r';
        else if (c == 's')
            out += ' ';
        else if (c == 'x' && i + 2 < text.size()) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else
            out += c;
    }
    return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

/// Columns: arguments (separated by single spaces; `\e` alone is an empty argument; @DIR@ is the
/// working folder), stdin, exit code, stderr fragment, and optionally files `name=content|...`.
std::vector<BadInput> read_table() {
    std::ifstream in(std::string(FLOATSCOPE_TEST_DATA) + "/bad_inputs.tsv");
    REQUIRE(in);
    std::vector<BadInput> rows;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        const std::vector<std::string> columns = split(line, '\t');
        INFO("bad_inputs.tsv:" << number << ": " << line);
        REQUIRE((columns.size() == 4 || columns.size() == 5));
        BadInput row;
        row.line = number;
        if (!columns[0].empty())
            for (const std::string& word : split(columns[0], ' '))
                row.arguments.push_back(word == "\\e" ? "" : unescape(word));
        row.input = unescape(columns[1]);
        row.exit_code = std::stoi(columns[2]);
        row.fragment = unescape(columns[3]);
        REQUIRE(!row.fragment.empty());
        if (columns.size() == 5)
            for (const std::string& file : split(columns[4], '|')) {
                const std::size_t equals = file.find('=');
                REQUIRE(equals != std::string::npos);
                row.files.emplace_back(file.substr(0, equals), unescape(file.substr(equals + 1)));
            }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

/// Runs floatscope-cli in `work` with a time limit (a hang shows as exit code 124).
CliResult run_in(const std::vector<std::string>& arguments, const std::string& input, const fs::path& work) {
    return run_cli(arguments, input, {work, 60});
}

std::set<std::string> entries(const fs::path& dir) {
    std::set<std::string> names;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir))
        names.insert(fs::relative(entry.path(), dir).string());
    return names;
}

}  // namespace

TEST_CASE("every bad input gives exit code 2, a message naming it, and no output", "[cli][bad_input]") {
    const std::vector<BadInput> rows = read_table();
    CHECK(rows.size() >= 100);
    for (const BadInput& row : rows) {
        TempDir dir;
        const fs::path work = dir.path() / "work";
        fs::create_directory(work);
        for (const auto& [name, content] : row.files) {
            fs::create_directories((work / name).parent_path());
            std::ofstream(work / name, std::ios::binary) << content;
        }
        const std::set<std::string> before = entries(work);
        std::vector<std::string> arguments;
        for (const std::string& a : row.arguments) arguments.push_back(replace_all(a, "@DIR@", work.string()));
        const CliResult outcome = run_in(arguments, row.input, work);
        INFO("bad_inputs.tsv:" << row.line << ": stderr: " << outcome.err);
        CHECK(outcome.exit_code == row.exit_code);
        CHECK(outcome.err.rfind("floatscope-cli: error: ", 0) == 0);
        CHECK(outcome.err.find(replace_all(row.fragment, "@DIR@", work.string())) != std::string::npos);
        CHECK(outcome.out.empty());
        CHECK(entries(work) == before);
    }
}

TEST_CASE("the bad-input table covers every subcommand", "[cli][bad_input]") {
    TempDir dir;
    const CliResult help = run_in({"--help"}, "", dir.path());
    REQUIRE(help.exit_code == 0);
    // CLI11 lists subcommands under "Subcommands:", one a line, indented by two spaces.
    std::istringstream lines(help.out.substr(help.out.find("Subcommands:")));
    std::set<std::string> covered;
    for (const BadInput& row : read_table())
        if (!row.arguments.empty()) covered.insert(row.arguments[0]);
    std::string line;
    std::getline(lines, line);
    int subcommands = 0;
    while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
        std::istringstream words(line);
        std::string name;
        words >> name;
        INFO("subcommand " << name);
        CHECK(covered.count(name) == 1);
        ++subcommands;
    }
    CHECK(subcommands >= 7);
}

TEST_CASE("a message quotes at most a few hundred characters of a huge input", "[cli][bad_input]") {
    const std::string huge = std::string(500'000, '7') + "x";  // not a number, a bit pattern nor a format
    // Quoted through core::input_excerpt: its first 200 characters and the length.
    const std::vector<std::pair<std::vector<std::string>, std::string>> quoted = {
        {{"eval", "--format", "fp16"}, "add " + huge + " 3c00\n"},
        {{"convert", "--from", "fp32", "--to", "fp16"}, huge + "\n"},
        {{"decode", "--format", "fp16", huge.substr(0, 100'000)}, ""},
    };
    for (const auto& [arguments, input] : quoted) {
        CAPTURE(arguments.front());
        const CliResult result = run_cli(arguments, input);
        CHECK(result.exit_code == 2);
        CHECK(result.err.size() < 600);
        CHECK_THAT(result.err, Catch::Contains("... (") && Catch::Contains(" characters)"));
    }
    // Any other message (here CLI11's, which quotes an unexpected argument whole) is cut to 4 KiB.
    const CliResult result = run_cli({"formats", huge.substr(0, 100'000)});
    CHECK(result.exit_code == 2);
    CHECK(result.err.size() < 4400);
    CHECK_THAT(result.err, Catch::Contains("characters left out"));
}
