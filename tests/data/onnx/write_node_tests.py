#!/usr/bin/python3
"""Writes ONNX's backend node test cases (DIR/node/<case>/model.onnx, test_data_set_*/input_*.pb and
NumPy's output_*.pb) with the generators of Debian's python3-onnx, for floatscope-cli onnx-conformance.
usage: write_node_tests.py DIR"""
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
import numpy as np

# Debian 12's onnx 1.12 still uses NumPy aliases that NumPy 1.24 removed.
for name, alias in [("float", float), ("int", int), ("bool", bool), ("object", object), ("complex", complex),
                    ("str", str)]:
    if not hasattr(np, name):
        setattr(np, name, alias)
from onnx.backend.test import cmd_tools

sys.argv = ["write_node_tests", "generate-data", "-o", sys.argv[1]]
cmd_tools.main()
