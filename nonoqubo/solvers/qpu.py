"""The QPU samplers' entries of the sampler table: ``mock-dwave`` and ``dwave``, adapted to :mod:`nonoqubo.qpu`.

The QPU road itself (the embedding, the physical problem, ``FixedEmbeddingComposite`` over the
mock or a real D-Wave QPU, the record of what the call returned) is :mod:`nonoqubo.qpu.sampler`'s.
This module only adapts a sampler's :class:`~nonoqubo.solvers.base.SampleOptions` to a
:class:`~nonoqubo.qpu.sampler.QpuCall` and puts what the call reported where every run function
puts it (``batch.extra[SAMPLER_INFO]``), so :data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE`
names these functions as it names the other samplers'.
"""

from __future__ import annotations

from ..model.qubo import Qubo
from ..qpu import sampler as road
from ..samples import SampleBatch
from .base import SAMPLER_INFO, SampleOptions, Tick

__all__ = ["QPU_OPTIONS", "check_dwave_model", "check_mock", "check_mock_model", "run_dwave", "run_mock"]

#: the options only the QPU samplers take (the keys of ``SampleOptions.qpu``) and their ``solve`` options
QPU_OPTIONS = road.QPU_OPTIONS


def call_of(opts: SampleOptions) -> road.QpuCall:
    """The QPU call *opts* ask for (the warm start as its matched states)."""
    return road.QpuCall(reads=opts.reads, seed=opts.seed, sweeps=opts.sweeps, options=dict(opts.qpu or {}),
                        states=opts.states, step=opts.step)


def check_mock(opts: SampleOptions) -> None:
    """``mock-dwave``'s options against the properties of the QPU it imitates, before any model is read."""
    road.check_mock_options(dict(opts.qpu or {}), opts.reads, warm=opts.initial_states is not None)


def check_mock_model(qubo: Qubo, opts: SampleOptions) -> None:
    """``mock-dwave``'s checks of *qubo*: :func:`nonoqubo.qpu.sampler.check_mock_model`."""
    road.check_mock_model(qubo, call_of(opts))


def check_dwave_model(qubo: Qubo, opts: SampleOptions) -> None:
    """``dwave``'s checks of *qubo* before it connects: :func:`nonoqubo.qpu.sampler.check_dwave_model`."""
    road.check_dwave_model(qubo, call_of(opts))


def _batch(answer: road.QpuAnswer) -> SampleBatch:
    answer.batch.extra[SAMPLER_INFO] = answer.reported
    return answer.batch


def run_mock(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``mock-dwave``: :func:`nonoqubo.qpu.sampler.sample_mock`."""
    return _batch(road.sample_mock(qubo, call_of(opts), tick))


def run_dwave(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``dwave``: :func:`nonoqubo.qpu.sampler.sample_dwave`."""
    return _batch(road.sample_dwave(qubo, call_of(opts), tick))
