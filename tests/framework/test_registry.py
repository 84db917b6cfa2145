"""Per-op facts declared at define_op (family, batching, view), what follows from them, and
the registrations that name an op."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import registry
from tapeflow.framework.batched_registry import (RegisterBatchedGradient, batched_rule,
                                                 has_batched_gradient, is_batch_transparent,
                                                 stacking_attrs)
from tapeflow.framework.registry import (ASSIGN, ELEMENTWISE, IDENTITY, LINEAR, MULTILINEAR,
                                         OTHER, SHAPE_ONLY, STACKED, TRANSPARENT, UPDATE,
                                         Family, Stacking)
from tapeflow.ops.jvp_util import elementwise_jvp, linear_jvp, multilinear_jvp
from tapeflow.testing.gradient_checker import check_grads

MISSPELT = "Tnah"


@pytest.mark.parametrize("register", [
    lambda: registry.RegisterGradient(MISSPELT),
    lambda: registry.RegisterJVP(MISSPELT),
    lambda: registry.no_gradient(MISSPELT),
    lambda: RegisterBatchedGradient(MISSPELT),
], ids=["RegisterGradient", "RegisterJVP", "no_gradient", "RegisterBatchedGradient"])
def test_a_registration_naming_an_undefined_op_is_rejected(register):
    with pytest.raises(LookupError, match=f"'{MISSPELT}'"):
        register()


@pytest.mark.parametrize("lookup", [is_batch_transparent, has_batched_gradient, batched_rule,
                                    lambda name: stacking_attrs(name, {}, 2)])
def test_batching_lookups_of_an_undefined_op_raise(lookup):
    with pytest.raises(LookupError, match=f"'{MISSPELT}'"):
        lookup(MISSPELT)


# op, family, the JVP rule it has, its batching (a Stacking class for any Stacking).
DECLARED = [
    ("Exp", ELEMENTWISE, elementwise_jvp, TRANSPARENT),
    ("Atan2", ELEMENTWISE, elementwise_jvp, TRANSPARENT),
    ("Neg", LINEAR, linear_jvp, TRANSPARENT),
    ("Sum", LINEAR, linear_jvp, STACKED),
    ("Reshape", LINEAR, linear_jvp, None),
    ("Mul", MULTILINEAR, multilinear_jvp, TRANSPARENT),
    ("Einsum", MULTILINEAR, multilinear_jvp, Stacking),
    ("Identity", IDENTITY, linear_jvp, TRANSPARENT),
    ("Shape", SHAPE_ONLY, None, None),
    ("AssignVariableOp", ASSIGN, None, None),
    ("AssignAddVariableOp", UPDATE, None, None),
    ("Cholesky", OTHER, None, None),
]


@pytest.mark.parametrize("name, family, jvp, batching", DECLARED,
                         ids=[row[0] for row in DECLARED])
def test_facts_and_the_rules_that_follow_from_them(name, family, jvp, batching):
    op = registry.get_op(name)
    assert op.family is family
    assert op.jvp is jvp
    if batching is Stacking:
        assert isinstance(op.batching, Stacking)
    else:
        assert op.batching is batching
    assert is_batch_transparent(name) == (batching is TRANSPARENT)
    assert op.family.stateful == (family in (ASSIGN, UPDATE))


def test_a_rule_registered_for_an_op_overrides_its_family():
    add = registry.get_op("AddV2")
    assert add.family is ELEMENTWISE and add.jvp is not elementwise_jvp
    assert batched_rule("Reshape") is not None and registry.get_op("Reshape").batching is None


def test_family_rules_reach_ops_defined_before_and_after_and_yield_to_their_own(
        temporary_op):
    family = Family("test", batching=TRANSPARENT)
    before = temporary_op("TestFamilyBefore", np.negative, family=family)
    own = temporary_op("TestFamilyOwn", np.negative, family=family)

    @registry.RegisterJVP("TestFamilyOwn")
    def _own_jvp(op, t):
        return -t

    assert before.jvp is None and before.batching is TRANSPARENT
    registry.register_family_jvp(family, linear_jvp)
    after = temporary_op("TestFamilyAfter", np.negative, family=family,
                         batching=STACKED)
    assert before.jvp is linear_jvp and after.jvp is linear_jvp and own.jvp is _own_jvp
    assert after.batching is STACKED


def test_stacking_moves_axes_and_extends_per_axis_attributes():
    spec = Stacking(perms=("perm",), leading={"size": registry.BATCH, "begin": 0})
    assert spec.attrs({"axis": -1, "perm": (1, 0), "size": (2,), "begin": (1,)}, 5) == {
        "axis": -1, "perm": (0, 2, 1), "size": (5, 2), "begin": (0, 1)}
    assert STACKED.attrs({"axis": (0, 2)}, 3) == {"axis": (1, 3)}


@pytest.mark.parametrize("kwargs, message", [
    ({"family": "elementwise"}, "family must be a Family"),
    ({"batching": "transparent"}, "batching must be TRANSPARENT or a Stacking"),
])
def test_define_op_rejects_a_fact_outside_the_vocabulary(kwargs, message):
    with pytest.raises(TypeError, match=message):
        registry.define_op("TestBadFact", np.negative, **kwargs)
    with pytest.raises(LookupError):
        registry.get_op("TestBadFact")


def test_a_new_elementwise_op_needs_its_definition_and_gradient_rule_only(temporary_op):
    """define_op with its family and a gradient rule give reverse mode, forward mode and
    vectorized Jacobians: nothing else names the op."""
    cube = temporary_op("TestCube", lambda x: x * x * x, family=ELEMENTWISE)

    @registry.RegisterGradient("TestCube")
    def _cube_grad(op, g):
        x = op.inputs[0]
        return g * 3.0 * x * x

    def fn(x):
        return cube(x)

    args = [np.array([0.5, -1.5, 2.0])]
    assert check_grads(fn, args) < 1e-6
    assert check_grads(fn, args, mode="forward") < 1e-6
    assert has_batched_gradient("TestCube")
    x = tf.constant(args[0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cube(x)
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag(3.0 * args[0] ** 2))


def test_graph_facts_come_from_the_family():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        assign = v.assign(2.0)
        size = tf.size(tf1.placeholder(tf.float32, [2, 3]))
        square = tf.square(tf.constant(2.0))
    assert assign.op._stateful and not square.op._stateful
    assert int(size._const) == 6
