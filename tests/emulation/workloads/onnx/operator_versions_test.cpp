// Tests of the table of ONNX operator definitions (operator_versions.cpp) against ONNX's own schema
// registry (Debian 12's libonnx, opsets to 17), which nobody here wrote: in every opset from 1 to
// 17, each operator's definition is the version the registry gives.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include <catch2/catch.hpp>
#include <onnx/defs/schema.h>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operator_versions.hpp"

using namespace floatscope::emu::onnx;

TEST_CASE("every operator's definition in opsets 1 to 17 is the one ONNX's schema registry gives", "[onnx][opsets]") {
    std::size_t compared = 0;
    for (const auto& [op, versions] : operator_versions()) {
        if (versions.any_opset) continue;  // Gelu: opset 20's, which the registry does not know
        for (int opset = 1; opset <= 17; ++opset) {
            INFO(op << " in opset " << opset);
            const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(op, opset, ::onnx::ONNX_DOMAIN);
            const Definition d = definition_in(op, opset);
            if (schema == nullptr || schema->Deprecated()) {
                CHECK(d.version == 0);  // not defined yet, or deprecated (Upsample from 10, Scatter from 11)
            } else {
                CHECK(d.version == schema->since_version());
                ++compared;
            }
        }
    }
    CHECK(compared > 1000);
}

TEST_CASE("every kernel implements a listed operator, and the table names definitions as the changelog does",
          "[onnx][opsets]") {
    for (const std::string& op : operator_table().op_types()) CHECK(operator_versions().count(op) == 1);
    // Softmax of opset 12 is Softmax-11, which coerces to 2-D before the kernel's opset-13 axis.
    const Definition softmax = definition_in("Softmax", 12);
    CHECK(softmax.version == 11);
    REQUIRE(softmax.changes.size() == 1);
    CHECK(softmax.changes[0]->version == 13);
    CHECK(softmax.changes[0]->adapter == Adapter::CoerceTo2D);
    CHECK(definition_in("Softmax", 13).changes.empty());
    // ReduceMean's axes became an input at 18; opset 17's ReduceMean-13 moves its attribute there.
    CHECK(definition_in("ReduceMean", 17).changes.at(0)->attributes_to_inputs.at(0).attribute == "axes");
    CHECK(definition_in("ReduceMean", 18).version == 18);
    CHECK(definition_in("LayerNormalization", 16).version == 0);  // defined from 17
    CHECK(definition_in("Gelu", 7).version == 20);  // evaluated at any opset
}

TEST_CASE("the attributes later definitions added are the ones ONNX's schema registry adds", "[onnx][opsets]") {
    for (const auto& [op, versions] : operator_versions()) {
        if (versions.any_opset) continue;
        INFO(op);
        // From the definition in effect at opset 7 (or the first) to opset 17's, as the registry has them.
        const int first = std::max(definition_in(op, min_supported_opset).version, versions.versions.front());
        std::map<std::string, int> added, listed;
        std::map<std::string, bool> seen;
        for (int v : versions.versions) {
            const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(op, v, ::onnx::ONNX_DOMAIN);
            if (v < first || v > 17 || schema == nullptr || schema->since_version() != v) continue;
            for (const auto& [name, attribute] : schema->attributes()) {
                if (v > first && !seen.count(name)) added[name] = v;
                seen[name] = true;
            }
        }
        for (const LaterAttribute& later : versions.later_attributes)
            if (later.version <= 17) listed[std::string(later.attribute)] = later.version;
        CHECK(listed == added);
    }
}

TEST_CASE("opsets 19 to 21: the definitions of ONNX's changelog, the unevaluated ones refused by name",
          "[onnx][opsets]") {
    // ONNX 1.14 to 1.16's changelog (onnx/docs/Changelog.md), typed in, not read from a registry.
    CHECK(definition_in("QuantizeLinear", 20).version == 19);
    CHECK(definition_in("QuantizeLinear", 21).version == 21);
    CHECK(definition_in("Cast", 19).version == 19);
    CHECK(definition_in("Pad", 20).version == 19);
    CHECK(definition_in("ReduceMax", 21).version == 20);
    CHECK(definition_in("Relu", 21).version == 14);
    // DFT-20 moves DFT-17's attribute axis (default 1) to input 2.
    CHECK(definition_in("DFT", 19).changes.at(0)->attributes_to_inputs.at(0).fallback == 1);
    Node grid_sample;
    grid_sample.name = "sample";
    grid_sample.op_type = "GridSample";
    CHECK(operator_table().unsupported_reason(grid_sample, 19).empty());
    CHECK(operator_table().unsupported_reason(grid_sample, 20) ==
          "FloatScope evaluates GridSample's definitions to GridSample-16, not GridSample-20");
    CHECK(operator_table().unsupported_reason(grid_sample, 24).find("opsets 1 to 23") != std::string::npos);
}

TEST_CASE("opsets 22 and 23: the definitions of ONNX's operator sets, 23's new operators refused by name",
          "[onnx][opsets]") {
    // onnx/defs/operator_sets.h's OpSet_Onnx_ver22 and ver23 (ONNX 1.17, 1.18), typed in: op type,
    // opset, the version in effect there.
    const std::tuple<const char*, int, int> in_effect[] = {
        {"Conv", 21, 11},           {"Conv", 22, 22},   {"Elu", 23, 22},       {"QuantizeLinear", 22, 21},
        {"QuantizeLinear", 23, 23}, {"Cast", 23, 23},   {"Transpose", 23, 23}, {"DequantizeLinear", 23, 23},
        {"Relu", 23, 14},           {"MatMul", 23, 13},
    };
    for (const auto& [op_type, opset, version] : in_effect) {
        INFO(op_type << " at opset " << opset);
        CHECK(definition_in(op_type, opset).version == version);
    }
    Node node;
    node.name = "n";
    node.op_type = "GridSample";
    CHECK(operator_table().unsupported_reason(node, 22) ==
          "FloatScope evaluates GridSample's definitions to GridSample-16, not GridSample-22");
    CHECK(operator_table().unsupported_reason(node, 24).find("opsets 1 to 23") != std::string::npos);
    for (const char* op_type : {"Attention", "RotaryEmbedding", "RMSNormalization"}) {
        node.op_type = op_type;
        CHECK_FALSE(operator_table().unsupported_reason(node, 23).empty());
    }
}
