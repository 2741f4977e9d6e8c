"""Helpers the test-model scripts share: tensors and value infos by onnx.helper, and a folder of
models (each checked by onnx.checker unless told not to) with their .npy inputs and references."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def node(op, inputs, outputs, **attributes):
    """A node named after its op and first output, as an exporter names them."""
    return helper.make_node(op, inputs, outputs, name=f"{op}_{outputs[0]}", **attributes)


def value(name, elem=TensorProto.FLOAT, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


class ModelFiles:
    """The folder `out` a script writes, its models' producer_name `producer`."""

    def __init__(self, out, producer):
        self.out, self.producer = out, producer
        os.makedirs(out, exist_ok=True)

    def model(self, name, opset, nodes, inputs, outputs, initializers=(), check=True):
        """inputs: [(name, element type, shape)]; outputs: [(name, element type, shape)]."""
        graph = helper.make_graph(nodes, name, [value(n, e, s) for n, e, s in inputs],
                                  [value(n, e, s) for n, e, s in outputs], list(initializers))
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8,
                              producer_name=self.producer)
        if check:
            onnx.checker.check_model(m, full_check=True)
        onnx.save(m, os.path.join(self.out, name + ".onnx"))

    def data(self, prefix, inputs, outputs):
        """inputs: [array] in graph order; outputs: [(name, float64 reference)]."""
        for i, array in enumerate(inputs):
            np.save(os.path.join(self.out, f"{prefix}_input_{i}.npy"), array)
        for n, reference in outputs:
            np.save(os.path.join(self.out, f"{prefix}_{n}.npy"), reference)
