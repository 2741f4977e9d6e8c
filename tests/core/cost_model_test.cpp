// Cost model: memory per format, the hardware table as the datasheets print it, Horowitz's energy
// figures, and a roofline estimate computed by hand.
#include <catch2/catch.hpp>

#include "core/catalog.hpp"
#include "core/cost_model.hpp"
#include "core/error.hpp"

using namespace floatscope::core;

TEST_CASE("Memory of one billion parameters per format", "[cost]") {
    CHECK(memory_bytes(1e9, 32) == 4e9);  // fp32: 4 GB
    CHECK(memory_bytes(1e9, 16) == 2e9);  // fp16 / bf16: 2 GB
    CHECK(memory_bytes(1e9, 8) == 1e9);  // int8: 1 GB
    CHECK(memory_bytes(1e9, 4) == 0.5e9);  // int4: 0.5 GB
    CHECK(memory_bytes(1e9, 4.25) == 0.53125e9);  // MXFP4 with its E8M0 scales
}

TEST_CASE("The hardware table holds the datasheet figures", "[cost]") {
    const CostModel model = load_cost_model();
    const HardwareSpec& a100 = model.find("A100");
    // NVIDIA A100 datasheet, dense: FP32 19.5, TF32 156, FP16/BF16 312 TFLOPS; 80 GB at 2,039 GB/s.
    CHECK(a100.dense_tflops.at("fp32") == 19.5);
    CHECK(a100.dense_tflops.at("tf32") == 156);
    CHECK(a100.dense_tflops.at("fp16") == 312);
    CHECK(a100.dense_tflops.at("bf16") == 312);
    CHECK(a100.memory_bandwidth_gb_s == 2039);
    for (const char* name : {"V100", "A100", "H100 SXM", "H200", "B200"}) {
        const HardwareSpec& h = model.find(name);
        CHECK(h.memory_bandwidth_gb_s > 0);
        CHECK(h.source.find("http") != std::string::npos);
    }
    CHECK(model.find("H200").memory_bandwidth_gb_s == 4800);
    CHECK(model.find("B200").dense_tflops.at("fp4") == 9000);
    CHECK_THROWS_WITH(model.find("TPUv4"), Catch::Contains("unknown hardware 'TPUv4'") && Catch::Contains("H100 SXM"));
}

TEST_CASE("Energy per operation from Horowitz, ISSCC 2014", "[cost]") {
    const CostModel model = load_cost_model();
    CHECK(model.energy.add_pj.at("int8") == 0.03);
    CHECK(model.energy.multiply_pj.at("fp32") == 3.7);
    CHECK(model.energy.multiply_add_pj("fp32") == Approx(3.7 + 0.9));
    CHECK(model.energy.multiply_add_pj("int8") == Approx(0.2 + 0.03));
    CHECK(model.energy.multiply_add_pj("bf16") == Approx(1.1 + 0.4));  // through fp16, named as an estimate
    CHECK_THROWS_WITH(model.energy.multiply_add_pj("fp64"), Catch::Contains("'fp64'"));
}

TEST_CASE("Roofline estimate of a 4096^3 fp16 GEMM on an A100, by hand", "[cost]") {
    const CostModel model = load_cost_model();
    WorkloadCounts gemm;
    gemm.operations["fp16"] = 2.0 * 4096 * 4096 * 4096;  // 1.37438953472e11 FLOPs
    gemm.dram_bytes = 3.0 * 4096 * 4096 * 2;  // A, B and C once: 1.00663296e8 bytes
    gemm.resident_bytes = gemm.dram_bytes;
    const CostEstimate c = estimate_cost(model, "A100", gemm);
    CHECK(c.compute_seconds == Approx(1.37438953472e11 / 312e12));  // 0.44 ms
    CHECK(c.memory_seconds == Approx(1.00663296e8 / 2039e9));  // 0.049 ms
    CHECK(c.seconds == c.compute_seconds);
    // 6.8719476736e10 FMAs at 1.5 pJ, 1.2582912e7 64-bit DRAM accesses at 1.3 or 2.6 nJ.
    CHECK(c.energy_joules_low == Approx(6.8719476736e10 * 1.5e-12 + 1.2582912e7 * 1.3e-9));
    CHECK(c.energy_joules_high == Approx(6.8719476736e10 * 1.5e-12 + 1.2582912e7 * 2.6e-9));
    CHECK(c.fits_in_memory);

    WorkloadCounts big;
    big.resident_bytes = memory_bytes(70e9, 16);  // 70B parameters in fp16: 140 GB
    CHECK_FALSE(estimate_cost(model, "A100", big).fits_in_memory);
    CHECK(estimate_cost(model, "H200", big).fits_in_memory);

    WorkloadCounts fp8;
    fp8.operations["fp8"] = 1e12;
    CHECK_THROWS_WITH(estimate_cost(model, "A100", fp8), Catch::Contains("A100 has no datasheet figure for 'fp8'"));
    CHECK(estimate_cost(model, "H100 SXM", fp8).compute_seconds == Approx(1e12 / 1979e12));
}

TEST_CASE("A missing cost model file is a clear error", "[cost]") {
    CHECK_THROWS_WITH(load_cost_model("/nonexistent/hardware.json"),
                      Catch::Contains("/nonexistent/hardware.json") && Catch::Contains("FLOATSCOPE_RESOURCE_DIR"));
}

TEST_CASE("Formats map to the datasheets' format classes", "[cost]") {
    CHECK(datasheet_format(parse_format("fp64")) == "fp64");
    CHECK(datasheet_format(parse_format("fp32")) == "fp32");
    CHECK(datasheet_format(parse_format("tf32")) == "tf32");
    CHECK(datasheet_format(parse_format("bf16")) == "bf16");
    CHECK(datasheet_format(parse_format("fp16")) == "fp16");
    // Every 8-bit float is the datasheets' FP8 (E4M3 and E5M2 share the tensor cores' peak).
    for (const char* fp8 : {"fp8_e4m3", "fp8_e5m2", "e4m3fnuz", "e5m2fnuz", "e3m4"})
        CHECK(datasheet_format(parse_format(fp8)) == "fp8");
    CHECK(datasheet_format(parse_format("fp6_e2m3")) == "fp6");
    CHECK(datasheet_format(parse_format("fp4_e2m1")) == "fp4");
    CHECK(datasheet_format(parse_format("nf4")) == "fp4");
    CHECK(datasheet_format(parse_format("int8")) == "int8");
    CHECK(datasheet_format(parse_format("int4")) == "int4");
    CHECK(datasheet_format(parse_format("e6m9")) == "e6m9");  // no datasheet lists it
    CHECK(bytes_per_value(parse_format("fp4_e2m1")) == 0.5);
    CHECK(bytes_per_value(parse_format("bf16")) == 2);
}
