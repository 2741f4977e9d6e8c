"""floatscope.tune: the advisor from Python; its recommendation checked by floatscope.run's own report."""
import pytest

import floatscope


def last_layer_error(rows, policy):
    layers = [r for r in rows if r["policy"] == policy and r["region_kind"] == "layer"
              and r["metric"] == "normwise_rel_error"]
    return max(layers, key=lambda r: r["region_index"])["value"]


def test_tune_recommendation_meets_the_target_in_a_run_of_its_own():
    result = floatscope.tune("mlp-forward", target="normwise_rel_error<=2e-2", candidates="fp32,bf16,fp16,fp8_e4m3",
                             validate={"seed": 7}, depth=3, width=8, batch=4, threads=2, as_frame=False)
    assert result["reference"] == "fp32"
    assert result["recommended"] not in (None, "fp32")
    assert result["validation_meets_target"] in (True, False)
    assert result["runs"] == sum(1 for r in result["report"] if r["metric"] == "tune_cost"
                                 and r["region_kind"] == "candidate")
    rows = floatscope.run("mlp-forward", [result["recommended"]], depth=3, width=8, batch=4, as_frame=False)
    assert last_layer_error(rows, result["recommended"]) <= 2e-2


def test_tune_nothing_meets_and_bad_requests():
    result = floatscope.tune("mlp-forward", target="normwise_rel_error<=1e-30", candidates="fp32,bf16", depth=2,
                             width=4, batch=2, as_frame=False)
    assert result["recommended"] is None
    with pytest.raises(ValueError, match="no single <= or >="):
        floatscope.tune("mlp-forward", target="normwise_rel_error", candidates="fp32,bf16")
