// Interpreter: evaluates a compiled FPCore Program over a number domain - the emulated formats
// (EmulatedDomain) or the MPFR ground truth (TruthDomain) - with FPCore 2.0's semantics.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/tensor_values.hpp"
#include "emulation/fpcore/value.hpp"
#include "emulation/fpcore/value_stack.hpp"

namespace floatscope::emu::fpcore {

/// Domain requirements (see EmulatedDomain and TruthDomain): a Number type; literal, constant,
/// apply, cast, input, index_value; compare (-1, 0, 1, or 2 for unordered), test (isfinite ...),
/// to_index (a non-negative integer value, else throws); finite_states (numbers take finitely many
/// values and rounding is deterministic, so a while loop that repeats a state never ends) and
/// same (bitwise equality) where it is true.
template <class Domain>
class Interpreter {
public:
    using Number = typename Domain::Number;
    using V = Value<Number>;

    /// Iteration values kept for the traced loop (the rest are not recorded).
    static constexpr std::size_t max_traced_iterations = 1000;

    Interpreter(const Program& program, Domain& domain, EvaluationLimits limits)
        : program_(program), domain_(domain), limits_(limits), frames_(program.functions.size()) {
        for (std::size_t i = 0; i < frames_.size(); ++i)
            frames_[i].resize(static_cast<std::size_t>(program.functions[i].slot_count));
    }

    /// Evaluates the benchmark on `inputs`: per argument its value, or a tensor argument's elements
    /// in row-major order (its dimensions from the arguments before it); rounded to the arguments'
    /// contexts. Throws BudgetExceeded past the limits, floatscope::Error for ill-typed programs.
    V run(const std::vector<Number>& inputs) {
        start();
        const Function& f = program_.functions[0];
        bind_inputs(f, inputs, frames_[0]);
        return eval(f.body, frames_[0]);
    }

    /// Evaluates :pre on the inputs (true when the program has none).
    bool precondition(const std::vector<Number>& inputs) {
        if (!program_.has_pre) return true;
        start();
        bind_inputs(program_.functions[0], inputs, frames_[0]);
        return boolean(eval(program_.pre, frames_[0]), program_.pre);
    }

    /// Evaluates an expression without free variables (bounds of :pre).
    V constant_expression(const Expr& e) {
        start();
        return eval(e, frames_[0]);
    }

    /// Traces of the last run: each traced let binding's value (nullopt where not reached), and
    /// the traced loop's first variable after each iteration.
    const std::vector<std::optional<Number>>& binding_values() const { return bindings_; }
    /// Loop iterations and tensor elements of the last evaluation.
    long long iterations() const { return iteration_count_; }
    /// The iterations allowed from the next evaluation on (EvaluationLimits::max_iterations).
    void set_iteration_budget(long long iterations) { limits_.max_iterations = iterations; }
    const std::vector<Number>& iteration_values() const { return iterations_; }

private:
    void start() {
        iteration_count_ = 0;
        deadline_ = thread_cpu_seconds() + limits_.max_seconds;
        bindings_.assign(program_.binding_names.size(), std::nullopt);
        iterations_.clear();
        stack_.clear();  // an evaluation that threw leaves its values
    }

    /// Evaluates e onto the value stack, straight into its new element.
    void push(const Expr& e, std::vector<V>& frame) { eval_to(e, frame, stack_.push()); }
    /// Removes the stack's values from `base` on.
    void pop_to(std::size_t base) { stack_.pop_to(base); }

    void bind_inputs(const Function& f, const std::vector<Number>& inputs, std::vector<V>& frame) {
        std::size_t next = 0;
        auto take = [&](std::size_t argument) {
            if (next == inputs.size())
                throw Error("too few input values for argument '" + f.argument_names[argument] + "'");
            return V::of(domain_.input(f.argument_contexts[argument], inputs[next++]));
        };
        for (std::size_t i = 0; i < f.argument_slots.size(); ++i) {
            V& bound = frame[static_cast<std::size_t>(f.argument_slots[i])];
            const std::vector<Expr>& dimensions = f.argument_dimensions[i];
            if (dimensions.empty()) {
                bound = take(i);
                continue;
            }
            std::vector<long long> dims;  // index() refuses negative and fractional sizes
            for (const Expr& d : dimensions) dims.push_back(index(eval(d, frame), d));
            require_tensor_memory<Number>(dims);
            long long count = 1;
            for (long long d : dims) count *= d;
            std::vector<V> flat;
            for (long long k = 0; k < count; ++k) flat.push_back(take(i));
            bound = nest<Number>(std::move(flat), dims);
        }
        if (next != inputs.size())
            throw Error(std::to_string(inputs.size()) + " input values for " + std::to_string(next) +
                        " argument elements");
    }

    /// Calls an FPCore on the arguments at stack_[base...], each rounded to its context (a tensor
    /// element by element). Calls are not recursive, so each function's frame is free when called.
    void call(int index, std::size_t base, V& out) {
        const Function& f = program_.functions[static_cast<std::size_t>(index)];
        std::vector<V>& frame = frames_[static_cast<std::size_t>(index)];
        for (std::size_t i = 0; i < f.argument_slots.size(); ++i)
            frame[static_cast<std::size_t>(f.argument_slots[i])] = rounded(f.argument_contexts[i], stack_[base + i]);
        pop_to(base);
        eval_to(f.body, frame, out);
    }

    V rounded(int context, const V& v) {
        if (v.kind == V::Kind::Boolean) return v;
        if (v.kind == V::Kind::Number) return V::of(domain_.input(context, v.number));
        auto elements = std::make_shared<std::vector<V>>();
        for (const V& e : *v.elements) elements->push_back(rounded(context, e));
        V t;
        t.kind = V::Kind::Tensor;
        t.elements = std::move(elements);
        return t;
    }

    [[noreturn]] void past_iteration_budget(const Expr& e) const {
        throw BudgetExceeded(e.location.describe() + ": the loop ran past the iteration budget of " +
                             std::to_string(limits_.max_iterations) + " iterations (--max-iterations raises it)");
    }

    void count_iteration(const Expr& e) {
        ++iteration_count_;
        if (iteration_count_ > limits_.max_iterations) past_iteration_budget(e);
        if ((iteration_count_ & 1023) == 0 && thread_cpu_seconds() > deadline_)
            throw BudgetExceeded(e.location.describe() + ": the evaluation ran past its time budget of " +
                                 std::to_string(limits_.max_seconds) + " s of CPU time");
    }

    static bool boolean(const V& v, const Expr& e) {
        if (v.kind != V::Kind::Boolean) fail_at(e.location, "expected a boolean (a test such as (< a b))");
        return v.boolean;
    }
    static const Number& number(const V& v, const Expr& e) {
        if (v.kind != V::Kind::Number) fail_at(e.location, "expected a number");
        return v.number;
    }
    long long index(const V& v, const Expr& e) { return domain_.to_index(number(v, e), e); }

    void record_iteration(const Expr& loop, const std::vector<V>& frame, std::size_t first_slot) {
        if (!loop.traced_loop || iterations_.size() >= max_traced_iterations) return;
        const V& v = frame[first_slot];
        if (v.kind == V::Kind::Number) iterations_.push_back(v.number);
    }

    /// e's value as a new Value (where no destination is at hand: tests, sizes, tensors).
    V eval(const Expr& e, std::vector<V>& frame) {
        V v;
        eval_to(e, frame, v);
        return v;
    }

    static void set_number(V& out) {
        out.kind = V::Kind::Number;
        out.elements.reset();
    }
    static void set_boolean(V& out, bool b) {
        out.kind = V::Kind::Boolean;
        out.boolean = b;
        out.elements.reset();
    }

    /// Evaluates e into `out`, which may be a variable e reads (a while* update): operations read
    /// their operands before they write, and nothing else writes out before its last step.
    void eval_to(const Expr& e, std::vector<V>& frame, V& out) {
        using K = Expr::Kind;
        switch (e.kind) {
            case K::Number:
                set_number(out);
                out.number = domain_.literal(e);
                return;
            case K::Constant:
                if (e.constant == Constant::True || e.constant == Constant::False) {
                    set_boolean(out, e.constant == Constant::True);
                    return;
                }
                set_number(out);
                out.number = domain_.constant(e);
                return;
            case K::Variable: {
                const V& v = frame[static_cast<std::size_t>(e.slot)];
                if (&v != &out) out = v;
                return;
            }
            case K::Operation: operation(e, frame, out); return;
            case K::Call: {
                const Function& callee = program_.functions[static_cast<std::size_t>(e.function)];
                const std::size_t base = stack_.size();
                for (std::size_t i = 0; i < e.children.size(); ++i) {
                    const Expr& a = e.children[i];
                    push(a, frame);
                    if (callee.argument_dimensions[i].empty())
                        number(stack_[stack_.size() - 1], a);
                    else if (stack_[stack_.size() - 1].kind != V::Kind::Tensor)
                        fail_at(a.location, "expected a tensor for argument '" + callee.argument_names[i] + "'");
                }
                call(e.function, base, out);
                return;
            }
            case K::If:
                eval_to(boolean(eval(e.children[0], frame), e.children[0]) ? e.children[1] : e.children[2], frame, out);
                return;
            case K::Let:
            case K::LetStar: {
                const std::size_t n = e.slots.size();
                if (e.kind == K::Let) {
                    assign_together(e, frame, 0, 1, 0, n);
                } else {
                    for (std::size_t i = 0; i < n; ++i)
                        eval_to(e.children[i], frame, frame[static_cast<std::size_t>(e.slots[i])]);
                }
                for (std::size_t i = 0; i < n; ++i) {
                    const V& v = frame[static_cast<std::size_t>(e.slots[i])];
                    if (e.binding_regions[i] >= 0 && v.kind == V::Kind::Number)
                        bindings_[static_cast<std::size_t>(e.binding_regions[i])] = v.number;
                }
                eval_to(e.children[n], frame, out);
                return;
            }
            case K::While:
            case K::WhileStar: loop_while(e, frame, out); return;
            case K::For:
            case K::ForStar:
            case K::TensorStar: loop_for(e, frame, out); return;
            case K::Tensor: out = tensor(e, frame); return;
            case K::Cast: {
                Number x = number(eval(e.children[0], frame), e.children[0]);
                set_number(out);
                out.number = domain_.cast(e, x);
                return;
            }
            case K::Array: {
                auto elements = std::make_shared<std::vector<V>>();
                for (const Expr& c : e.children) elements->push_back(eval(c, frame));
                out.kind = V::Kind::Tensor;
                out.elements = std::move(elements);
                return;
            }
        }
    }

    /// Updates loop variables: all at once (while, for) or one after another (while*, for*).
    void update(const Expr& e, std::vector<V>& frame, std::size_t first_child, std::size_t first_slot,
                std::size_t count, bool sequential) {
        if (sequential) {
            for (std::size_t i = 0; i < count; ++i)
                eval_to(e.children[first_child + 2 * i + 1], frame,
                        frame[static_cast<std::size_t>(e.slots[first_slot + i])]);
            return;
        }
        assign_together(e, frame, first_child + 1, 2, first_slot, count);
    }

    void initialise(const Expr& e, std::vector<V>& frame, std::size_t first_child, std::size_t first_slot,
                    std::size_t count, bool sequential) {
        if (sequential) {
            for (std::size_t i = 0; i < count; ++i)
                eval_to(e.children[first_child + 2 * i], frame,
                        frame[static_cast<std::size_t>(e.slots[first_slot + i])]);
            return;
        }
        assign_together(e, frame, first_child, 2, first_slot, count);
    }

    /// Binds `count` variables at once: children first_child, first_child + stride, ... are all
    /// evaluated before slots first_slot... take their values.
    void assign_together(const Expr& e, std::vector<V>& frame, std::size_t first_child, std::size_t stride,
                         std::size_t first_slot, std::size_t count) {
        const std::size_t base = stack_.size();
        for (std::size_t i = 0; i < count; ++i) push(e.children[first_child + stride * i], frame);
        for (std::size_t i = 0; i < count; ++i)
            frame[static_cast<std::size_t>(e.slots[first_slot + i])] = stack_[base + i];
        pop_to(base);
    }

    /// The variable of a while loop's test_state at `k`.
    static V& watched(const Expr& e, std::vector<V>& frame, std::size_t k) {
        return frame[static_cast<std::size_t>(e.slots[static_cast<std::size_t>(e.test_state[k])])];
    }

    /// Whether the loop's test_state holds the same values as the snapshot at stack_[snapshot...]
    /// (numbers bit for bit).
    bool same_state(const Expr& e, std::vector<V>& frame, std::size_t snapshot) const {
        for (std::size_t k = 0; k < e.test_state.size(); ++k) {
            const V& a = watched(e, frame, k);
            const V& b = stack_[snapshot + k];
            if (a.kind != b.kind || a.kind == V::Kind::Tensor) return false;
            if (a.kind == V::Kind::Boolean ? a.boolean != b.boolean : !domain_.same(a.number, b.number)) return false;
        }
        return true;
    }

    void loop_while(const Expr& e, std::vector<V>& frame, V& out) {
        const bool sequential = e.kind == Expr::Kind::WhileStar;
        const std::size_t count = e.slots.size();
        initialise(e, frame, 1, 0, count, sequential);
        // A loop of a pure program over finitely many states whose test_state (what decides the test)
        // returns to earlier values never ends: Brent's cycle detection (BIT 20, 1980) compares it
        // with a copy saved at powers of two: a bf16 counter stuck at 256 stops at iteration 512.
        const std::size_t snapshot = stack_.size();  // the copy, on the stack
        if constexpr (Domain::finite_states)
            for (std::size_t k = 0; k < e.test_state.size(); ++k) stack_.push();
        long long power = 1, since_snapshot = 0, iterations = 0;
        if constexpr (Domain::exact_counters)
            if (counts_past_budget(e, frame)) past_iteration_budget(e);  // what running it would end in
        const Expr& test = e.children[0];
        const bool endless = test.kind == Expr::Kind::Constant && test.constant == Constant::True;
        while (endless ? iterations < limits_.endless_loop_iterations : boolean(eval(test, frame), test)) {
            count_iteration(e);
            if constexpr (Domain::finite_states) {
                if (since_snapshot == 0)
                    for (std::size_t k = 0; k < e.test_state.size(); ++k) stack_[snapshot + k] = watched(e, frame, k);
            }
            update(e, frame, 1, 0, count, sequential);
            ++iterations;
            if (count > 0) record_iteration(e, frame, static_cast<std::size_t>(e.slots[0]));
            if constexpr (Domain::finite_states) {
                // An endless loop's result is its state after a fixed count, a repeated state included.
                if (!endless && same_state(e, frame, snapshot))
                    throw BudgetExceeded(e.location.describe() + ": the variables of the loop's test returned to " +
                                         "earlier values after " + std::to_string(iterations) +
                                         " iterations: it never ends");
                if (++since_snapshot == power) {
                    power *= 2;
                    since_snapshot = 0;
                }
            }
        }
        pop_to(snapshot);
        eval_to(e.children.back(), frame, out);
    }

    /// Whether a while loop will run past the iteration budget, told before it runs: its test
    /// compares one of its variables with a literal or an outer variable, and that variable's
    /// update adds or subtracts a literal ((+ i 1)); the domain counts such a counter exactly.
    bool counts_past_budget(const Expr& e, const std::vector<V>& frame) {
        const Expr& test = e.children[0];
        if (test.kind != Expr::Kind::Operation || test.children.size() != 2 ||
            (test.op != Op::Less && test.op != Op::LessEqual && test.op != Op::Greater && test.op != Op::GreaterEqual))
            return false;
        auto loop_variable = [&](const Expr& x) -> std::ptrdiff_t {
            if (x.kind != Expr::Kind::Variable) return -1;
            const auto at = std::find(e.slots.begin(), e.slots.end(), x.slot);
            return at == e.slots.end() ? -1 : at - e.slots.begin();
        };
        const bool counter_left = loop_variable(test.children[0]) >= 0;
        const Expr& counter = test.children[counter_left ? 0 : 1];
        const Expr& bound = test.children[counter_left ? 1 : 0];
        const std::ptrdiff_t position = loop_variable(counter);
        if (position < 0 ||
            (bound.kind != Expr::Kind::Number && (bound.kind != Expr::Kind::Variable || loop_variable(bound) >= 0)))
            return false;
        const Expr& update = e.children[2 + 2 * static_cast<std::size_t>(position)];
        if (update.kind != Expr::Kind::Operation || (update.op != Op::Add && update.op != Op::Sub) ||
            update.children.size() != 2)
            return false;
        const bool step_right =
            update.children[0].kind == Expr::Kind::Variable && update.children[0].slot == counter.slot;
        const bool step_left = update.op == Op::Add && update.children[1].kind == Expr::Kind::Variable &&
                               update.children[1].slot == counter.slot;
        const Expr& step = update.children[step_right ? 1 : 0];
        if ((!step_right && !step_left) || step.kind != Expr::Kind::Number) return false;
        const V& start = frame[static_cast<std::size_t>(counter.slot)];
        const V& limit = bound.kind == Expr::Kind::Number ? V::of(domain_.literal(bound))
                                                          : frame[static_cast<std::size_t>(bound.slot)];
        if (start.kind != V::Kind::Number || limit.kind != V::Kind::Number) return false;
        // counter < bound is bound > counter: the counter then has to rise to end the loop.
        const bool rising = counter_left == (test.op == Op::Less || test.op == Op::LessEqual);
        const bool inclusive = test.op == Op::LessEqual || test.op == Op::GreaterEqual;
        return domain_.counts_past(start.number, domain_.literal(step), update.op == Op::Sub, rising, inclusive,
                                   limit.number, limits_.max_iterations - iteration_count_);
    }

    /// The sizes of a for/tensor's index dimensions.
    std::vector<long long> sizes(const Expr& e, std::vector<V>& frame) {
        std::vector<long long> result;
        for (int i = 0; i < e.index_count; ++i) {
            const Expr& size = e.children[static_cast<std::size_t>(i)];
            result.push_back(index(eval(size, frame), size));
        }
        return result;
    }

    /// Visits every index tuple in row-major order (the last index innermost), setting the
    /// index variables, and calls `visit` for each.
    template <class Visit>
    void for_each_index(const Expr& e, std::vector<V>& frame, const std::vector<long long>& dims, Visit visit) {
        std::vector<long long> position(dims.size(), 0);
        for (long long d : dims)
            if (d <= 0) return;
        for (;;) {
            count_iteration(e);
            for (std::size_t k = 0; k < dims.size(); ++k)
                frame[static_cast<std::size_t>(e.slots[k])] = V::of(domain_.index_value(e, position[k]));
            visit();
            std::size_t k = dims.size();
            while (k > 0 && ++position[k - 1] == dims[k - 1]) position[--k] = 0;
            if (k == 0) return;
        }
    }

    void loop_for(const Expr& e, std::vector<V>& frame, V& out) {
        const bool sequential = e.kind != Expr::Kind::For;
        const std::vector<long long> dims = sizes(e, frame);
        const std::size_t indices = dims.size();
        const std::size_t count = e.slots.size() - indices;
        initialise(e, frame, indices, indices, count, sequential);
        if (e.kind == Expr::Kind::TensorStar) {
            require_tensor_memory<Number>(dims);
            // FPBench's reference: per index tuple, update the accumulators, then the element is the body.
            auto elements = std::make_shared<std::vector<V>>();
            for_each_index(e, frame, dims, [&] {
                update(e, frame, indices, indices, count, sequential);
                elements->push_back(eval(e.children.back(), frame));
            });
            out = nest<Number>(std::move(*elements), dims);
            return;
        }
        for_each_index(e, frame, dims, [&] {
            update(e, frame, indices, indices, count, sequential);
            if (count > 0) record_iteration(e, frame, static_cast<std::size_t>(e.slots[indices]));
        });
        eval_to(e.children.back(), frame, out);
    }

    V tensor(const Expr& e, std::vector<V>& frame) {
        const std::vector<long long> dims = sizes(e, frame);
        require_tensor_memory<Number>(dims);
        std::vector<V> flat;
        for_each_index(e, frame, dims, [&] { flat.push_back(eval(e.children.back(), frame)); });
        return nest<Number>(std::move(flat), dims);
    }

    /// FPCore comparisons of the operands: every ordered pair (==, <, ...) or all pairs (!=).
    bool compare(const Expr& e, const Number* const* args) {
        const std::size_t count = e.children.size();
        auto n = [&](std::size_t i) -> const Number& { return *args[i]; };
        auto holds = [&](int c) {
            switch (e.op) {
                case Op::Less: return c == -1;
                case Op::Greater: return c == 1;
                case Op::LessEqual: return c == -1 || c == 0;
                case Op::GreaterEqual: return c == 1 || c == 0;
                case Op::Equal: return c == 0;
                default: return c != 0;  // NotEqual: unordered (NaN) counts as distinct
            }
        };
        if (e.op == Op::NotEqual) {
            for (std::size_t i = 0; i < count; ++i)
                for (std::size_t j = i + 1; j < count; ++j)
                    if (!holds(domain_.compare(n(i), n(j)))) return false;
            return true;
        }
        for (std::size_t i = 0; i + 1 < count; ++i)
            if (!holds(domain_.compare(n(i), n(i + 1)))) return false;
        return true;
    }

    void operation(const Expr& e, std::vector<V>& frame, V& out) {
        switch (e.op) {
            case Op::And:
            case Op::Or: {
                // The first operand that decides (false for and, true for or) ends the evaluation.
                const bool decides = e.op == Op::Or;
                bool result = !decides;
                for (const Expr& c : e.children)
                    if (boolean(eval(c, frame), c) == decides) {
                        result = decides;
                        break;
                    }
                set_boolean(out, result);
                return;
            }
            case Op::Not: set_boolean(out, !boolean(eval(e.children[0], frame), e.children[0])); return;
            case Op::Dim: {
                V t = eval(e.children[0], frame);
                long long d = 0;
                while (t.kind == V::Kind::Tensor) {
                    ++d;
                    if (t.elements->empty()) break;
                    V first = t.elements->front();
                    t = std::move(first);
                }
                set_number(out);
                out.number = domain_.index_value(e, d);
                return;
            }
            case Op::Size: {
                V t = eval(e.children[0], frame);
                const long long axis = index(eval(e.children[1], frame), e.children[1]);
                for (long long k = 0; k < axis && t.kind == V::Kind::Tensor && !t.elements->empty(); ++k) {
                    V first = t.elements->front();
                    t = std::move(first);
                }
                if (t.kind != V::Kind::Tensor)
                    fail_at(e.location, "size: the tensor has fewer dimensions than asked for");
                set_number(out);
                out.number = domain_.index_value(e, static_cast<long long>(t.elements->size()));
                return;
            }
            case Op::Ref: {
                V t = eval(e.children[0], frame);
                for (std::size_t k = 1; k < e.children.size(); ++k) {
                    const long long i = index(eval(e.children[k], frame), e.children[k]);
                    if (t.kind != V::Kind::Tensor)
                        fail_at(e.location, "ref: more indices than the tensor has dimensions");
                    if (i >= static_cast<long long>(t.elements->size()))
                        fail_at(e.children[k].location, "ref: index " + std::to_string(i) + " is past the end (size " +
                                                            std::to_string(t.elements->size()) + ")");
                    V element = (*t.elements)[static_cast<std::size_t>(i)];
                    t = std::move(element);
                }
                out = std::move(t);
                return;
            }
            default: break;
        }
        const std::size_t base = stack_.size();
        for (const Expr& c : e.children)
            if (!read_in_place(c)) push(c, frame);
        combine(e, operands(e, frame, base), out);
        pop_to(base);
    }

    /// Variables and literals are read where they are, not copied onto the stack: evaluating the
    /// other operands cannot change them (every binding has a slot of its own, calls are not
    /// recursive, and a literal's value is fixed during an evaluation).
    static bool read_in_place(const Expr& c) {
        return c.kind == Expr::Kind::Variable || c.kind == Expr::Kind::Number ||
               (c.kind == Expr::Kind::Constant && c.constant != Constant::True && c.constant != Constant::False);
    }

    /// The numbers e operates on, in order: each read in place, or the next value pushed from
    /// stack_[base] on. Valid until the stack or a frame changes.
    const Number* const* operands(const Expr& e, const std::vector<V>& frame, std::size_t base) {
        if (operands_.size() < e.children.size()) operands_.resize(e.children.size());  // grows to the largest arity
        std::size_t pushed = base;
        for (std::size_t i = 0; i < e.children.size(); ++i) {
            const Expr& c = e.children[i];
            if (c.kind == Expr::Kind::Variable)
                operands_[i] = &number(frame[static_cast<std::size_t>(c.slot)], c);
            else if (c.kind == Expr::Kind::Number)
                operands_[i] = &domain_.literal(c);
            else if (read_in_place(c))
                operands_[i] = &domain_.constant(c);
            else
                operands_[i] = &number(stack_[pushed++], c);
        }
        return operands_.data();
    }

    /// An operation of its operands, into out (which may be one of them).
    void combine(const Expr& e, const Number* const* args, V& out) {
        const ResultKind kind = operation_info(e.op).result;
        if (kind == ResultKind::Boolean) {
            const bool test = e.op == Op::IsFinite || e.op == Op::IsInf || e.op == Op::IsNan || e.op == Op::IsNormal ||
                              e.op == Op::Signbit;
            set_boolean(out, test ? domain_.test(e, e.op, *args[0]) : compare(e, args));
            return;
        }
        set_number(out);
        domain_.apply(e, args, static_cast<int>(e.children.size()), out.number);
    }

    const Program& program_;
    Domain& domain_;
    EvaluationLimits limits_;
    long long iteration_count_ = 0;
    double deadline_ = 0;  ///< thread CPU seconds
    std::vector<std::optional<Number>> bindings_;
    std::vector<Number> iterations_;
    /// Per function, its variables: reused by every evaluation, so that none allocates them.
    std::vector<std::vector<V>> frames_;
    /// Values waiting for their operation or binding (arguments, parallel bindings, loop state
    /// snapshots): reused, so that an evaluation allocates only while it grows.
    ValueStack<Number> stack_;
    std::vector<const Number*> operands_;  ///< of the operation being combined (see operands())
};

}  // namespace floatscope::emu::fpcore
