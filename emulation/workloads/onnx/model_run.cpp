// Reading what the onnx workload runs on: the model, its inputs from files, memory or the seed, its labels.
#include "emulation/workloads/onnx/model_run.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/workloads/data/idx_file.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/data/seeded_random.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"
#include "emulation/workloads/onnx/unsupported_operators.hpp"

namespace floatscope::emu::onnx {

double known_elements(const Graph& graph, const std::string& name, std::int64_t batch) {
    const auto shape = graph.value_shapes.find(name);
    if (shape == graph.value_shapes.end()) return 0;
    double elements = 1;
    for (std::int64_t d : shape->second) elements *= static_cast<double>(d < 0 ? batch : d);
    return elements;
}

namespace {

/// Whether each value is a binary32 value (NaN is not: a rounding may give another NaN's bits).
bool is_binary32(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(),
                       [](double v) { return static_cast<double>(static_cast<float>(v)) == v; });
}

/// The elements of the outputs of `graph`'s nodes whose shapes ONNX's shape inference finds.
double known_node_values(Graph& graph, const std::string& model, std::int64_t batch) {
    add_inferred_shapes(graph, model);
    double values = 0;
    for (const Node& node : graph.nodes)
        for (const std::string& output : node.outputs) values += known_elements(graph, output, batch);
    return values;
}

/// The batch the inputs hold: a declared input's symbolic dimension as its tensor has it (an input
/// file's item count, a tensor given from Python), else `parameter` (the batch drawn inputs take).
std::int64_t input_batch(const Graph& graph, const std::vector<Tensor<double>>& inputs, std::int64_t parameter) {
    for (std::size_t i = 0; i < graph.inputs.size() && i < inputs.size(); ++i) {
        const Shape& declared = graph.inputs[i].shape;
        for (std::size_t d = 0; d < declared.size() && d < inputs[i].shape.size(); ++d)
            if (declared[d] < 0) return inputs[i].shape[d];
    }
    return parameter;
}

std::vector<std::string> file_list(const std::string& text) {
    std::vector<std::string> files;
    std::size_t start = 0;
    while (start <= text.size() && !text.empty()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start) files.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return files;
}

bool is_tensor_file(const std::filesystem::path& path) {
    return path.extension() == ".npy" || path.extension() == ".pb";
}

/// IDX images as the declared input: the first item count fills the batch dimension, pixels / 255
/// (as train-mlp scales them).
/// Images first .. first + batch - 1 of an IDX file (fewer where the file ends), scaled to [0, 1].
Tensor<double> idx_images(const std::filesystem::path& path, const ValueInfo& declared, std::size_t first,
                          std::size_t batch) {
    IdxArray idx = read_idx(path, first + batch);
    const std::size_t read = idx.dimensions.empty() ? 0 : idx.dimensions[0];
    if (first >= read && first > 0)
        throw Error(fmt::format("onnx: first={} but '{}' holds {} images", first, path.string(), read));
    const std::size_t items = read - first;
    const std::size_t per_item = read == 0 ? 0 : idx.values.size() / read;
    idx.values.erase(idx.values.begin(), idx.values.begin() + static_cast<std::ptrdiff_t>(first * per_item));
    if (!idx.dimensions.empty()) idx.dimensions[0] = items;
    Shape shape = declared.shape;
    if (shape.empty()) {
        shape.assign(idx.dimensions.begin(), idx.dimensions.end());
    } else {
        std::size_t fixed = 1;
        for (std::size_t d = 1; d < shape.size(); ++d) fixed *= shape[d] < 0 ? 0 : static_cast<std::size_t>(shape[d]);
        if (fixed != per_item || (shape[0] >= 0 && static_cast<std::size_t>(shape[0]) != items))
            throw Error(fmt::format("onnx: '{}' holds {} items of {} values; input '{}' takes shape {}", path.string(),
                                    items, per_item, declared.name, describe(declared.shape)));
        shape[0] = static_cast<std::int64_t>(items);
    }
    std::vector<double> values(idx.values.begin(), idx.values.end());
    for (double& v : values) v /= 255.0;
    return number_tensor(declared.type, shape, std::move(values));
}

/// An input drawn from the seed: symbolic dimensions take `batch`; floating values the
/// distribution times the scale, integers uniformly in [0, integer-range), bools 0 or 1.
Tensor<double> generated_input(const ValueInfo& declared, std::size_t index, const Parameters& p) {
    Shape shape = declared.shape;
    for (std::int64_t& d : shape)
        if (d < 0) d = p.integer("batch");
    const std::size_t count = element_count(shape);
    // Measured before it is built: a symbolic dimension times batch can ask for anything.
    core::require_memory(fmt::format("onnx: the drawn input '{}' of shape {}", declared.name, describe(shape)),
                         8.0 * static_cast<double>(count));
    SeededRandom random(static_cast<std::uint64_t>(p.integer("seed")), 10 + static_cast<std::uint32_t>(index));
    if (is_floating(declared.type)) {
        const Distribution distribution = parse_distribution(p.text("input"));
        std::vector<double> values(count);
        for (double& v : values) v = p.real("input-scale") * random.next(distribution);
        return number_tensor(declared.type, shape, std::move(values));
    }
    const auto range = declared.type == ElementType::Bool ? 2 : static_cast<std::uint64_t>(p.integer("integer-range"));
    std::vector<std::int64_t> values(count);
    for (std::int64_t& v : values) v = static_cast<std::int64_t>(random.below(range));
    return integer_tensor<double>(declared.type, shape, std::move(values));
}

std::vector<std::int64_t> read_labels(const std::filesystem::path& path) {
    if (path.extension() == ".npy") {
        const Tensor<double> t = read_input_file(path);
        if (t.floating())
            throw Error(fmt::format("onnx: labels '{}' are {}, not integers", path.string(), to_string(t.type)));
        return t.integers;
    }
    const IdxArray idx = read_idx(path);
    if (idx.dimensions.size() != 1) throw Error(fmt::format("onnx: labels '{}' are not a 1-D IDX file", path.string()));
    return {idx.values.begin(), idx.values.end()};
}

/// Whether labels= names an IDX file (read from `first` as the images are), not a .npy of its own.
bool is_idx_labels(const std::filesystem::path& path) { return path.extension() != ".npy"; }

/// The model, and its inputs from `given` (tensors held in memory; may be null), the inputs= files or the seed.
ModelRun load(const Parameters& p, const OnnxTensors* given) {
    const std::string& model = p.text("model");
    if (model.empty()) throw Error("onnx: give the model with --set model=FILE.onnx");
    ModelRun run{read_model(model), {}, {}};
    check_evaluable(run.graph, model);  // every unsupported node listed before anything runs
    // Sequences and optionals run between the nodes; the workload's inputs, outputs and regions are tensors.
    for (const auto* values : {&run.graph.inputs, &run.graph.outputs})
        for (const ValueInfo& v : *values)
            if (v.kind != ValueKind::Tensor)
                throw Unsupported(
                    fmt::format("onnx: {}: {} '{}' is a {}; the onnx workload takes and makes tensors (sequences and "
                                "optionals between its nodes are evaluated)",
                                model, values == &run.graph.inputs ? "input" : "output", v.name, to_string(v.kind)));
    run.node_values = known_node_values(run.graph, model, p.integer("batch"));
    const std::vector<std::string> files = file_list(p.text("inputs"));
    const bool held = given && !given->inputs.empty();
    if (held) {
        if (!files.empty()) throw Error("onnx: the inputs are given as tensors; inputs= must then be empty");
        if (given->inputs.size() != run.graph.inputs.size())
            throw Error(fmt::format("onnx: the model takes {} input(s), {} tensor(s) given", run.graph.inputs.size(),
                                    given->inputs.size()));
        run.inputs = given->inputs;
    }
    if (!files.empty() && files.size() != run.graph.inputs.size())
        throw Error(fmt::format("onnx: the model takes {} input(s) ({}), inputs= names {} file(s)",
                                run.graph.inputs.size(), run.graph.inputs.size(), files.size()));
    const auto batch = static_cast<std::size_t>(p.integer("batch"));
    const auto first = static_cast<std::size_t>(p.integer("first"));
    if (first > 0 && (files.empty() ||
                      std::any_of(files.begin(), files.end(), [](const std::string& f) { return is_tensor_file(f); })))
        throw Error("onnx: first= picks images of IDX files; give inputs= as IDX image files");
    for (std::size_t i = 0; !held && i < run.graph.inputs.size(); ++i) {
        if (files.empty()) {
            run.inputs.push_back(generated_input(run.graph.inputs[i], i, p));
        } else {
            const std::filesystem::path file = files[i];
            run.inputs.push_back(is_tensor_file(file) ? read_input_file(file)
                                                      : idx_images(file, run.graph.inputs[i], first, batch));
        }
    }
    check_inputs(run.graph, run.inputs);
    run.initializers_binary32 = std::all_of(run.graph.initializers.begin(), run.graph.initializers.end(),
                                            [](const auto& named) { return is_binary32(named.second.numbers); });
    run.batch = input_batch(run.graph, run.inputs, p.integer("batch"));
    if (!p.text("labels").empty()) {
        run.labels = read_labels(p.text("labels"));
        // The labels of the images read: from the same first one.
        if (first > 0 && is_idx_labels(p.text("labels"))) {
            if (first >= run.labels.size())
                throw Error(fmt::format("onnx: first={} but the labels hold {}", first, run.labels.size()));
            run.labels.erase(run.labels.begin(), run.labels.begin() + static_cast<std::ptrdiff_t>(first));
        }
        if (run.graph.outputs.empty()) throw Error("onnx: labels= given, but the model has no output");
    }
    return run;
}

/// What identifies a file's contents for the cache below: its path, size and modification time
/// (empty where it cannot be read: load then says why).
std::string file_stamp(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) return {};
    const auto time = std::filesystem::last_write_time(path, error);
    if (error) return {};
    return fmt::format("{}:{}:{}", path, size, time.time_since_epoch().count());
}

}  // namespace

std::shared_ptr<const ModelRun> load_shared(const Parameters& p, const OnnxTensors* given) {
    if (given && !given->inputs.empty()) return std::make_shared<const ModelRun>(load(p, given));
    std::string key;
    for (const auto& [name, value] : p.values()) key += name + "=" + value + "\n";
    for (const std::string& file : file_list(p.text("inputs"))) key += file_stamp(file) + "\n";
    key += file_stamp(p.text("model")) + "\n" + file_stamp(p.text("labels"));
    static std::mutex mutex;
    static std::string cached_key;
    static std::shared_ptr<const ModelRun> cached;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!cached || key != cached_key) {
        cached.reset();  // the old reading goes before the new one is made
        cached = std::make_shared<const ModelRun>(load(p, given));
        cached_key = key;
    }
    return cached;
}

}  // namespace floatscope::emu::onnx
