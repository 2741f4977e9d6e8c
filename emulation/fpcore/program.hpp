// Program: an FPCore compiled for evaluation - variables resolved to slots, `!` contexts resolved
// (under a user's policy) to one rounding context per node, calls linked to the called FPCores.
#pragma once

#include <string>
#include <vector>

#include "emulation/fpcore/context.hpp"
#include "emulation/fpcore/exact_number.hpp"
#include "emulation/fpcore/fpcore.hpp"
#include "emulation/fpcore/operations.hpp"

namespace floatscope::emu::fpcore {

struct Expr {
    enum class Kind {
        Number,
        Constant,
        Variable,
        Operation,
        Call,
        If,
        Let,
        LetStar,
        While,
        WhileStar,
        For,
        ForStar,
        Tensor,
        TensorStar,
        Cast,
        Array,
    };
    Kind kind = Kind::Number;
    SourceLocation location;
    int context = 0;  ///< index into Program::contexts: where this node's result is rounded

    Rational number;  ///< Number
    Constant constant = Constant::E;  ///< Constant
    /// Number, Constant: the index of its value in the tables the domains convert once per program.
    int literal = -1;
    Op op = Op::Add;  ///< Operation
    int slot = -1;  ///< Variable
    int function = -1;  ///< Call: index into Program::functions

    /// Let/LetStar: children = inits..., body; slots = the bound variables.
    /// While/WhileStar: children = cond, (init, update)..., body; slots = the loop variables.
    /// For/ForStar/TensorStar: children = sizes..., (init, update)..., body; slots = indices then
    /// accumulators; index_count = number of indices. Tensor: children = sizes..., body.
    /// If: cond, then, else. Operation/Call/Array: the arguments. Cast: the value.
    std::vector<Expr> children;
    std::vector<int> slots;
    int index_count = 0;
    /// Trace regions: Let/LetStar bindings outside loops in the benchmark itself get one region
    /// each (-1: not traced); the first loop of the benchmark traces its first variable per iteration.
    std::vector<int> binding_regions;
    bool traced_loop = false;
    /// While/WhileStar: the loop variables (indices into slots) that the test reads, directly or
    /// through the updates of those it reads. They change only among themselves, so once their
    /// values repeat, the test's answers repeat: the loop never ends.
    std::vector<int> test_state;
};

struct Function {
    std::string name;
    int slot_count = 0;
    std::vector<std::string> argument_names;
    std::vector<int> argument_slots;
    std::vector<int> argument_contexts;  ///< inputs are rounded to these (program inputs are rounded)
    /// Per argument, a tensor argument's dimensions (`(v n 3)`: expressions of the arguments before
    /// it); empty for a scalar.
    std::vector<std::vector<Expr>> argument_dimensions;
    Expr body;
};

struct Program {
    std::string name;
    std::vector<RoundingContext> contexts;
    std::vector<Function> functions;  ///< [0] is the benchmark; the rest are the FPCores it calls
    bool has_pre = false;
    Expr pre;  ///< in the scope of functions[0]'s arguments
    /// :example values of arguments ([name expr] pairs naming an argument), as expressions free of
    /// variables: (argument index, expression).
    std::vector<std::pair<int, Expr>> example;
    std::vector<std::string> binding_names;  ///< trace region labels, by region index
    /// The benchmark's own operations in source order (each step of a variadic + - * / counts):
    /// their source text, by the ordinal ContextPolicy::operation_formats uses.
    std::vector<std::string> operation_sources;
    /// The context the benchmark's result is measured in: its body's; with operation formats given
    /// (ContextPolicy::operation_formats), the benchmark's :precision, so that every assignment of
    /// formats to operations is measured against the same format.
    int result_context = 0;
    std::string loop_variable;  ///< the traced loop's first variable, or empty
    int literal_count = 0;  ///< Number and Constant nodes (Expr::literal is below this)
};

/// Calls visit(e) for every node of the program: the functions' bodies and argument dimensions,
/// :pre and the :example expressions.
template <class Visit>
void visit_expressions(const Program& program, Visit visit) {
    auto walk = [&](auto& self, const Expr& e) -> void {
        visit(e);
        for (const Expr& c : e.children) self(self, c);
    };
    for (const Function& f : program.functions) {
        walk(walk, f.body);
        for (const std::vector<Expr>& dimensions : f.argument_dimensions)
            for (const Expr& d : dimensions) walk(walk, d);
    }
    if (program.has_pre) walk(walk, program.pre);
    for (const auto& example : program.example) walk(walk, example.second);
}

/// Compiles `core` under `policy`; `library` holds the FPCores that calls may name (by identifier).
/// Throws floatscope::Error "LOCATION: ..." for unknown operations, arity errors, unbound
/// variables, malformed forms, unknown precisions and recursive calls.
Program compile_program(const FPCore& core, const std::vector<FPCore>& library, const ContextPolicy& policy = {});

/// compile_program under the program's own precisions, for its errors only.
void check_fpcore(const FPCore& core, const std::vector<FPCore>& library);

}  // namespace floatscope::emu::fpcore
