// Compiling FPCore data into Programs: the grammar of FPCore 2.0 expressions, checked with
// line and column, and lexical rounding contexts resolved under the user's policy.
#include "emulation/fpcore/program.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace floatscope::emu::fpcore {

namespace {

enum class ContextSource { Top, Bang };

class Compiler {
public:
    Compiler(const std::vector<FPCore>& library, const ContextPolicy& policy, Program& program)
        : library_(library), policy_(policy), program_(program) {}

    /// Compiles `core` into program_.functions[index].
    void compile_function(const FPCore& core, int index, bool is_benchmark) {
        active_.push_back(&core);
        Function function;
        function.name = core.display_name();
        const int top = top_context(core);
        std::vector<std::pair<std::string, int>> scope;
        int slot_count = 0;
        for (const Argument& argument : core.arguments) {
            // A dimension names an argument before this one or is a number (FPCore 2.0).
            State dimension_state{scope, slot_count, top, false, false};
            std::vector<Expr> dimensions;
            for (const Datum& d : argument.dimensions) dimensions.push_back(expression(d, dimension_state));
            function.argument_dimensions.push_back(std::move(dimensions));
            const int slot = slot_count++;
            int context = top;
            if (!argument.properties.empty()) context = annotate(argument.properties, top);
            function.argument_names.push_back(argument.name);
            function.argument_slots.push_back(slot);
            function.argument_contexts.push_back(context);
            scope.emplace_back(argument.name, slot);
        }
        State state{scope, slot_count, top, false, is_benchmark};
        function.body = expression(core.body, state);
        if (is_benchmark) {
            program_.result_context = policy_.operation_formats.empty() ? function.body.context : top;
            if (const Datum* pre = core.property("pre")) {
                State pre_state{scope, state.slot_count, top, false, false};
                program_.pre = expression(*pre, pre_state);
                program_.has_pre = true;
                state.slot_count = std::max(state.slot_count, pre_state.slot_count);
            }
            if (const Datum* example = core.property("example");
                example != nullptr && example->kind == Datum::Kind::List) {
                for (const Datum& binding : example->items) {
                    if (binding.kind != Datum::Kind::List || binding.items.size() != 2 ||
                        binding.items[0].kind != Datum::Kind::Symbol)
                        fail_at(binding.location,
                                "malformed :example entry " + print_datum(binding) + ": expected [argument value]");
                    const auto at = std::find(function.argument_names.begin(), function.argument_names.end(),
                                              binding.items[0].text);
                    if (at == function.argument_names.end()) continue;  // an output or other name: not an input
                    State constant_state{{}, state.slot_count, top, false, false};
                    program_.example.emplace_back(static_cast<int>(at - function.argument_names.begin()),
                                                  expression(binding.items[1], constant_state));
                    // It is evaluated in the benchmark's frame: its lets' slots must be in that frame.
                    state.slot_count = std::max(state.slot_count, constant_state.slot_count);
                }
            }
        }
        function.slot_count = state.slot_count;
        program_.functions[static_cast<std::size_t>(index)] = std::move(function);
        active_.pop_back();
    }

private:
    struct State {
        std::vector<std::pair<std::string, int>> scope;
        int slot_count;
        int context;
        bool in_loop;
        bool traced;  ///< in the benchmark's own body (not a callee, not :pre): traces allowed
    };

    int add_context(const RoundingContext& context) {
        for (std::size_t i = 0; i < program_.contexts.size(); ++i) {
            const RoundingContext& c = program_.contexts[i];
            if (c.mode == context.mode && c.precision.kind == context.precision.kind &&
                c.precision.name == context.precision.name && c.precision.format == context.precision.format)
                return static_cast<int>(i);
        }
        program_.contexts.push_back(context);
        return static_cast<int>(program_.contexts.size() - 1);
    }

    /// `precision`, or the policy's format where the policy replaces it.
    Precision overridden(Precision precision, ContextSource source) const {
        if (!policy_.format || precision.kind == PrecisionKind::Integer) return precision;
        const bool replace = policy_.mode == OverrideMode::All ||
                             (policy_.mode == OverrideMode::Top && source == ContextSource::Top) ||
                             (policy_.mode == OverrideMode::Bang && source == ContextSource::Bang);
        if (!replace) return precision;
        return Precision{PrecisionKind::Float, policy_.format->name, *policy_.format, true};
    }

    /// A context in the policy's format rounds as the policy says, when it names a rounding
    /// (`fp16@rtz`), whatever :round the program wrote around it.
    RoundingContext with_policy_rounding(RoundingContext context) const {
        if (policy_.format && policy_.rounding && context.precision.kind == PrecisionKind::Float &&
            context.precision.name == policy_.format->name && context.precision.format == *policy_.format)
            context.mode = *policy_.rounding;
        return context;
    }

    int top_context(const FPCore& core) {
        RoundingContext context;
        Datum binary64{Datum::Kind::Symbol, "binary64", {}, core.location};
        const Datum* precision = core.property("precision");
        context.precision =
            overridden(parse_precision(precision != nullptr ? *precision : binary64), ContextSource::Top);
        if (const Datum* round = core.property("round")) context.mode = parse_round(*round);
        return add_context(with_policy_rounding(context));
    }

    /// The context of a `!` annotation with `properties` inside context `parent`.
    int annotate(const std::vector<Property>& properties, int parent) {
        RoundingContext context = program_.contexts[static_cast<std::size_t>(parent)];
        for (const Property& p : properties) {
            if (p.name == "precision") context.precision = overridden(parse_precision(p.value), ContextSource::Bang);
            if (p.name == "round") context.mode = parse_round(p.value);
        }
        return add_context(with_policy_rounding(context));
    }

    static void expect_size(const Datum& d, std::size_t size, const std::string& form) {
        if (d.items.size() != size) fail_at(d.location, "malformed " + d.items[0].text + ": expected " + form);
    }

    /// [name expr] or [name init update] lists of let, while and for.
    static const std::vector<Datum>& bindings(const Datum& list, std::size_t width, const std::string& form) {
        if (list.kind != Datum::Kind::List) fail_at(list.location, "expected a list of bindings " + form);
        for (const Datum& b : list.items)
            if (b.kind != Datum::Kind::List || b.items.size() != width || b.items[0].kind != Datum::Kind::Symbol)
                fail_at(b.location, "malformed binding " + print_datum(b) + ": expected " + form);
        return list.items;
    }

    int bind(State& state, const std::string& name) {
        const int slot = state.slot_count++;
        state.scope.emplace_back(name, slot);
        return slot;
    }

    Expr node(Expr::Kind kind, const Datum& d, const State& state) {
        Expr e;
        e.kind = kind;
        e.location = d.location;
        e.context = state.context;
        if (kind == Expr::Kind::Number || kind == Expr::Kind::Constant) e.literal = program_.literal_count++;
        return e;
    }

    Expr expression(const Datum& d, State& state) {
        switch (d.kind) {
            case Datum::Kind::Number: {
                Expr e = node(Expr::Kind::Number, d, state);
                try {
                    e.number = parse_number_literal(d.text);
                } catch (const Error& error) {
                    fail_at(d.location, error.what());
                }
                return e;
            }
            case Datum::Kind::String: fail_at(d.location, "a string is not an expression");
            case Datum::Kind::Symbol: return symbol(d, state);
            case Datum::Kind::List: break;
        }
        if (d.items.empty()) fail_at(d.location, "empty list () is not an expression");
        const Datum& head = d.items[0];
        if (head.kind != Datum::Kind::Symbol)
            fail_at(head.location, "expected an operation name, got " + print_datum(head));
        const std::string& h = head.text;
        if (h == "if") {
            expect_size(d, 4, "(if cond then else)");
            Expr e = node(Expr::Kind::If, d, state);
            for (std::size_t i = 1; i < 4; ++i) e.children.push_back(expression(d.items[i], state));
            return e;
        }
        if (h == "let" || h == "let*") return let(d, state, h == "let*");
        if (h == "while" || h == "while*") return loop_while(d, state, h == "while*");
        if (h == "for" || h == "for*" || h == "tensor*") return loop_for(d, state, h);
        if (h == "tensor") return tensor(d, state);
        if (h == "cast") {
            expect_size(d, 2, "(cast expr)");
            Expr e = node(Expr::Kind::Cast, d, state);
            e.children.push_back(expression(d.items[1], state));
            return e;
        }
        if (h == "array") {
            Expr e = node(Expr::Kind::Array, d, state);
            for (std::size_t i = 1; i < d.items.size(); ++i) e.children.push_back(expression(d.items[i], state));
            return e;
        }
        if (h == "digits") {
            expect_size(d, 4, "(digits m e b)");
            Expr e = node(Expr::Kind::Number, d, state);
            try {
                e.number = digits_value(d.items[1].text, d.items[2].text, d.items[3].text);
            } catch (const Error& error) {
                fail_at(d.location, error.what());
            }
            return e;
        }
        if (h == "!") {
            std::vector<Property> properties;
            std::size_t i = 1;
            while (i + 1 < d.items.size() && d.items[i].kind == Datum::Kind::Symbol && d.items[i].text.size() > 1 &&
                   d.items[i].text[0] == ':') {
                properties.push_back({d.items[i].text.substr(1), d.items[i + 1]});
                i += 2;
            }
            if (i + 1 != d.items.size()) fail_at(d.location, "malformed !: expected (! :property value ... expr)");
            const int saved = state.context;
            state.context = annotate(properties, saved);
            Expr body = expression(d.items[i], state);
            state.context = saved;
            return body;
        }
        if (auto info = find_operation(h)) return operation(d, *info, state);
        return call(d, state);
    }

    Expr symbol(const Datum& d, const State& state) {
        for (auto it = state.scope.rbegin(); it != state.scope.rend(); ++it)
            if (it->first == d.text) {
                Expr e = node(Expr::Kind::Variable, d, state);
                e.slot = it->second;
                return e;
            }
        if (auto constant = find_constant(d.text)) {
            Expr e = node(Expr::Kind::Constant, d, state);
            e.constant = *constant;
            return e;
        }
        fail_at(d.location, "unbound variable '" + d.text + "'");
    }

    Expr operation(const Datum& d, const OperationInfo& info, State& state) {
        const int count = static_cast<int>(d.items.size()) - 1;
        if (count < info.min_arguments || (info.max_arguments >= 0 && count > info.max_arguments)) {
            const std::string expected =
                info.max_arguments < 0 ? std::string("at least ").append(std::to_string(info.min_arguments))
                : info.min_arguments == info.max_arguments
                    ? std::to_string(info.min_arguments)
                    : std::to_string(info.min_arguments).append(" or ").append(std::to_string(info.max_arguments));
            std::string message =
                std::string("'").append(info.name).append("' takes ").append(expected).append(" argument");
            message.append(expected == "1" ? "" : "s").append(", got ").append(std::to_string(count));
            fail_at(d.location, message);
        }
        const bool variadic = info.op == Op::Add || info.op == Op::Sub || info.op == Op::Mul || info.op == Op::Div;
        if (variadic && count == 1 && info.op != Op::Sub) return expression(d.items[1], state);  // (+ x), (* x)
        Expr e = operation_node(d, state);
        e.op = info.op == Op::Sub && count == 1 ? Op::Neg : info.op;
        // Every argument of other operations (and, <=, fmax ...); the first two of + - * /, whose
        // further arguments associate to the left, each step rounded in its context.
        const int direct = variadic ? std::min(count, 2) : count;
        for (int i = 1; i <= direct; ++i) e.children.push_back(expression(d.items[static_cast<std::size_t>(i)], state));
        for (int i = 3; variadic && i <= count; ++i) {
            Expr next = operation_node(d, state);
            next.op = info.op;
            next.children.push_back(std::move(e));
            next.children.push_back(expression(d.items[static_cast<std::size_t>(i)], state));
            e = std::move(next);
        }
        return e;
    }

    /// An Operation node; one of the benchmark's own gets its ordinal, and its format where the
    /// policy gives the operation one.
    Expr operation_node(const Datum& d, const State& state) {
        Expr e = node(Expr::Kind::Operation, d, state);
        if (!state.traced) return e;
        const std::size_t ordinal = program_.operation_sources.size();
        program_.operation_sources.push_back(print_datum(d));
        if (ordinal < policy_.operation_formats.size() && policy_.operation_formats[ordinal]) {
            const core::FormatRounding& own = *policy_.operation_formats[ordinal];
            RoundingContext context = program_.contexts[static_cast<std::size_t>(state.context)];
            if (context.precision.kind == PrecisionKind::Integer) return e;
            context.precision = Precision{PrecisionKind::Float, own.format.name, own.format, true};
            context.mode = own.mode;
            e.context = add_context(context);
        }
        return e;
    }

    Expr call(const Datum& d, State& state) {
        const std::string& name = d.items[0].text;
        const auto callee =
            std::find_if(library_.begin(), library_.end(), [&](const FPCore& c) { return c.identifier == name; });
        if (callee == library_.end())
            fail_at(d.location, "unknown operation '" + name +
                                    "' (not an FPCore 2.0 operation, and no FPCore of this file is named so)");
        if (std::find(active_.begin(), active_.end(), &*callee) != active_.end())
            fail_at(d.location, "recursive call of '" + name + "': FPCore functions may not call themselves");
        if (d.items.size() - 1 != callee->arguments.size())
            fail_at(d.location, "'" + name + "' takes " + std::to_string(callee->arguments.size()) +
                                    " arguments, got " + std::to_string(d.items.size() - 1));
        Expr e = node(Expr::Kind::Call, d, state);
        for (std::size_t i = 1; i < d.items.size(); ++i) e.children.push_back(expression(d.items[i], state));
        const auto known = std::find(compiled_.begin(), compiled_.end(), &*callee);
        if (known != compiled_.end()) {
            e.function = static_cast<int>(known - compiled_.begin()) + 1;
        } else {
            compiled_.push_back(&*callee);
            e.function = static_cast<int>(compiled_.size());
            program_.functions.resize(compiled_.size() + 1);
            compile_function(*callee, e.function, false);
        }
        return e;
    }

    int trace_binding(const State& state, const std::string& name) {
        if (!state.traced || state.in_loop) return -1;
        program_.binding_names.push_back(name);
        return static_cast<int>(program_.binding_names.size() - 1);
    }

    Expr let(const Datum& d, State& state, bool sequential) {
        expect_size(d, 3, std::string("(") + (sequential ? "let*" : "let") + " ([name expr]...) body)");
        Expr e = node(sequential ? Expr::Kind::LetStar : Expr::Kind::Let, d, state);
        const auto& list = bindings(d.items[1], 2, "[name expr]");
        const std::size_t depth = state.scope.size();
        std::vector<int> slots;
        for (const Datum& b : list) {
            e.children.push_back(expression(b.items[1], state));
            const int slot = state.slot_count++;
            e.slots.push_back(slot);
            e.binding_regions.push_back(trace_binding(state, b.items[0].text));
            if (sequential) state.scope.emplace_back(b.items[0].text, slot);
        }
        if (!sequential)
            for (std::size_t i = 0; i < list.size(); ++i) state.scope.emplace_back(list[i].items[0].text, e.slots[i]);
        e.children.push_back(expression(d.items[2], state));
        state.scope.resize(depth);
        return e;
    }

    /// Whether this loop is the one traced per iteration (the benchmark's first loop outside loops).
    bool claim_loop_trace(const State& state, const std::string& first_variable) {
        if (!state.traced || state.in_loop || !program_.loop_variable.empty() || first_variable.empty()) return false;
        program_.loop_variable = first_variable;
        return true;
    }

    Expr loop_while(const Datum& d, State& state, bool sequential) {
        const std::string form =
            std::string("(") + (sequential ? "while*" : "while") + " cond ([name init update]...) body)";
        expect_size(d, 4, form);
        Expr e = node(sequential ? Expr::Kind::WhileStar : Expr::Kind::While, d, state);
        const auto& list = bindings(d.items[2], 3, "[name init update]");
        const std::size_t depth = state.scope.size();
        const bool outer_in_loop = state.in_loop;
        std::vector<Expr> inits;
        // Initial values see the outer scope (while) or the previous variables (while*).
        for (const Datum& b : list) {
            inits.push_back(expression(b.items[1], state));
            const int slot = state.slot_count++;
            e.slots.push_back(slot);
            if (sequential) state.scope.emplace_back(b.items[0].text, slot);
        }
        if (!sequential)
            for (std::size_t i = 0; i < list.size(); ++i) state.scope.emplace_back(list[i].items[0].text, e.slots[i]);
        e.traced_loop = claim_loop_trace(state, list.empty() ? "" : list[0].items[0].text);
        state.in_loop = true;
        e.children.push_back(expression(d.items[1], state));
        for (std::size_t i = 0; i < list.size(); ++i) {
            e.children.push_back(std::move(inits[i]));
            e.children.push_back(expression(list[i].items[2], state));
        }
        state.in_loop = outer_in_loop;
        e.children.push_back(expression(d.items[3], state));
        state.scope.resize(depth);
        e.test_state = test_state(e);
        return e;
    }

    /// Expr::test_state of a while loop (children: test, (init, update)..., body).
    static std::vector<int> test_state(const Expr& loop) {
        std::vector<bool> read(loop.slots.size(), false);
        std::vector<std::size_t> unvisited;  // read variables whose updates are still to be searched
        auto search = [&](auto& self, const Expr& e) -> void {
            if (e.kind == Expr::Kind::Variable) {
                const auto at = std::find(loop.slots.begin(), loop.slots.end(), e.slot);
                const auto i = static_cast<std::size_t>(at - loop.slots.begin());
                if (at != loop.slots.end() && !read[i]) {
                    read[i] = true;
                    unvisited.push_back(i);
                }
            }
            for (const Expr& c : e.children) self(self, c);
        };
        search(search, loop.children[0]);
        while (!unvisited.empty()) {
            const std::size_t i = unvisited.back();
            unvisited.pop_back();
            search(search, loop.children[2 + 2 * i]);
        }
        std::vector<int> state;
        for (std::size_t i = 0; i < read.size(); ++i)
            if (read[i]) state.push_back(static_cast<int>(i));
        return state;
    }

    /// for, for* and tensor*: ([index size]...) ([name init update]...) body.
    Expr loop_for(const Datum& d, State& state, const std::string& head) {
        expect_size(d, 4, "(" + head + " ([index size]...) ([name init update]...) body)");
        Expr e = node(head == "for"    ? Expr::Kind::For
                      : head == "for*" ? Expr::Kind::ForStar
                                       : Expr::Kind::TensorStar,
                      d, state);
        const bool sequential = head != "for";
        const auto& indices = bindings(d.items[1], 2, "[index size]");
        const auto& list = bindings(d.items[2], 3, "[name init update]");
        const std::size_t depth = state.scope.size();
        const bool outer_in_loop = state.in_loop;
        for (const Datum& index : indices) e.children.push_back(expression(index.items[1], state));
        e.index_count = static_cast<int>(indices.size());
        std::vector<Expr> inits;
        std::vector<int> accumulator_slots;
        for (const Datum& b : list) {
            inits.push_back(expression(b.items[1], state));
            accumulator_slots.push_back(state.slot_count++);
            if (sequential) state.scope.emplace_back(b.items[0].text, accumulator_slots.back());
        }
        if (!sequential)
            for (std::size_t i = 0; i < list.size(); ++i)
                state.scope.emplace_back(list[i].items[0].text, accumulator_slots[i]);
        for (const Datum& index : indices) e.slots.push_back(bind(state, index.items[0].text));
        e.slots.insert(e.slots.end(), accumulator_slots.begin(), accumulator_slots.end());
        e.traced_loop = head != "tensor*" && claim_loop_trace(state, list.empty() ? "" : list[0].items[0].text);
        state.in_loop = true;
        for (std::size_t i = 0; i < list.size(); ++i) {
            e.children.push_back(std::move(inits[i]));
            e.children.push_back(expression(list[i].items[2], state));
        }
        // for's body runs once, after the loop; tensor*'s body gives each element.
        state.in_loop = outer_in_loop || head == "tensor*";
        e.children.push_back(expression(d.items[3], state));
        state.in_loop = outer_in_loop;
        state.scope.resize(depth);
        return e;
    }

    Expr tensor(const Datum& d, State& state) {
        expect_size(d, 3, "(tensor ([index size]...) body)");
        Expr e = node(Expr::Kind::Tensor, d, state);
        const auto& indices = bindings(d.items[1], 2, "[index size]");
        const std::size_t depth = state.scope.size();
        for (const Datum& index : indices) e.children.push_back(expression(index.items[1], state));
        for (const Datum& index : indices) e.slots.push_back(bind(state, index.items[0].text));
        e.index_count = static_cast<int>(indices.size());
        const bool outer_in_loop = state.in_loop;
        state.in_loop = true;
        e.children.push_back(expression(d.items[2], state));
        state.in_loop = outer_in_loop;
        state.scope.resize(depth);
        return e;
    }

    const std::vector<FPCore>& library_;
    const ContextPolicy& policy_;
    Program& program_;
    std::vector<const FPCore*> active_;  ///< the call chain being compiled (recursion check)
    std::vector<const FPCore*> compiled_;  ///< callees, as functions 1, 2, ...
};

}  // namespace

Program compile_program(const FPCore& core, const std::vector<FPCore>& library, const ContextPolicy& policy) {
    Program program;
    program.name = core.display_name();
    program.functions.resize(1);
    Compiler compiler(library, policy, program);
    compiler.compile_function(core, 0, true);
    return program;
}

void check_fpcore(const FPCore& core, const std::vector<FPCore>& library) { compile_program(core, library, {}); }

}  // namespace floatscope::emu::fpcore
