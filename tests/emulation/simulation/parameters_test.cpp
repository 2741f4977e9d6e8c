// Tests of emulation/parameters: validation of name=value assignments against a schema.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "emulation/simulation/parameters.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

const std::vector<ParameterSpec>& schema() {
    static const std::vector<ParameterSpec> specs = {
        {"depth", ParameterType::Integer, "16", 1, 64, {}, "layers"},
        {"init-scale", ParameterType::Real, "1.0", 0.001, 10, {}, "scale of the initial weights"},
        {"layer-norm", ParameterType::Boolean, "false", 0, 0, {}, "normalise each layer"},
        {"activation", ParameterType::Choice, "relu", 0, 0, {"relu", "gelu", "tanh"}, "nonlinearity"},
        {"data", ParameterType::Text, "", 0, 0, {}, "a path"},
    };
    return specs;
}

std::string error_of(const std::vector<std::string>& assignments) {
    try {
        Parameters::parse(schema(), assignments);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("defaults fill every parameter, in schema order, normalised") {
    const Parameters p = Parameters::parse(schema(), {});
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"depth", "16"}, {"init-scale", "1"}, {"layer-norm", "false"}, {"activation", "relu"}, {"data", ""}};
    CHECK(p.values() == expected);
    CHECK(p.integer("depth") == 16);
    CHECK(p.real("depth") == 16.0);
    CHECK(p.real("init-scale") == 1.0);
    CHECK_FALSE(p.boolean("layer-norm"));
    CHECK(p.text("activation") == "relu");
}

TEST_CASE("assignments are parsed, trimmed and normalised, a later one wins") {
    const Parameters p = Parameters::parse(
        schema(), {"depth=+8", "init-scale= 0.25", "layer-norm=YES", "activation=gelu", "data=/tmp/a=b", "depth=32"});
    CHECK(p.integer("depth") == 32);
    CHECK(p.real("init-scale") == 0.25);
    CHECK(p.text("init-scale") == "0.25");
    CHECK(p.boolean("layer-norm"));
    CHECK(p.text("layer-norm") == "true");
    CHECK(p.text("activation") == "gelu");
    CHECK(p.text("data") == "/tmp/a=b");  // only the first '=' separates
    for (const char* word : {"1", "on", "True"})
        CHECK(Parameters::parse(schema(), {std::string("layer-norm=") + word}).boolean("layer-norm"));
    for (const char* word : {"0", "off", "no"})
        CHECK_FALSE(Parameters::parse(schema(), {std::string("layer-norm=") + word}).boolean("layer-norm"));
}

TEST_CASE("from_map gives the same values as parse") {
    CHECK(Parameters::from_map(schema(), {{"depth", "3"}}).values() ==
          Parameters::parse(schema(), {"depth=3"}).values());
}

TEST_CASE("errors name the parameter and what would be valid") {
    CHECK(error_of({"width=3"}) == "unknown parameter 'width'; valid: depth, init-scale, layer-norm, activation, data");
    CHECK(error_of({"depth"}).find("has no '='") != std::string::npos);
    CHECK(error_of({"depth=65"}) == "parameter 'depth': '65' is not valid; expected an integer in [1, 64]");
    CHECK(error_of({"depth=0"}) == "parameter 'depth': '0' is not valid; expected an integer in [1, 64]");
    CHECK(error_of({"depth=2.5"}) == "parameter 'depth': '2.5' is not valid; expected an integer in [1, 64]");
    CHECK(error_of({"depth="}).find("expected an integer in [1, 64]") != std::string::npos);
    CHECK(error_of({"init-scale=20"}) == "parameter 'init-scale': '20' is not valid; expected a number in [0.001, 10]");
    CHECK(error_of({"init-scale=nan"}).find("expected a number in [0.001, 10]") != std::string::npos);
    CHECK(error_of({"init-scale=1x"}).find("expected a number") != std::string::npos);
    CHECK(error_of({"layer-norm=maybe"}).find("true or false") != std::string::npos);
    CHECK(error_of({"activation=softplus"}) ==
          "parameter 'activation': 'softplus' is not valid; expected one of relu, gelu, tanh");
    CHECK_THROWS_AS(Parameters::from_map({}, {{"x", "1"}}), Error);
}

TEST_CASE("accessors check the name and the type") {
    const Parameters p = Parameters::parse(schema(), {});
    CHECK_THROWS_WITH(p.integer("width"),
                      "no parameter 'width'; this run has: depth, init-scale, layer-norm, activation, data");
    CHECK_THROWS_AS(p.integer("init-scale"), Error);
    CHECK_THROWS_AS(p.real("activation"), Error);
    CHECK_THROWS_AS(p.boolean("depth"), Error);
    CHECK(to_string(ParameterType::Choice) == std::string("choice"));
}
