// The NF4 code values as published: QLoRA (Dettmers et al. 2023), appendix E, and bitsandbytes
// csrc/kernels.cu nf4_dequantization_lut; float32 values, printed as the shortest decimal of their
// double. The tests of core's catalog and of the quantizer check against this one copy.
#pragma once

namespace floatscope::test {

inline constexpr double published_nf4[16] = {-1.0,
                                             -0.6961928009986877,
                                             -0.5250730514526367,
                                             -0.39491748809814453,
                                             -0.28444138169288635,
                                             -0.18477343022823334,
                                             -0.09105003625154495,
                                             0.0,
                                             0.07958029955625534,
                                             0.16093020141124725,
                                             0.24611230194568634,
                                             0.33791524171829224,
                                             0.44070982933044434,
                                             0.5626170039176941,
                                             0.7229568362236023,
                                             1.0};

}  // namespace floatscope::test
