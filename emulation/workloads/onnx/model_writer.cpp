// ModelProto bytes from a Graph, with the protobuf messages of ONNX's onnx.proto.
#include "emulation/workloads/onnx/model_writer.hpp"

#include <bit>
#include <cstdint>
#include <limits>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include "core/atomic_file.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/rounding.hpp"

namespace floatscope::emu::onnx {

namespace {

/// ModelProto.ir_version 8: the IR of ONNX 1.10 to 1.12, which opset 17 belongs with (onnx/docs/Versioning.md).
constexpr std::int64_t written_ir_version = 8;

/// ONNX requires a graph name; a Graph may come without one.
constexpr const char* fallback_graph_name = "floatscope";

void append_little_endian(std::string& out, std::uint64_t bits, int bytes) {
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
}

/// Bit patterns of values rounded to nearest even into `format_name` (float16 or bfloat16).
void append_16_bit_floats(std::string& out, const std::vector<double>& values, const char* format_name) {
    const core::Rounder round(core::parse_format(format_name), {});
    for (double v : values) append_little_endian(out, round(v).bits, 2);
}

void append_integers(std::string& out, const std::vector<std::int64_t>& values, std::int64_t low, std::int64_t high,
                     int bytes, std::string_view context) {
    for (std::int64_t v : values) {
        if (v < low || v > high) throw Error(fmt::format("{}: {} lies outside {}..{}", context, v, low, high));
        append_little_endian(out, static_cast<std::uint64_t>(v), bytes);
    }
}

/// The tensor's values as TensorProto.raw_data lays them out.
std::string raw_data(const Tensor<double>& t, std::string_view context) {
    const std::size_t expected = element_count(t.shape);
    if (t.size() != expected)
        throw Error(fmt::format("{}: {} tensor of shape {} holds {} values, not {}", context, to_string(t.type),
                                describe(t.shape), t.size(), expected));
    std::string out;
    switch (t.type) {
        case ElementType::Float:
            for (double v : t.numbers)
                append_little_endian(out, std::bit_cast<std::uint32_t>(static_cast<float>(v)), 4);
            break;
        case ElementType::Double:
            for (double v : t.numbers) append_little_endian(out, std::bit_cast<std::uint64_t>(v), 8);
            break;
        case ElementType::Float16: append_16_bit_floats(out, t.numbers, "fp16"); break;
        case ElementType::BFloat16: append_16_bit_floats(out, t.numbers, "bf16"); break;
        case ElementType::Int8: append_integers(out, t.integers, -128, 127, 1, context); break;
        case ElementType::UInt8: append_integers(out, t.integers, 0, 255, 1, context); break;
        case ElementType::Int32:
            append_integers(out, t.integers, std::numeric_limits<std::int32_t>::min(),
                            std::numeric_limits<std::int32_t>::max(), 4, context);
            break;
        case ElementType::Int64:
            append_integers(out, t.integers, std::numeric_limits<std::int64_t>::min(),
                            std::numeric_limits<std::int64_t>::max(), 8, context);
            break;
        case ElementType::Bool: append_integers(out, t.integers, 0, 1, 1, context); break;
        case ElementType::Int16: append_integers(out, t.integers, -32768, 32767, 2, context); break;
        case ElementType::UInt16: append_integers(out, t.integers, 0, 65535, 2, context); break;
        default: throw Error(fmt::format("{}: FloatScope does not write {} tensors", context, to_string(t.type)));
    }
    return out;
}

void fill_tensor(::onnx::TensorProto& proto, const std::string& name, const Tensor<double>& t,
                 std::string_view context) {
    proto.set_name(name);
    proto.set_data_type(onnx_data_type(t.type));
    for (std::int64_t d : t.shape) proto.add_dims(d);
    proto.set_raw_data(raw_data(t, context));
}

void fill_value_info(::onnx::ValueInfoProto& proto, const ValueInfo& info, std::string_view role) {
    const std::string context = fmt::format("graph {} '{}'", role, info.name);
    if (!info.dimension_names.empty() && info.dimension_names.size() != info.shape.size())
        throw Error(fmt::format("{}: {} dimension names for the {} dimensions of {}", context,
                                info.dimension_names.size(), info.shape.size(), describe(info.shape)));
    proto.set_name(info.name);
    ::onnx::TypeProto_Tensor& tensor = *proto.mutable_type()->mutable_tensor_type();
    tensor.set_elem_type(onnx_data_type(info.type));
    ::onnx::TensorShapeProto& shape = *tensor.mutable_shape();
    for (std::size_t d = 0; d < info.shape.size(); ++d) {
        ::onnx::TensorShapeProto_Dimension& dim = *shape.add_dim();
        if (!info.dimension_names.empty() && !info.dimension_names[d].empty())
            dim.set_dim_param(info.dimension_names[d]);
        else if (info.shape[d] >= 0)
            dim.set_dim_value(info.shape[d]);
    }
}

void fill_attribute(::onnx::AttributeProto& proto, const std::string& name, const Attribute& a, const Node& node) {
    const std::string context = fmt::format("{}: attribute {}", node.describe(), name);
    proto.set_name(name);
    switch (a.kind) {
        case Attribute::Kind::Float:
            proto.set_type(::onnx::AttributeProto::FLOAT);
            proto.set_f(static_cast<float>(a.f));
            break;
        case Attribute::Kind::Int:
            proto.set_type(::onnx::AttributeProto::INT);
            proto.set_i(a.i);
            break;
        case Attribute::Kind::String:
            proto.set_type(::onnx::AttributeProto::STRING);
            proto.set_s(a.s);
            break;
        case Attribute::Kind::Tensor:
            proto.set_type(::onnx::AttributeProto::TENSOR);
            fill_tensor(*proto.mutable_t(), "", a.t, context);
            break;
        case Attribute::Kind::Floats:
            proto.set_type(::onnx::AttributeProto::FLOATS);
            for (double f : a.floats) proto.add_floats(static_cast<float>(f));
            break;
        case Attribute::Kind::Ints:
            proto.set_type(::onnx::AttributeProto::INTS);
            for (std::int64_t i : a.ints) proto.add_ints(i);
            break;
        case Attribute::Kind::Strings:
            proto.set_type(::onnx::AttributeProto::STRINGS);
            for (const std::string& s : a.strings) proto.add_strings(s);
            break;
        case Attribute::Kind::Graph:
        case Attribute::Kind::Other:
            throw Error(
                fmt::format("{} is of a kind FloatScope does not write (it writes float, int, string, "
                            "tensor, floats, ints and strings)",
                            context));
    }
}

void fill_node(::onnx::NodeProto& proto, const Node& node) {
    proto.set_name(node.name);
    proto.set_op_type(node.op_type);
    proto.set_domain(node.domain);
    for (const std::string& input : node.inputs) proto.add_input(input);
    for (const std::string& output : node.outputs) proto.add_output(output);
    for (const auto& [name, attribute] : node.attributes) fill_attribute(*proto.add_attribute(), name, attribute, node);
}

}  // namespace

std::string model_bytes(const Graph& graph, std::string_view doc_string) {
    if (graph.opset <= 0)
        throw Error(fmt::format("graph '{}': no ai.onnx opset to write (opset {})", graph.name, graph.opset));
    ::onnx::ModelProto model;
    model.set_ir_version(written_ir_version);
    model.set_producer_name("floatscope");
    model.set_doc_string(std::string(doc_string));
    ::onnx::OperatorSetIdProto& opset = *model.add_opset_import();
    opset.set_domain("");
    opset.set_version(graph.opset);

    ::onnx::GraphProto& g = *model.mutable_graph();
    g.set_name(graph.name.empty() ? fallback_graph_name : graph.name);
    for (const ValueInfo& input : graph.inputs) fill_value_info(*g.add_input(), input, "input");
    for (const ValueInfo& output : graph.outputs) fill_value_info(*g.add_output(), output, "output");
    for (const auto& [name, tensor] : graph.initializers)
        fill_tensor(*g.add_initializer(), name, tensor, fmt::format("initializer '{}'", name));
    for (const Node& node : graph.nodes) fill_node(*g.add_node(), node);

    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw Error(fmt::format("graph '{}': the model does not serialize (over protobuf's 2 GiB limit?)", g.name()));
    return bytes;
}

void write_model(const Graph& graph, const std::filesystem::path& path, std::string_view doc_string) {
    std::string bytes;
    try {
        bytes = model_bytes(graph, doc_string);
    } catch (const Error& e) {
        throw Error(fmt::format("cannot write {}: {}", path.string(), e.what()));
    }
    core::write_file_atomically(path, bytes);
}

}  // namespace floatscope::emu::onnx
