// ValueStack: the interpreter's stack of values waiting for their operation, whose elements stay
// where they are while it grows, so that an expression can be evaluated straight into its slot.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "emulation/fpcore/value.hpp"

namespace floatscope::emu::fpcore {

/// A stack of Values whose references stay valid until their element is popped: each element has
/// its own allocation, made the first time the stack reaches that depth and reused from then on
/// (a popped element keeps its storage; its next push overwrites it).
template <class N>
class ValueStack {
public:
    using V = Value<N>;

    std::size_t size() const { return size_; }
    V& operator[](std::size_t i) { return *elements_[i]; }
    const V& operator[](std::size_t i) const { return *elements_[i]; }

    /// A new top element holding whatever an earlier push left there: the caller sets it.
    V& push() {
        if (size_ == elements_.size()) elements_.push_back(std::make_unique<V>());
        return *elements_[size_++];
    }
    /// Removes the elements from `base` on (their tensors are released, their numbers kept).
    void pop_to(std::size_t base) {
        for (std::size_t i = base; i < size_; ++i) elements_[i]->elements.reset();
        size_ = base;
    }
    void clear() { pop_to(0); }

private:
    std::vector<std::unique_ptr<V>> elements_;
    std::size_t size_ = 0;
};

}  // namespace floatscope::emu::fpcore
