// ONNX's recurrent layers RNN, GRU and LSTM (definitions 7 and 14; 14 adds `layout`), as the
// operators' specification writes their equations (onnx/docs/Operators.md): each direction's input
// products X_t W^T for all steps at once and each step's H_{t-1} R^T through the node's matrix
// products (numerics.matmul: an emulated run's accumulation model, the truth's exact product), the
// gates elementwise through the numerics, in the order the equations add their terms. Clip bounds
// each gate's input before its activation (not C_t before h, as onnxruntime); LSTM's input_forget
// makes f_t = 1 - i_t (onnxruntime's meaning of "couple the input and forget gates").
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/matrix_product.hpp"
#include "emulation/workloads/onnx/operators/recurrent_activations.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class Cell { Rnn, Gru, Lstm };

/// Gates per cell (the rows of W and R are the gates' in order: RNN i; GRU z, r, h; LSTM i, o, f, c)
/// and the activations each direction takes (RNN f; GRU f, g; LSTM f, g, h).
std::size_t gate_count(Cell cell) { return cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4; }
std::vector<std::string_view> default_activations(Cell cell) {
    switch (cell) {
        case Cell::Rnn: return {"Tanh"};
        case Cell::Gru: return {"Sigmoid", "Tanh"};
        case Cell::Lstm: return {"Sigmoid", "Tanh", "Tanh"};
    }
    return {};
}

void require_shape(const Shape& shape, const Shape& expected, const char* what, const Node& node) {
    if (shape != expected)
        throw Error(fmt::format("{}: {} has shape {}; {} expected", node.describe(), what, describe(shape),
                                describe(expected)));
}

template <class Call>
TensorsOf<Call> recurrent(const Call& call, Cell cell) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    const auto& n = call.numerics;
    switch (cell) {
        case Cell::Rnn:
            node.check_attributes(
                {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size", "layout"});
            break;
        case Cell::Gru:
            node.check_attributes({"activation_alpha", "activation_beta", "activations", "clip", "direction",
                                   "hidden_size", "layout", "linear_before_reset"});
            break;
        case Cell::Lstm:
            node.check_attributes({"activation_alpha", "activation_beta", "activations", "clip", "direction",
                                   "hidden_size", "layout", "input_forget"});
            break;
    }
    const auto& x = call.input(0);
    const auto& w = call.input(1);
    const auto& r = call.input(2);
    for (std::size_t i = 0; i < 3; ++i) require_floating(call.input(i), i, node);
    const std::int64_t layout = node.int_attribute("layout", 0);
    if (layout != 0 && layout != 1)
        throw Error(fmt::format("{}: attribute layout is {} (0 or 1)", node.describe(), layout));
    if (x.shape.size() != 3 || w.shape.size() != 3 || r.shape.size() != 3)
        throw Error(fmt::format("{}: X {}, W {} and R {} must be of rank 3", node.describe(), describe(x.shape),
                                describe(w.shape), describe(r.shape)));
    const std::string direction = node.string_attribute("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
        throw Error(fmt::format("{}: attribute direction is '{}' (forward, reverse or bidirectional)", node.describe(),
                                direction));
    const std::size_t directions = direction == "bidirectional" ? 2 : 1;
    const auto seq = static_cast<std::size_t>(x.shape[layout == 0 ? 0 : 1]);
    const auto batch = static_cast<std::size_t>(x.shape[layout == 0 ? 1 : 0]);
    const auto input_size = static_cast<std::size_t>(x.shape[2]);
    const auto hidden = static_cast<std::size_t>(r.shape[2]);
    if (node.has("hidden_size") && node.int_attribute("hidden_size", 0) != r.shape[2])
        throw Error(fmt::format("{}: attribute hidden_size is {}; R of shape {} has {}", node.describe(),
                                node.int_attribute("hidden_size", 0), describe(r.shape), hidden));
    const std::size_t gates = gate_count(cell), width = gates * hidden;
    const auto dirs = static_cast<std::int64_t>(directions), h64 = static_cast<std::int64_t>(hidden),
               b64 = static_cast<std::int64_t>(batch), w64 = static_cast<std::int64_t>(width);
    require_shape(w.shape, {dirs, w64, static_cast<std::int64_t>(input_size)}, "W", node);
    require_shape(r.shape, {dirs, w64, h64}, "R", node);
    const auto* bias = call.optional_input(3);
    if (bias) {
        require_floating(*bias, 3, node);
        require_shape(bias->shape, {dirs, 2 * w64}, "B", node);
    }
    // sequence_lens: each batch entry's length (every step where it is left out).
    std::vector<std::size_t> lengths(batch, seq);
    if (const auto* lens = call.optional_input(4)) {
        require_shape(lens->shape, {b64}, "sequence_lens", node);
        const std::vector<std::int64_t> values = integer_list(*lens, 4, node);
        for (std::size_t b = 0; b < batch; ++b) {
            if (values[b] < 0 || values[b] > static_cast<std::int64_t>(seq))
                throw Error(fmt::format("{}: sequence_lens[{}] is {}; 0 to seq_length {} expected", node.describe(), b,
                                        values[b], seq));
            lengths[b] = static_cast<std::size_t>(values[b]);
        }
    }
    // initial_h and initial_c: [directions, batch, hidden] (layout 1: [batch, directions, hidden]).
    const Shape state_shape = layout == 0 ? Shape{dirs, b64, h64} : Shape{b64, dirs, h64};
    const auto state_at = [&](std::size_t d, std::size_t b, std::size_t j) {
        return layout == 0 ? (d * batch + b) * hidden + j : (b * directions + d) * hidden + j;
    };
    const auto* initial_h = call.optional_input(5);
    if (initial_h) {
        require_floating(*initial_h, 5, node);
        require_shape(initial_h->shape, state_shape, "initial_h", node);
    }
    const auto* initial_c = cell == Cell::Lstm ? call.optional_input(6) : nullptr;
    if (initial_c) {
        require_floating(*initial_c, 6, node);
        require_shape(initial_c->shape, state_shape, "initial_c", node);
    }
    const auto* peepholes = cell == Cell::Lstm ? call.optional_input(7) : nullptr;
    if (peepholes) {
        require_floating(*peepholes, 7, node);
        require_shape(peepholes->shape, {dirs, 3 * h64}, "P", node);
    }
    const bool clipped = node.has("clip");
    const double clip = node.float_attribute("clip", 0);
    if (clipped && !(clip > 0))
        throw Error(fmt::format("{}: attribute clip is {}; a positive threshold expected", node.describe(), clip));
    const bool linear_before_reset = cell == Cell::Gru && node.int_attribute("linear_before_reset", 0) != 0;
    const bool input_forget = cell == Cell::Lstm && node.int_attribute("input_forget", 0) != 0;
    const std::vector<RecurrentActivation> activations =
        recurrent_activations(node, default_activations(cell), directions);
    const std::size_t per_direction = activations.size() / directions;

    // X as rows (t, b) of input_size values, layout 0's order.
    std::vector<Number> x_rows(seq * batch * input_size);
    for (std::size_t t = 0; t < seq; ++t)
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t i = 0; i < input_size; ++i)
                x_rows[(t * batch + b) * input_size + i] =
                    x.numbers[(layout == 0 ? t * batch + b : b * seq + t) * input_size + i];

    const Number zero = n.from_double(0), one = n.from_double(1);
    const auto clip_input = [&](const Number& v) {
        if (!clipped) return v;
        return n.min(n.max(v, n.from_double(-clip)), n.from_double(clip));
    };
    // Y as [seq, directions, batch, hidden]; steps past a batch entry's length stay 0.
    std::vector<Number> y(seq * directions * batch * hidden, zero);
    std::vector<Number> y_h(directions * batch * hidden, zero), y_c(directions * batch * hidden, zero);

    for (std::size_t d = 0; d < directions; ++d) {
        const bool reverse = direction == "reverse" || d == 1;
        const RecurrentActivation* act = &activations[d * per_direction];
        const std::span<const Number> w_d(w.numbers.data() + d * width * input_size, width * input_size);
        const std::span<const Number> r_d(r.numbers.data() + d * width * hidden, width * hidden);
        const std::vector<Number> w_t = transposed(w_d, width, input_size);
        // GRU without linear_before_reset multiplies r_t (.) H_{t-1} by R_h: H_{t-1} R^T covers z and r only.
        const std::size_t recurrent_width = cell == Cell::Gru && !linear_before_reset ? 2 * hidden : width;
        const std::vector<Number> r_t = transposed(r_d.subspan(0, recurrent_width * hidden), recurrent_width, hidden);
        const std::vector<Number> r_h_t = cell == Cell::Gru && !linear_before_reset
                                              ? transposed(r_d.subspan(2 * hidden * hidden), hidden, hidden)
                                              : std::vector<Number>{};
        const std::vector<Number> xw = matrix_product(n, std::span<const Number>(x_rows), std::span<const Number>(w_t),
                                                      seq * batch, input_size, width);
        // Wb and Rb of gate g, unit j; P's i, o, f.
        const auto wb = [&](std::size_t g, std::size_t j) -> const Number& {
            return bias->numbers[d * 2 * width + g * hidden + j];
        };
        const auto rb = [&](std::size_t g, std::size_t j) -> const Number& {
            return bias->numbers[d * 2 * width + width + g * hidden + j];
        };
        const auto peephole = [&](std::size_t g, std::size_t j) -> const Number& {
            return peepholes->numbers[d * 3 * hidden + g * hidden + j];
        };

        std::vector<Number> h(batch * hidden, zero), c(batch * hidden, zero);
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t j = 0; j < hidden; ++j) {
                if (initial_h) h[b * hidden + j] = initial_h->numbers[state_at(d, b, j)];
                if (initial_c) c[b * hidden + j] = initial_c->numbers[state_at(d, b, j)];
            }
        for (std::size_t s = 0; s < seq; ++s) {
            const std::vector<Number> hr = matrix_product(n, std::span<const Number>(h), std::span<const Number>(r_t),
                                                          batch, hidden, recurrent_width);
            // GRU's r_t (.) H_{t-1} for the rows still running (then multiplied by R_h^T).
            std::vector<Number> reset_h;
            std::vector<Number> reset_gate(batch * hidden, zero);
            std::vector<Number> next_h = h, next_c = c;
            for (std::size_t b = 0; b < batch; ++b) {
                if (s >= lengths[b]) continue;
                const std::size_t t = reverse ? lengths[b] - 1 - s : s;
                const auto input_term = [&](std::size_t g, std::size_t j) {
                    return n.add(xw[(t * batch + b) * width + g * hidden + j],
                                 hr[b * recurrent_width + g * hidden + j]);
                };
                // X_t W_g^T + H_{t-1} R_g^T [+ P_g (.) C] + Wb_g + Rb_g, clipped.
                const auto gate_input = [&](std::size_t g, std::size_t j, const Number* peephole_term) {
                    Number v = input_term(g, j);
                    if (peephole_term) v = n.add(v, *peephole_term);
                    if (bias) v = n.add(n.add(v, wb(g, j)), rb(g, j));
                    return clip_input(v);
                };
                for (std::size_t j = 0; j < hidden; ++j) {
                    const std::size_t k = b * hidden + j;
                    switch (cell) {
                        case Cell::Rnn: next_h[k] = activate(n, act[0], gate_input(0, j, nullptr)); break;
                        case Cell::Gru: {
                            next_h[k] = activate(n, act[0], gate_input(0, j, nullptr));  // z_t, for now
                            reset_gate[k] = activate(n, act[0], gate_input(1, j, nullptr));
                            break;
                        }
                        case Cell::Lstm: {
                            const auto with_peephole = [&](std::size_t g, std::size_t p, const Number& state) {
                                if (!peepholes) return gate_input(g, j, nullptr);
                                const Number term = n.mul(peephole(p, j), state);
                                return gate_input(g, j, &term);
                            };
                            const Number i_t = activate(n, act[0], with_peephole(0, 0, c[k]));
                            const Number f_t =
                                input_forget ? n.sub(one, i_t) : activate(n, act[0], with_peephole(2, 2, c[k]));
                            const Number c_tilde = activate(n, act[1], gate_input(3, j, nullptr));
                            next_c[k] = n.add(n.mul(f_t, c[k]), n.mul(i_t, c_tilde));
                            const Number o_t = activate(n, act[0], with_peephole(1, 1, next_c[k]));
                            next_h[k] = n.mul(o_t, activate(n, act[2], next_c[k]));
                            break;
                        }
                    }
                }
            }
            if (cell == Cell::Gru) {
                // h_t = g(X_t W_h^T + (r_t (.) H_{t-1}) R_h^T + Rb_h + Wb_h), or with linear_before_reset
                // g(X_t W_h^T + r_t (.) (H_{t-1} R_h^T + Rb_h) + Wb_h); H_t = (1 - z_t) (.) h_t + z_t (.) H_{t-1}.
                std::vector<Number> reset_product;
                if (!linear_before_reset) {
                    reset_h.assign(batch * hidden, zero);
                    for (std::size_t k = 0; k < batch * hidden; ++k) reset_h[k] = n.mul(reset_gate[k], h[k]);
                    reset_product = matrix_product(n, std::span<const Number>(reset_h), std::span<const Number>(r_h_t),
                                                   batch, hidden, hidden);
                }
                for (std::size_t b = 0; b < batch; ++b) {
                    if (s >= lengths[b]) continue;
                    const std::size_t t = reverse ? lengths[b] - 1 - s : s;
                    for (std::size_t j = 0; j < hidden; ++j) {
                        const std::size_t k = b * hidden + j;
                        const Number& xw_h = xw[(t * batch + b) * width + 2 * hidden + j];
                        Number v;
                        if (linear_before_reset) {
                            Number recurrent_term = hr[b * recurrent_width + 2 * hidden + j];
                            if (bias) recurrent_term = n.add(recurrent_term, rb(2, j));
                            v = n.add(xw_h, n.mul(reset_gate[k], recurrent_term));
                            if (bias) v = n.add(v, wb(2, j));
                        } else {
                            v = n.add(xw_h, reset_product[k]);
                            if (bias) v = n.add(n.add(v, rb(2, j)), wb(2, j));
                        }
                        const Number h_tilde = activate(n, act[1], clip_input(v));
                        const Number z_t = next_h[k];
                        next_h[k] = n.add(n.mul(n.sub(one, z_t), h_tilde), n.mul(z_t, h[k]));
                    }
                }
            }
            for (std::size_t b = 0; b < batch; ++b) {
                if (s >= lengths[b]) continue;
                const std::size_t t = reverse ? lengths[b] - 1 - s : s;
                for (std::size_t j = 0; j < hidden; ++j)
                    y[((t * directions + d) * batch + b) * hidden + j] = next_h[b * hidden + j];
            }
            h = std::move(next_h);
            c = std::move(next_c);
        }
        // Y_h and Y_c: each entry's state after its last step (a length of 0: the initial state).
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t j = 0; j < hidden; ++j) {
                y_h[(d * batch + b) * hidden + j] = h[b * hidden + j];
                y_c[(d * batch + b) * hidden + j] = c[b * hidden + j];
            }
    }

    const auto s64 = static_cast<std::int64_t>(seq);
    TensorsOf<Call> outputs;
    if (layout == 0) {
        outputs.push_back(number_tensor<Number>(x.type, {s64, dirs, b64, h64}, std::move(y)));
        outputs.push_back(number_tensor<Number>(x.type, {dirs, b64, h64}, std::move(y_h)));
        if (cell == Cell::Lstm) outputs.push_back(number_tensor<Number>(x.type, {dirs, b64, h64}, std::move(y_c)));
    } else {
        // Y as [batch, seq, directions, hidden]; Y_h and Y_c as [batch, directions, hidden].
        std::vector<Number> y1(y.size()), y_h1(y_h.size()), y_c1(y_c.size());
        for (std::size_t t = 0; t < seq; ++t)
            for (std::size_t d = 0; d < directions; ++d)
                for (std::size_t b = 0; b < batch; ++b)
                    for (std::size_t j = 0; j < hidden; ++j)
                        y1[((b * seq + t) * directions + d) * hidden + j] =
                            y[((t * directions + d) * batch + b) * hidden + j];
        for (std::size_t d = 0; d < directions; ++d)
            for (std::size_t b = 0; b < batch; ++b)
                for (std::size_t j = 0; j < hidden; ++j) {
                    y_h1[state_at(d, b, j)] = y_h[(d * batch + b) * hidden + j];
                    y_c1[state_at(d, b, j)] = y_c[(d * batch + b) * hidden + j];
                }
        outputs.push_back(number_tensor<Number>(x.type, {b64, s64, dirs, h64}, std::move(y1)));
        outputs.push_back(number_tensor<Number>(x.type, state_shape, std::move(y_h1)));
        if (cell == Cell::Lstm) outputs.push_back(number_tensor<Number>(x.type, state_shape, std::move(y_c1)));
    }
    return outputs;
}

}  // namespace

void add_recurrent_operators(OperatorTable& table) {
    table.add("RNN", [](const auto& call) { return recurrent(call, Cell::Rnn); });
    table.add("GRU", [](const auto& call) { return recurrent(call, Cell::Gru); });
    table.add("LSTM", [](const auto& call) { return recurrent(call, Cell::Lstm); });
}

}  // namespace floatscope::emu::onnx
