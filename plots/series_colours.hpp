// SeriesColours: which palette colour each colour key (a policy) has, kept for as long as the
// object lives, so that a policy is drawn in the same colour in every plot of a session.
#pragma once

#include <map>
#include <string>

namespace floatscope::plots {

/// Hands out palette positions 0, 1, 2, ... to keys in the order they are first asked for, and the
/// same position to a key every later time: a plot that shows fewer policies (a filtered one)
/// keeps each policy's colour. A view maps the position to its palette (repeating past its end).
class SeriesColours {
public:
    std::size_t position(const std::string& key);
    /// The keys seen so far.
    std::size_t size() const { return positions_.size(); }

private:
    std::map<std::string, std::size_t> positions_;
};

}  // namespace floatscope::plots
