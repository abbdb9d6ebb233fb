"""A QOBLIB submission from a judged campaign: ``nonoqubo evaluate SUITE RUNS --submission DIR --submitter NAME``.

QOBLIB takes results as one folder per approach (``submissions/YYYYMMDD_Method_Submitter``)
with one sub-folder per instance; its ``misc/check_submission.py`` checks them.
:func:`write_submission` writes, per instance of the campaign:

* ``NAME/NAME_summary.csv``: QOBLIB's 27 required columns, in order (:data:`COLUMNS`, from its
  CONTRIBUTING and ``misc/submission_template.csv``), one row: the setting's runs;
* ``NAME/NAME_solution.pbm``: the best sample's picture (the lowest energy), a plain PBM that the
  class's ``check/check_nonogram.py`` checks;
* ``NAME/NAME_objective_time_series.json``: one list per run (a read of the sampler), each
  ``[{"Time": t, "Incumbent": E}]``: the run ends after ``t`` seconds (the mean seconds per run
  of the setting) with energy ``E``.  A sampler reports only the end of a read, so each run has
  one point; omitted when the runs record no time.

What the columns hold (a run is one read: one independent anneal or search):

==========================  ==================================================================
Problem                     the instance (the suite's entry; ``.presolved`` runs count for it)
Submitter, Date, Reference  ``--submitter``; today (UTC, ISO 8601); ``--reference`` or nonoqubo's version
Best Objective Value        the lowest QUBO energy of any run (0: a solution)
Optimality Bound            0: every energy of these QUBOs is >= 0
Modeling Approach           QUBO, encoding and weights, presolved or not
# Decision Variables ...    the variables of the model sampled (all binary: integer, continuous 0)
# Non-Zero Coefficients     its linear and quadratic terms
Coefficients Type/Range     integer; the min and max of its linear and pair coefficients
Workflow                    build, presolve, the sampler and its parameters, decode
Algorithm Type              stochastic, or deterministic for exact and cpsat
# Runs                      the reads judged
# Feasible Runs             runs whose picture satisfies every clue (energy 0): a nonogram has
                            no weaker feasibility
# Successful Runs           the same (f_min is 0, so (1 + eps) f_min is 0 for every eps)
Success Threshold           0
Hardware Specifications     the machine the run files record
Total, CPU, QPU Runtime     the mean seconds per run (the setting's time source, in Remarks);
                            QPU for a QPU sampler, CPU otherwise; GPU, Other HW: N/A
Remarks                     the setting, the time source, the files, the distinct solutions
==========================  ==================================================================

A submission is one approach: an instance with runs of several settings (or model variants)
is refused (:class:`~nonoqubo.errors.QoblibError`), as are a non-empty *DIR*, a missing
submitter, an instance name that is not file-name safe and a run file that records no run (the
summary's hardware, runtimes and algorithm come from the record ``solve -o`` writes); everything is checked before
the samples are judged (:func:`check_submission`), and the folder is written under a
temporary name and renamed into place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime, timezone

import numpy as np

from .._util.names import file_stem
from .._version import __version__
from ..errors import QoblibError
from ..inputs import load_model
from ..model.build import build
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from .aggregate import csv_table
from .evaluate import Group, plan_runs
from ..solvers.samplers import known_sampler
from ..samples import record_of
from .runtime import QPU_ACCESS, qpu_timed
from .qoblib import check_empty_folder, check_instance_name, folder_in_place, pbm_text, write_text

__all__ = ["COLUMNS", "check_submission", "instance_of", "summary_row", "write_submission"]

#: QOBLIB's required summary columns, in order (CONTRIBUTING.md, misc/check_submission.py)
COLUMNS = (
    "Problem", "Submitter", "Date", "Reference", "Best Objective Value", "Optimality Bound", "Modeling Approach",
    "# Decision Variables", "# Binary Variables", "# Integer Variables", "# Continuous Variables",
    "# Non-Zero Coefficients", "Coefficients Type", "Coefficients Range", "Workflow", "Algorithm Type",
    "# Runs", "# Feasible Runs", "# Successful Runs", "Success Threshold", "Hardware Specifications",
    "Total Runtime", "CPU Runtime", "GPU Runtime", "QPU Runtime", "Other HW Runtime", "Remarks",
)
NA = "N/A"


def instance_of(model_name: str, from_suite: bool) -> str:
    """The QOBLIB instance a campaign's model answers: a suite entry's name without ``.presolved``;
    a model or clue file's name without its format endings (:func:`~nonoqubo._util.names.file_stem`, the one
    rule for names made from file names; ``.presolved`` is such an ending too).

    Examples:
        >>> instance_of("heart.presolved", True), instance_of("random-4x4-d0.5-s1-0001.qubo.json", False)
        ('heart', 'random-4x4-d0.5-s1-0001')
    """
    return model_name.removesuffix(".presolved") if from_suite else file_stem(model_name)


def check_submission(folder: str | None, submitter: str | None, model: str, samples: Sequence[str],
                     setting: str | None = None, force: bool = False) -> None:
    """Refuse, before any sample is judged, what :func:`write_submission` would refuse.

    Raises:
        QoblibError: ``--submitter`` without ``--submission`` or the other way round, an empty
            submitter, a non-empty folder, an instance name that is not file-name safe, two
            models of the campaign that are one instance.
        NonoquboError: what planning the campaign raises (a missing file, a run of no puzzle).
    """
    if folder is None:
        if submitter is not None:
            raise QoblibError("--submitter applies with --submission DIR only")
        return
    if submitter is None or not submitter.strip() or any(c in submitter for c in "\r\n\x00"):
        raise QoblibError("--submission needs --submitter NAME: the name(s) and affiliation(s) of the submitter(s), "
                          "one line")
    check_empty_folder(folder, "--submission")
    campaign = plan_runs(model, samples, setting, force=force)
    seen: dict[str, str] = {}
    for name in sorted({run.model for run in campaign.runs}):
        inst = instance_of(name, os.path.isdir(model))
        check_instance_name(inst, "--submission")
        if inst.lower() in seen:
            raise QoblibError(f"--submission: the models {seen[inst.lower()]} and {name} are one instance {inst!r}; "
                              "a submission is one model per instance (give the runs of one of them)")
        seen[inst.lower()] = name
        for run in campaign.runs:
            if run.model == name:
                _check_recorded(run.path)
        settings = sorted({run.setting for run in campaign.runs if run.model == name})
        if len(settings) > 1:  # found again after judging, when the run records tell settings apart
            raise QoblibError(f"--submission: instance {inst!r} has runs of {len(settings)} settings "
                              f"({', '.join(settings)}); a submission is one approach: give the runs of one setting")


def _check_recorded(path: str) -> None:
    """Refuse a run file that records no run: a submission's hardware, runtimes and algorithm come from it.

    ``nonoqubo solve -o`` writes the record (sampler, parameters, timing, machine) into the
    SampleSet; a file made by hand or by another program (qbsolv's output, a bit-string file) has
    none, and QOBLIB's summary would hold "not recorded" where a reviewer needs the figures.
    """
    try:
        record = record_of(path)
    except OSError as exc:
        raise QoblibError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if record is None:
        raise QoblibError(f"{path}: records no run (sampler, parameters, timing, machine), which a QOBLIB "
                          "submission reports; make the runs with 'nonoqubo solve -o' or leave this file out")


def _model_of(path: str) -> Qubo:
    model = load_model(path)
    if isinstance(model, Puzzle):
        return build(model)
    if not isinstance(model, Qubo):
        raise QoblibError(f"{path}: a submission needs the QUBO the runs sampled; this is a constrained model")
    return model


def _number(x: float | None) -> str:
    return NA if x is None else f"{x:.6g}"


def _coefficients(qubo: Qubo) -> tuple[int, str]:
    vals = np.concatenate((np.asarray(qubo.linear), np.asarray(qubo.quad)))
    vals = vals[vals != 0]
    if not vals.size:
        return 0, NA
    return int(vals.size), f"{int(vals.min())} to {int(vals.max())}"


def _deterministic(sampler: object) -> bool:
    """Whether *sampler* (a run record's) searches deterministically, as its sampler table entry says."""
    spec = known_sampler(sampler)
    return spec is not None and spec.deterministic


def summary_row(group: Group, instance: str, qubo: Qubo, *, submitter: str, date: str, reference: str) -> dict[str, str]:
    """The summary CSV row of one instance's runs (the columns: the module docstring)."""
    f = group.figures("raw")
    run = group.run or {}
    sampler = run.get("sampler")
    samplers = sampler if isinstance(sampler, list) else [sampler] if sampler else []
    qpu = any(qpu_timed(s) for s in samplers) or QPU_ACCESS.lower() in group.time_source.lower()
    nonzeros, coef_range = _coefficients(qubo)
    presolved = group.model.endswith(".presolved") or bool(qubo.fixed)
    machine = run.get("machine")
    hardware = ("; ".join(f"{k} {v}" for k, v in machine.items()) if isinstance(machine, dict)
                else "not recorded by the run files")
    params = run.get("parameters")
    seconds = group.seconds
    return {
        "Problem": instance, "Submitter": submitter, "Date": date, "Reference": reference,
        "Best Objective Value": str(f["best_energy"]), "Optimality Bound": "0",
        "Modeling Approach": (f"QUBO (nonoqubo, {qubo.encoding.name} encoding, penalty weights {qubo.weights}"
                              f"{', presolved by line logic' if presolved else ''}): energy 0 exactly at a solution"),
        "# Decision Variables": str(qubo.num_vars), "# Binary Variables": str(qubo.num_vars),
        "# Integer Variables": "0", "# Continuous Variables": "0",
        "# Non-Zero Coefficients": str(nonzeros), "Coefficients Type": "integer", "Coefficients Range": coef_range,
        "Workflow": (f"nonoqubo {__version__}: build the QUBO from the clues"
                     f"{' (presolve: line logic fixes what it decides)' if presolved else ''}; sample with "
                     f"{', '.join(map(str, samplers)) or 'an unrecorded sampler'}"
                     f"{' ' + json.dumps(params, sort_keys=True) if params else ''}; decode each sample to its "
                     "picture (no post-processing)"),
        "Algorithm Type": "deterministic" if samplers and all(_deterministic(s) for s in samplers) else "stochastic",
        "# Runs": str(f["samples"]), "# Feasible Runs": str(f["valid"]), "# Successful Runs": str(f["valid"]),
        "Success Threshold": "0", "Hardware Specifications": hardware,
        "Total Runtime": _number(seconds), "CPU Runtime": NA if qpu else _number(seconds), "GPU Runtime": NA,
        "QPU Runtime": _number(seconds) if qpu else NA, "Other HW Runtime": NA,
        "Remarks": (("solved by presolve: line logic fixes every variable, no sampler run is counted; "
                     if group.solved_by_presolve else "")
                    + ("proven unsolvable (CP-SAT counted 0 solutions): no run can reach energy 0; "
                       if group.unsolvable else "")
                    + f"setting {group.setting}; {group.files} sample file(s); runtimes are mean seconds per run "
                    f"(one read), time source: {group.time_source}; feasible = successful = runs whose picture "
                    f"satisfies every clue; {f['distinct_solutions']} distinct solution(s) found"),
    }


def _time_series(group: Group) -> list[list[dict[str, float]]] | None:
    if group.seconds is None:
        return None
    energies = np.repeat(group.raw.energies, group.raw.weights)
    t = float(group.seconds)
    return [[{"Time": t, "Incumbent": int(e)}] for e in energies.tolist()]


def write_submission(groups: Sequence[Group], folder: str, *, submitter: str, from_suite: bool,
                     reference: str | None = None, date: str | None = None) -> list[str]:
    """Write the submission of *groups* into *folder* (module docstring); the instances written.

    Raises:
        QoblibError: as :func:`check_submission` (checked again here), or several settings for one instance.
        WriteError: the folder cannot be made.
    """
    if not submitter or not submitter.strip():
        raise QoblibError("--submission needs --submitter NAME")
    check_empty_folder(folder, "--submission")
    by_instance: dict[str, list[Group]] = {}
    for g in groups:
        by_instance.setdefault(instance_of(g.model, from_suite), []).append(g)
    for inst, items in by_instance.items():
        check_instance_name(inst, "--submission")
        if len(items) > 1:
            raise QoblibError(f"--submission: instance {inst!r} has runs of {len(items)} settings or models "
                              f"({', '.join(sorted(f'{g.model}/{g.setting}' for g in items))}); a submission is one "
                              "approach: give the runs of one setting")
    date = date or datetime.now(timezone.utc).date().isoformat()
    reference = reference or f"nonoqubo {__version__} (nonoqubo evaluate --submission)"
    with folder_in_place(folder) as work:
        for inst, (group,) in sorted(by_instance.items()):
            _write_instance(work, inst, group, submitter=submitter, date=date, reference=reference)
    return sorted(by_instance)


def _write_instance(root: str, inst: str, group: Group, **columns: str) -> None:
    qubo = _model_of(group.info.path)
    row = summary_row(group, inst, qubo, **columns)
    folder = os.path.join(root, inst)
    write_text(folder, f"{inst}_summary.csv", csv_table(COLUMNS, [[row[c] for c in COLUMNS]]))
    best = group.raw
    write_text(folder, f"{inst}_solution.pbm",
          pbm_text(best.best_grid, f"{inst}: the best sample's picture, QUBO energy {best.best_energy}"
                                   f"{' (a solution)' if best.best_energy == 0 else ' (not a solution)'}"))
    series = _time_series(group)
    if series is not None:
        write_text(folder, f"{inst}_objective_time_series.json", json.dumps(series, separators=(",", ":")) + "\n")


def submission_line(written: Sequence[str], folder: str) -> str:
    """The line ``evaluate`` prints after writing a submission."""
    return f"submission {folder}: {len(written)} instance folder(s) ({', '.join(written[:5])}{' ...' if len(written) > 5 else ''})"

