"""``nonoqubo embed``: find a minor embedding of a model on a QPU topology and write it as EMB.json.

The command owns the arguments and the text; the topology, the search, the checks, the cache and
the file are :mod:`nonoqubo.qpu`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._util.progress import spinner, status_line
from ..inputs import load_model
from ..qpu.physical import check_not_physical
from ..errors import EmbeddingError
from ..pipeline import qubo_to_embed
from ..qpu.cache import embed
from ..qpu.embedding import check_search_options, write_embedding
from ..qpu.topology import Topology, parse_topology
from ._common import (add_embed_search_arguments, add_presolve_argument, add_puzzle_arguments, check_embed_search_options, check_output_folder,
                      load_puzzle, no_solution_names, progress_enabled, say_wrote, topology_file)
from ._qpu_options import add_search_options, search_options
from ._options import add

ORDER = 25

HELP = "find an embedding of the QUBO on a QPU topology (Pegasus, Zephyr, Chimera, a QPU's graph) with minorminer"
DESCRIPTION = """\
Find a minor embedding of the QUBO of MODEL_OR_PUZZLE on the qubits of a D-Wave
QPU with minorminer, and write it to EMB.json: for every variable its chain of
qubits (the "embedding" object FixedEmbeddingComposite takes), the topology,
the model's interaction-graph hash and the figures (qubits, longest and mean
chain, seconds, tries).  The figures are printed; no embedding found within
the tries is one line and exit status 2.  Needs the 'dwave' extra
(pip install "nonoqubo[dwave]").

MODEL_OR_PUZZLE is a clue file (its QUBO is built) or a QUBO file nonoqubo
wrote (any format 'decode' reads; taken as written, so a 'build --presolve'
file embeds the presolved model).

TOPOLOGY is pegasus:M (Advantage: pegasus:16), zephyr:M[,T] (Advantage2:
zephyr:12,4), chimera:M[,N[,T]] (2000Q: chimera:16), or a JSON file of a
real QPU's working graph: DWaveSampler().properties saved with json.dump
("qubits"/"couplers"), or {"nodelist": [...], "edgelist": [...]}.  Real QPUs
miss a few qubits; an embedding on the file never uses one.

Embeddings are cached by (the model's interaction graph, the topology,
--embed-seed, --embed-tries, --embed-timeout) in $NONOQUBO_CACHE/embeddings
(default ~/.cache/nonoqubo/embeddings): the second embed of the same model with
the same search is immediate; a longer --embed-timeout searches again.  The
search options are the ones 'info --topology' and 'suite --embed' take, with
the same limits; 'embed' also takes two by their short names, --tries and
--timeout (--seed, its old name of --embed-seed, still works but is
deprecated: --seed is a solve's random seed).  Every cached or found
embedding is checked (dwave.embedding.verify_embedding) before it is written.

examples:
  nonoqubo embed examples/qbpp-logo.yaml --topology pegasus:16 -o logo.emb.json
  nonoqubo embed logo.bqm --topology zephyr:12,4 --embed-tries 5 --embed-timeout 120 -o logo.z.json
  nonoqubo embed puzzle.non --topology qpu-properties.json --presolve -o p.emb.json
  nonoqubo embed puzzle.non --topology Advantage_system4.1 --clique -o p.clique.json
  nonoqubo embed puzzle.non --topology advantage2 --threads 2 --chainlength-patience 20 -o p.z.json

--chainlength-patience, --threads and --clique are part of the cache key.
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("embed", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser, "model_or_puzzle")
    add(parser, "topology", "the graph to embed on (see above)", metavar="TOPOLOGY", required=True)
    add(parser, "output", "the embedding file", metavar="EMB.json", required=True)
    add_presolve_argument(parser, "embed the presolved model: the variables the presolve decides fixed first")
    add_embed_search_arguments(parser, short=True)
    add_search_options(parser)
    add(parser, "quiet", "no progress line, no figures and no 'wrote FILE' line")
    parser.set_defaults(run=run)
    return parser


def _read(args: argparse.Namespace) -> Any:
    """The model file or the puzzle MODEL_OR_PUZZLE names."""
    path = args.model_or_puzzle
    if path == "-" or args.from_format or args.index is not None or args.spec_name:
        return load_puzzle(args, "model_or_puzzle")
    return load_model(path, need_clues=False)


def _topology_line(topology: Topology) -> str:
    return f"{topology.spec} ({topology.num_qubits} qubits, {topology.num_couplers} couplers)"


def run(args: argparse.Namespace) -> int:
    source = args.model_or_puzzle
    check_not_physical(source, "embed")
    check_embed_search_options(args)  # before any work: minorminer's seed is an unsigned integer
    check_search_options(search_options(args))
    check_output_folder(args.output, source, topology_file(args.topology))  # never over a file it reads
    topology = parse_topology(args.topology)
    show = progress_enabled(args)
    with spinner("reading and building the model", enabled=show), no_solution_names(source):
        qubo, presolved = qubo_to_embed(_read(args), presolve=args.presolve and args.presolve_method, source=source)
    found = embed(qubo, topology, seed=args.embed_seed, tries=args.embed_tries, timeout=args.embed_timeout,
                  use_cache=not args.no_cache, presolved=presolved,
                  step=lambda message: status_line(f"{message} (at most {args.embed_timeout:g} s)", show),
                  search=search_options(args))
    model = found.model
    size = (f"{model['variables']} variables, {model['edges']} edges, max degree {model['max_degree']}"
            + (", presolved" if presolved else ""))
    emb = found.embedding
    if emb is None:
        raise EmbeddingError(
            f"{source}: no embedding of the model ({size}) on {_topology_line(topology)} in {args.embed_tries} "
            f"tr{'y' if args.embed_tries == 1 else 'ies'} of at most {args.embed_timeout:g} s; try a larger topology, "
            "--presolve, more --embed-tries or a longer --embed-timeout")
    write_embedding(args.output, emb, model, topology)
    if args.quiet:
        return 0
    out = sys.stderr if args.output == "-" else sys.stdout  # '-o -': the file is standard output
    fig = emb.figures
    print(f"{source}: {size}", file=out)
    if model["variables"] == 0:
        print(f"nothing to embed: presolve fixes every variable; {args.output} holds an empty embedding", file=out)
        say_wrote(args.output, "embedding")
        return 0
    where = (f"from the cache, found in {fig['seconds']:.2f} s" if found.cached
             else f"{fig['seconds']:.2f} s")
    print(f"topology:  {_topology_line(topology)}", file=out)
    print(f"embedding: {fig['qubits']} qubits, longest chain {fig['longest_chain']}, mean chain "
          f"{fig['mean_chain']:.2f} ({where}; best of {fig['tries']} tr{'y' if fig['tries'] == 1 else 'ies'}, "
          f"seed {fig['seed']}, at most {fig.get('timeout', args.embed_timeout):g} s each)", file=out)
    say_wrote(args.output, "embedding")
    return 0
