// ONNX's TfIdfVectorizer (opset 9) of integer tokens: the counts of the pool's n-grams in each row
// (1-D input: one row), taken with every skip 0 .. max_skip_count between consecutive tokens (a
// 1-gram once per position), n from min_gram_length to max_gram_length; mode TF writes the counts,
// IDF min(count, 1) times the n-gram's weight, TFIDF the count times it. Counting is exact; a
// weight's product is the node's multiplication. String tokens (pool_strings) are Unsupported:
// FloatScope holds no string tensors.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

using Ngram = std::vector<std::int64_t>;

/// The pool of n-grams the node counts: for each n, its n-grams and their positions in the pool.
struct NgramPool {
    std::vector<std::map<Ngram, std::size_t>> by_length;  ///< [n - 1]: n-gram -> its index in the pool
    std::size_t size = 0;  ///< the pool's n-grams (ngram_indexes' and weights' length)
};

/// The pool as pool_int64s and ngram_counts (the start of the n-grams of each n) write it.
NgramPool read_pool(const Node& node) {
    if (node.has("pool_strings"))
        throw Unsupported(
            fmt::format("{}: pool_strings: string tokens are not supported (FloatScope has no string "
                        "tensors; integer tokens and pool_int64s are)",
                        node.describe()));
    if (!node.has("pool_int64s")) throw Error(fmt::format("{}: attribute pool_int64s is required", node.describe()));
    const std::vector<std::int64_t> pool = node.ints_attribute("pool_int64s");
    const std::vector<std::int64_t> starts = node.ints_attribute("ngram_counts");
    NgramPool result;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const auto n = i + 1;
        const std::int64_t end = i + 1 < starts.size() ? starts[i + 1] : static_cast<std::int64_t>(pool.size());
        if (starts[i] < 0 || end < starts[i] || end > static_cast<std::int64_t>(pool.size()) ||
            (end - starts[i]) % static_cast<std::int64_t>(n) != 0)
            throw Error(fmt::format("{}: ngram_counts {} does not split pool_int64s ({} values) into {}-grams",
                                    node.describe(), fmt::join(starts, ", "), pool.size(), n));
        std::map<Ngram, std::size_t>& grams = result.by_length.emplace_back();
        for (auto at = static_cast<std::size_t>(starts[i]); at < static_cast<std::size_t>(end); at += n) {
            Ngram gram(pool.begin() + static_cast<std::ptrdiff_t>(at),
                       pool.begin() + static_cast<std::ptrdiff_t>(at + n));
            if (!grams.emplace(std::move(gram), result.size).second)
                throw Error(fmt::format("{}: pool_int64s holds a {}-gram twice (at value {})", node.describe(), n, at));
            ++result.size;
        }
    }
    return result;
}

template <class Numerics>
Outputs<Numerics> tfidf_vectorizer(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const Numerics& m = call.numerics;
    node.check_attributes({"max_gram_length", "max_skip_count", "min_gram_length", "mode", "ngram_counts",
                           "ngram_indexes", "pool_int64s", "pool_strings", "weights"});
    const Tensor<Number>& x = call.input(0);
    if (x.type != ElementType::Int32 && x.type != ElementType::Int64)
        throw Error(fmt::format("{}: input 0 is {}; TfIdfVectorizer takes int32 or int64 tokens", node.describe(),
                                to_string(x.type)));
    if (x.shape.empty() || x.shape.size() > 2)
        throw Error(
            fmt::format("{}: input 0 has shape {}; [C] or [N, C] is required", node.describe(), describe(x.shape)));
    const std::string mode = node.string_attribute("mode", "");
    if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
        throw Error(fmt::format("{}: mode '{}' is not one of TF, IDF, TFIDF", node.describe(), mode));
    const std::int64_t min_length = node.int_attribute("min_gram_length", 0);
    const std::int64_t max_length = node.int_attribute("max_gram_length", 0);
    const std::int64_t max_skip = node.int_attribute("max_skip_count", 0);
    if (min_length < 1 || max_length < min_length || max_skip < 0)
        throw Error(
            fmt::format("{}: min_gram_length {}, max_gram_length {} and max_skip_count {} must satisfy 1 <= "
                        "min <= max and skips >= 0",
                        node.describe(), min_length, max_length, max_skip));
    const NgramPool pool = read_pool(node);
    const std::vector<std::int64_t> indexes = node.ints_attribute("ngram_indexes");
    if (indexes.size() != pool.size || indexes.empty())
        throw Error(fmt::format("{}: ngram_indexes has {} values; the pool holds {} n-grams", node.describe(),
                                indexes.size(), pool.size));
    std::int64_t width = 0;
    for (std::int64_t index : indexes) {
        if (index < 0) throw Error(fmt::format("{}: ngram_indexes holds {} (< 0)", node.describe(), index));
        width = std::max(width, index + 1);
    }
    const std::vector<double> weights =
        node.has("weights") ? node.floats_attribute("weights") : std::vector<double>(pool.size, 1.0);
    if (weights.size() != pool.size)
        throw Error(fmt::format("{}: weights has {} values; the pool holds {} n-grams", node.describe(), weights.size(),
                                pool.size));

    const std::int64_t rows = x.shape.size() == 2 ? x.shape[0] : 1;
    const std::int64_t tokens = x.shape.back();
    Shape shape = x.shape;
    shape.back() = width;
    require_output(node, shape, true);
    std::vector<Number> values(element_count(shape), m.from_double(0));
    std::vector<std::int64_t> counts(pool.size);
    for (std::int64_t row = 0; row < rows; ++row) {
        std::fill(counts.begin(), counts.end(), 0);
        const auto* row_tokens = &x.integers[static_cast<std::size_t>(row * tokens)];
        const auto longest = std::min<std::int64_t>(max_length, static_cast<std::int64_t>(pool.by_length.size()));
        for (std::int64_t n = min_length; n <= longest; ++n) {
            const auto& grams = pool.by_length[static_cast<std::size_t>(n - 1)];
            // A 1-gram has no gaps: skips would count it again.
            for (std::int64_t skip = 0; skip <= (n == 1 ? 0 : max_skip); ++skip)
                for (std::int64_t start = 0; start + (n - 1) * (skip + 1) < tokens; ++start) {
                    Ngram gram;
                    for (std::int64_t j = 0; j < n; ++j) gram.push_back(row_tokens[start + j * (skip + 1)]);
                    if (const auto found = grams.find(gram); found != grams.end()) ++counts[found->second];
                }
        }
        for (std::size_t i = 0; i < pool.size; ++i) {
            if (counts[i] == 0) continue;
            const Number count = m.from_double(static_cast<double>(mode == "IDF" ? 1 : counts[i]));
            values[static_cast<std::size_t>(row * width + indexes[i])] =
                mode == "TF" ? count : m.mul(count, m.from_double(weights[i]));
        }
    }
    m.to_output(values);
    return {number_tensor<Number>(ElementType::Float, std::move(shape), std::move(values))};
}

}  // namespace

void add_tfidf_operators(OperatorTable& table) {
    table.add("TfIdfVectorizer", [](const auto& call) { return tfidf_vectorizer(call); });
}

}  // namespace floatscope::emu::onnx
