// Adding up operation counters.
#include "emulation/arithmetic/operation_counters.hpp"

namespace floatscope::emu {

OperationCounters& OperationCounters::operator+=(const OperationCounters& o) {
    operations += o.operations;
    inexact += o.inexact;
    underflow += o.underflow;
    overflow += o.overflow;
    divide_by_zero += o.divide_by_zero;
    invalid += o.invalid;
    nan_results += o.nan_results;
    infinite_results += o.infinite_results;
    zero_results += o.zero_results;
    return *this;
}

}  // namespace floatscope::emu
