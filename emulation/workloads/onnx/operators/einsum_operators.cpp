// ONNX's Einsum (opsets 12-17) of floating inputs: an explicit ("ij,jk->ik") or implicit ("ij,jk":
// the labels seen once, alphabetically) equation, repeated labels taking diagonals, "..." for
// broadcast leading dimensions. Each output element is numerics.sum over the contracted labels
// (row-major, in the order the labels first appear) of the operands' product, multiplied in
// operand order; without contracted labels the product itself. Integer inputs are Unsupported.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// A label: a letter's character, or for the k-th of the broadcast ("...") dimensions 256 + k.
using Label = int;
constexpr Label ellipsis_label = 256;

/// The labels of one term of the equation; `ellipsis` marks where "..." stands (-1: nowhere).
struct Term {
    std::vector<Label> letters;
    std::ptrdiff_t ellipsis = -1;
};

Term parse_term(const std::string& text, const Node& node) {
    Term term;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 3, "...") == 0 && term.ellipsis < 0) {
            term.ellipsis = static_cast<std::ptrdiff_t>(term.letters.size());
            i += 2;
        } else if (std::isalpha(static_cast<unsigned char>(text[i]))) {
            term.letters.push_back(static_cast<unsigned char>(text[i]));
        } else {
            throw Error(fmt::format("{}: equation term '{}' holds '{}'; letters and one '...' are allowed",
                                    node.describe(), text, text[i]));
        }
    }
    return term;
}

/// The term's labels for an operand of `rank`, "..." standing for the last `rank - letters` of
/// the `broadcast` broadcast labels.
std::vector<Label> expand(const Term& term, std::size_t rank, std::size_t broadcast, const Node& node) {
    const std::size_t letters = term.letters.size();
    if (term.ellipsis < 0 ? rank != letters : rank < letters)
        throw Error(fmt::format("{}: an operand of rank {} for an equation term of {} letters{}", node.describe(), rank,
                                letters, term.ellipsis < 0 ? "" : " and '...'"));
    std::vector<Label> labels(term.letters.begin(), term.letters.end());
    if (term.ellipsis >= 0) {
        std::vector<Label> dots;
        for (std::size_t k = broadcast - (rank - letters); k < broadcast; ++k)
            dots.push_back(ellipsis_label + static_cast<Label>(k));
        labels.insert(labels.begin() + term.ellipsis, dots.begin(), dots.end());
    }
    return labels;
}

template <class Call>
TensorsOf<Call> einsum(const Call& call) {
    const Node& node = call.node;
    node.check_attributes({"equation"});
    std::string equation = node.string_attribute("equation", "");
    std::erase_if(equation, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
    const std::size_t arrow = equation.find("->");
    const std::string inputs_part = equation.substr(0, arrow);
    std::vector<Term> terms;
    for (std::size_t start = 0;;) {
        const std::size_t comma = inputs_part.find(',', start);
        terms.push_back(parse_term(inputs_part.substr(start, comma - start), node));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (terms.size() != call.inputs.size())
        throw Error(fmt::format("{}: equation '{}' has {} terms for {} inputs", node.describe(), equation, terms.size(),
                                call.inputs.size()));
    std::size_t broadcast = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const auto& x = call.input(i);
        if (!x.floating())
            throw Unsupported(fmt::format("{}: input {} is {}; FloatScope evaluates Einsum of floating types",
                                          node.describe(), i, to_string(x.type)));
        if (terms[i].ellipsis >= 0) broadcast = std::max(broadcast, x.shape.size() - terms[i].letters.size());
    }

    // Each label's size (broadcast dimensions of size 1 stretch), in the order labels first appear.
    std::vector<std::vector<Label>> operand_labels;
    std::vector<Label> order;
    std::map<Label, std::int64_t> size;
    std::map<Label, int> uses;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const auto& shape = call.input(i).shape;
        operand_labels.push_back(expand(terms[i], shape.size(), broadcast, node));
        for (std::size_t d = 0; d < shape.size(); ++d) {
            const Label l = operand_labels[i][d];
            ++uses[l];
            const auto [at, added] = size.emplace(l, shape[d]);
            if (added)
                order.push_back(l);
            else if (at->second != shape[d]) {
                if (l < ellipsis_label || (at->second != 1 && shape[d] != 1))
                    throw Error(fmt::format("{}: label '{}' has sizes {} and {}", node.describe(),
                                            l < ellipsis_label ? std::string(1, static_cast<char>(l)) : "...",
                                            at->second, shape[d]));
                at->second = std::max(at->second, shape[d]);
            }
        }
    }
    std::vector<Label> output;
    for (std::size_t k = 0; k < broadcast; ++k) output.push_back(ellipsis_label + static_cast<Label>(k));
    if (arrow == std::string::npos) {
        std::vector<Label> once;
        for (const auto& [l, count] : uses)
            if (l < ellipsis_label && count == 1) once.push_back(l);
        output.insert(output.end(), once.begin(), once.end());  // std::map: alphabetical (ASCII) order
    } else {
        const Term out = parse_term(equation.substr(arrow + 2), node);
        output = expand(out, out.letters.size() + (out.ellipsis < 0 ? 0 : broadcast), broadcast, node);
        for (Label l : output)
            if (!size.count(l))
                throw Error(
                    fmt::format("{}: output label '{}' is in no input term", node.describe(), static_cast<char>(l)));
    }
    std::vector<Label> contracted;
    for (Label l : order)
        if (std::find(output.begin(), output.end(), l) == output.end()) contracted.push_back(l);

    // stride[i][l]: how far operand i's index moves per step of label l (0 where it broadcasts).
    std::vector<std::map<Label, std::size_t>> stride(terms.size());
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const auto& shape = call.input(i).shape;
        const std::vector<std::size_t> s = strides(shape);
        for (std::size_t d = 0; d < shape.size(); ++d)
            if (shape[d] != 1 || size[operand_labels[i][d]] == 1) stride[i][operand_labels[i][d]] += s[d];
    }
    Shape output_shape, contracted_shape;
    for (Label l : output) output_shape.push_back(size[l]);
    for (Label l : contracted) contracted_shape.push_back(size[l]);
    const std::size_t contracted_count = element_count(contracted_shape);

    const auto& n = call.numerics;
    Tensor<NumberOf<Call>> result;
    result.type = call.input(0).type;
    result.shape = output_shape;
    // The index into operand i of the output position `at` and the contracted position `inner`.
    const auto index_of = [&](std::size_t i, const std::vector<std::int64_t>& at,
                              const std::vector<std::int64_t>& inner) {
        std::size_t index = 0;
        for (std::size_t k = 0; k < output.size(); ++k) index += static_cast<std::size_t>(at[k]) * stride[i][output[k]];
        for (std::size_t k = 0; k < contracted.size(); ++k)
            index += static_cast<std::size_t>(inner[k]) * stride[i][contracted[k]];
        return index;
    };
    std::vector<NumberOf<Call>> products;
    std::vector<std::int64_t> at(output.size(), 0), inner(contracted.size(), 0);
    const std::size_t output_count = element_count(output_shape);
    for (std::size_t o = 0; o < output_count; ++o, next_position(at, output_shape)) {
        products.clear();
        for (std::size_t c = 0; c < contracted_count; ++c, next_position(inner, contracted_shape)) {
            auto product = call.input(0).numbers[index_of(0, at, inner)];
            for (std::size_t i = 1; i < terms.size(); ++i)
                product = n.mul(product, call.input(i).numbers[index_of(i, at, inner)]);
            products.push_back(product);
        }
        result.numbers.push_back(contracted.empty() ? products.front() : n.sum(products));
    }
    return {std::move(result)};
}

}  // namespace

void add_einsum_operators(OperatorTable& table) {
    table.add("Einsum", [](const auto& call) { return einsum(call); });
}

}  // namespace floatscope::emu::onnx
