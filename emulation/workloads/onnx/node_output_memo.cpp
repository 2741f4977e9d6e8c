#include "emulation/workloads/onnx/node_output_memo.hpp"

#include <functional>
#include <string_view>

#include <boost/container_hash/hash.hpp>

#include "emulation/simulation/output_reuse.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class T>
std::uint64_t bytes_hash(const std::vector<T>& values) {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}

std::uint64_t key_hash(const NodeKey& key) {
    std::size_t h = 0;
    boost::hash_combine(h, key.model);
    boost::hash_combine(h, key.node);
    boost::hash_combine(h, key.seed);
    for (std::uint64_t input : key.inputs) boost::hash_combine(h, input);
    return h;
}

std::uint64_t tensor_bytes(const Tensor<double>& t) {
    return (t.numbers.size() + t.integers.size() + t.shape.size()) * 8 + sizeof(Tensor<double>);
}

}  // namespace

std::uint64_t content_hash(const Tensor<double>& t) {
    std::size_t h = 0;
    boost::hash_combine(h, static_cast<int>(t.type));
    boost::hash_combine(h, static_cast<int>(t.kind));
    boost::hash_combine(h, bytes_hash(t.shape));
    boost::hash_combine(h, bytes_hash(t.numbers));
    boost::hash_combine(h, bytes_hash(t.integers));
    return h;
}

NodeOutputMemo& NodeOutputMemo::instance() {
    static NodeOutputMemo made;
    static const bool registered = (on_output_reuse_end([] { made.clear(); }), true);
    (void)registered;
    return made;
}

std::optional<KeptNode> NodeOutputMemo::find(const NodeKey& key) {
    if (output_reuse_budget() == 0) return std::nullopt;
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto [first, last] = by_hash_.equal_range(key_hash(key));
    for (auto it = first; it != last; ++it) {
        if (!(it->second->key == key)) continue;
        entries_.splice(entries_.begin(), entries_, it->second);
        ++hits_;
        return it->second->made;
    }
    return std::nullopt;
}

void NodeOutputMemo::keep(const NodeKey& key, const std::vector<const Tensor<double>*>& outputs,
                          const std::map<int, std::uint64_t>& operand_counts) {
    const std::uint64_t budget = output_reuse_budget();
    Entry entry{key, {{}, operand_counts}, 32 * operand_counts.size()};
    for (const Tensor<double>* t : outputs) {
        entry.made.outputs.push_back(t ? *t : Tensor<double>{});
        entry.bytes += tensor_bytes(entry.made.outputs.back());
    }
    if (entry.bytes > budget) return;
    const std::uint64_t hash = key_hash(key);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto [first, last] = by_hash_.equal_range(hash);
    for (auto it = first; it != last; ++it)
        if (it->second->key == key) return;  // another thread kept it meanwhile
    while (bytes_ + entry.bytes > budget && !entries_.empty()) {
        const Entry& oldest = entries_.back();
        const auto [from, to] = by_hash_.equal_range(key_hash(oldest.key));
        for (auto it = from; it != to; ++it)
            if (it->second == std::prev(entries_.end())) {
                by_hash_.erase(it);
                break;
            }
        bytes_ -= oldest.bytes;
        entries_.pop_back();
    }
    bytes_ += entry.bytes;
    entries_.push_front(std::move(entry));
    by_hash_.emplace(hash, entries_.begin());
}

void NodeOutputMemo::clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    by_hash_.clear();
    entries_.clear();
    bytes_ = 0;
}

}  // namespace floatscope::emu::onnx
