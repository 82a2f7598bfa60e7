"""``encoding``, ``explain`` and ``theorems``: the logic itself, inspected."""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import Any

from rushhour.board import Board, Move
from rushhour.cli.core import (
    BOARD_HELP,
    add_board,
    add_color_flags,
    board_summary,
    color_wanted,
    draw,
    examples,
    flag,
    given,
    refuse,
    refuse_color_without_drawing,
)
from rushhour.cli.documents import emit, entry_ref
from rushhour.errors import RushHourError
from rushhour.files import same_file, write_text_atomic
from rushhour.levels import resolve_board
from rushhour.logic import encode, notation
from rushhour.logic.claims import prove
from rushhour.logic.counting import count_with_likelihoods, counter_name
from rushhour.logic.encoding import WORD, Shape
from rushhour.logic.oracle import MoveOracle, oracle_for
from rushhour.logic.theorems import check_all
from rushhour.numbers import quoted
from rushhour.text import plural

_SIZE_RE = re.compile(r"\s*([0-9]{1,6})\s*[xX]\s*([0-9]{1,6})\s*\Z")


def register(sub: Any) -> None:
    _register_encoding(sub)
    _register_explain(sub)
    _register_prove(sub)
    _register_count(sub)
    _register_theorems(sub)


def _register_encoding(sub: Any) -> None:
    p = sub.add_parser(
        "encoding",
        help="show the propositional encoding of a board",
        description=(
            "Show the propositions by class, the constraints, the numbers of variables and clauses, the "
            "true state propositions cell by cell and the true move propositions of a position."
        ),
        epilog=examples(
            "rushhour encoding classic:12",
            "rushhour encoding classic:12 --dimacs out.cnf   # DIMACS CNF, a c line naming every variable",
            "rushhour encoding classic:12 --family CMR --cell 2,4   # the constraints themselves",
            "rushhour encoding classic:12 --about Won --latex   # the constraints naming Won, in LaTeX",
        ),
    )
    add_board(p)
    p.add_argument(
        "--constraints",
        action="store_true",
        help="print the constraints themselves, family by family, in the notation of docs/encoding.md",
    )
    p.add_argument(
        "--family",
        action="append",
        default=[],
        metavar="NAME",
        help="only the constraints of this family (S, P1, R1, G2, EndR, CMR, SlideD, W...; repeatable)",
    )
    p.add_argument("--cell", metavar="I,J", help="only the constraints naming a proposition of cell (I,J)")
    p.add_argument("--about", metavar="PROP", help="only the constraints naming this proposition: 'CMR(2,4)'")
    p.add_argument("--latex", action="store_true", help="the constraints as LaTeX formulas")
    p.add_argument(
        "--dimacs",
        metavar="FILE",
        help="write the rules and the position's facts as DIMACS CNF to FILE ('-' for stdout)",
    )
    p.add_argument("--json", action="store_true", help="the figures of the encoding as JSON")
    p.set_defaults(func=cmd_encoding)


def _register_explain(sub: Any) -> None:
    p = sub.add_parser(
        "explain",
        help="say whether a move is legal, and why",
        description="Ask the SAT solver whether MOVE (like A+2) is legal; an illegal move is explained "
        "from the unsatisfiable core.  Exit status 0 when legal, 1 when illegal.",
        epilog=examples(
            "rushhour explain classic:12 A+1   # illegal: the cell it needs is taken",
            "rushhour explain classic:12 B+1   # legal",
        ),
    )
    add_board(p)
    p.add_argument("move", metavar="MOVE", help="a vehicle and a signed distance: A+2, B-1")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_explain)


def _register_prove(sub: Any) -> None:
    p = sub.add_parser(
        "prove",
        help="prove a claim of your own about the rules",
        description=(
            "Prove CLAIM, a formula in the notation of docs/encoding.md (~ & | -> <->, propositions as "
            "printed: CMR(2,4), quantifiers over the grid: forall i,j: ..., cell arithmetic: j+1), for "
            "every position of a board size (--size) or of BOARD's shape, for BOARD's position alone "
            "(--position) or for every position reachable from it (--reachable); or refute it with a "
            "counterexample.  Exit status 0 when proved, 1 when refuted."
        ),
        epilog=examples(
            "rushhour prove 'forall i,j: CMR(i,j) -> Empty(i,j+1)' --size 6x6",
            "rushhour prove 'exists j: Empty(2,j)' --size 6x6   # refuted: a counterexample",
            "rushhour prove '~Won' classic:12 --reachable",
        ),
    )
    p.add_argument("claim", metavar="CLAIM", help="a formula in the notation of docs/encoding.md")
    p.add_argument("board", metavar="BOARD", nargs="?", help=BOARD_HELP + " (or give --size)")
    p.add_argument("--size", metavar="WxH", help="every position of this board size (a generic shape)")
    p.add_argument("--walls", action="store_true", help="let positions have walls (default: none)")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--position", action="store_true", help="BOARD's position alone")
    scope.add_argument("--reachable", action="store_true", help="every position reachable from BOARD")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_color_flags(p)
    p.set_defaults(func=cmd_prove)


def _register_count(sub: Any) -> None:
    p = sub.add_parser(
        "count",
        help="count the positions of a board size exactly, with a claim, and likelihoods",
        description=(
            "Count the models of the rules of a board size exactly (every model is a position), with "
            "CLAIM added when given, and the likelihood of propositions or formulas among them, with the "
            "exact model counter Ganak.  Sizes up to 42 cells (7x6 or 6x7; 6x6 takes about 10 s, and a few "
            "seconds more for each likelihood, each one a count of its own)."
        ),
        epilog=examples(
            "rushhour count --size 4x4",
            "rushhour count 'forall j: ~Red(2,j) | CMR(2,j) | CML(2,j)' --size 5x5 --walls",
            "rushhour count --size 5x5 --likelihood Won --likelihood 'CMR(2,2)'",
        ),
    )
    p.add_argument("claim", metavar="CLAIM", nargs="?", help="count only the positions where it holds")
    p.add_argument("--size", metavar="WxH", required=True, help="the board size (a generic shape)")
    p.add_argument("--walls", action="store_true", help="let positions have walls (default: none)")
    p.add_argument(
        "--likelihood",
        action="append",
        default=[],
        metavar="FORMULA",
        help="the fraction of the counted positions where FORMULA holds (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_count)


def _register_theorems(sub: Any) -> None:
    p = sub.add_parser(
        "theorems",
        help="prove statements about the rules",
        description=(
            "Prove statements as entailments of the rules (their negation is unsatisfiable), or refute "
            "them with a counterexample position.  Exit status 0 when every outcome is the expected one."
        ),
        epilog=examples("rushhour theorems", "rushhour theorems --size 4x4 --walls"),
    )
    p.add_argument("--size", default="6x6", metavar="WxH", help="board size (default 6x6)")
    p.add_argument("--walls", action="store_true", help="let positions have walls (default: none)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_color_flags(p)
    p.set_defaults(func=cmd_theorems)


def parse_size(text: str) -> tuple[int, int]:
    m = _SIZE_RE.match(text)
    if not m:
        raise RushHourError(f"cannot read size {quoted(text)}: write WIDTHxHEIGHT, like 6x6")
    width, height = int(m.group(1)), int(m.group(2))
    for label, side in (("width", width), ("height", height)):
        if not 3 <= side <= 16:
            raise RushHourError(f"size {text!r}: the {label} must be 3 to 16")
    return width, height


def _prop_cell(name: str) -> tuple[str, tuple[int, ...]]:
    family, _, rest = name.partition("(")
    return family, tuple(int(x) for x in rest.rstrip(")").split(",")) if rest else ()


def encoding_report(board: Board, label: str) -> str:
    oracle = oracle_for(board)
    rules = oracle.rules
    true = oracle.true_propositions(board)
    lines = [f"{label}: {board_summary(board)}"]
    lines.append(f"shape: {rules.shape.describe()}")
    lines.append("  (the rules are compiled once per shape; walls and vehicles are facts of the position)")
    lines.append("")
    lines.append(f"propositions by class ({plural(len(rules.names), 'variable')}):")
    for family, names in rules.classes.items():
        span = ", ".join(names) if len(names) <= 2 else f"{names[0]} .. {names[-1]}"
        lines.append(f"  {family:<8} {len(names):>5}  {span}")
    lines.append("")
    total = sum(rules.constraints.values())
    clauses = plural(len(rules.clauses), "clause")
    lines.append(f"constraints by family ({plural(total, 'bauhaus constraint')}, {clauses}):")
    for family, count in rules.constraints.items():
        lines.append(f"  {count:>5}  {family}")
    lines.append("  (--constraints prints them as formulas; --family, --cell, --about choose some)")
    facts = oracle.facts(board)
    lines.append("")
    # the clauses as the DIMACS file and the JSON count them: the rules, and a unit clause per fact
    rule_clauses = len(rules.clauses)
    lines.append(
        f"variables: {len(rules.names):,}   clauses: {rule_clauses:,} rules + {len(facts):,} "
        f"{'fact' if len(facts) == 1 else 'facts'} = {rule_clauses + len(facts):,}   solver: {oracle.backend}"
    )
    lines.append("")
    lines.append("true state propositions (STATE.PART on vehicle cells, PART counted from the top/left):")
    state_of: dict[tuple[int, ...], str] = {}
    part_of: dict[tuple[int, ...], str] = {}
    for name in true:
        family, args = _prop_cell(name)
        if family in rules.states:
            state_of[args] = family
        elif family.startswith("Part"):
            part_of[args] = family[4:]
    width = max(len(s) for s in rules.states) + 3
    header = "     " + "".join(f"{c:^{width}}" for c in range(board.width))
    lines.append(header)
    for r in range(board.height):
        row = []
        for c in range(board.width):
            text = state_of[(r, c)] + (f".{part_of[(r, c)]}" if (r, c) in part_of else "")
            row.append(f"{text:^{width}}")
        lines.append(f"  {r:>2} " + "".join(row))
    lines.append("")
    lines.append("true move propositions:")
    true_set = set(true)
    any_move = False
    for (d, cell), chain in sorted(rules.reach_vars.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        names = [rules.names[v - 1] for v in chain]
        if names[0] not in true_set:
            continue
        any_move = True
        reach = sum(1 for n in names if n in true_set)
        slides = f"  (also {', '.join(names[1:reach])})" if reach > 1 else ""
        lines.append(f"  {names[0]:<10} {board.at(cell)} can move {WORD[d]} up to {reach}{slides}")
    if not any_move:
        lines.append("  none: no vehicle can move")
    lines.append(f"Won is {'true' if 'Won' in true_set else 'false'}")
    return "\n".join(lines) + "\n"


def parse_cell(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*\(?\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*\)?\s*", text)
    if not m:
        raise RushHourError(f"cannot read cell {quoted(text)}: write ROW,COLUMN, like 2,4")
    return int(m.group(1)), int(m.group(2))


def _option_cell(text: str, shape: Shape) -> tuple[int, int]:
    """The cell of ``--cell``, on the board of ``shape``; an error names the option, as ``--about``'s."""
    try:
        row, col = parse_cell(text)
    except RushHourError as err:
        raise RushHourError(f"--cell: {err}") from None
    if not (row < shape.height and col < shape.width):
        raise RushHourError(f"--cell: cell ({row},{col}) is off the {shape.width}x{shape.height} board")
    return row, col


#: the options of ``encoding`` that print constraints rather than the figures
CONSTRAINT_OPTIONS = ("constraints", "family", "cell", "about", "latex")


def constraints_given(args: argparse.Namespace) -> list[str]:
    """The constraint options written on the command line, whatever their values (an empty
    ``--cell ''`` too: it is then refused as unreadable, never taken for "not given")."""
    if getattr(args, "given_options", None) is not None:
        return [dest for dest in CONSTRAINT_OPTIONS if given(args, dest)]
    # a namespace made by hand: what is set (``--family``'s default is an empty list)
    return [dest for dest in CONSTRAINT_OPTIONS if getattr(args, dest, None) not in (None, False, [])]


def cmd_constraints(args: argparse.Namespace, entry: Any) -> int:
    rules = oracle_for(entry.board).rules
    about = None
    if args.about is not None:
        formula = notation.parse_ground(args.about, rules, "--about")
        if not isinstance(formula, notation.Atom):
            raise RushHourError(f"--about {quoted(args.about)}: name one proposition, like 'CMR(2,4)'")
        about = formula.name
    cell = _option_cell(args.cell, rules.shape) if args.cell is not None else None
    chosen = rules.select(args.family, cell, about)
    if args.json:
        emit("constraints", constraints_document(entry, rules, chosen))
        return 0
    sys.stdout.write(constraints_text(rules, chosen, latex=args.latex))
    return 0


def constraints_document(entry: Any, rules: Any, chosen: list[Any]) -> dict[str, Any]:
    families: dict[str, dict[str, Any]] = {}
    for item in chosen:
        family = families.setdefault(
            item.title, {"family": item.family, "title": item.title, "constraints": []}
        )
        family["constraints"].append(
            {
                "formula": item.text,
                "latex": notation.latex(item.formula),
                "clauses": [list(c) for c in item.clauses],
            }
        )
    return {
        "board": entry_ref(entry),
        "shape": rules.shape.describe(),
        "count": len(chosen),
        "families": list(families.values()),
    }


def constraints_text(rules: Any, chosen: list[Any], latex: bool = False) -> str:
    if not chosen:
        return "no constraint matches\n"
    by_title: dict[str, list[Any]] = {}
    for item in chosen:
        by_title.setdefault(item.title, []).append(item)
    lines = []
    for title, items in by_title.items():
        count = f"{plural(len(items), 'constraint')} of {rules.constraints[title]}"
        if latex:
            lines.append(f"% {title} ({count})")
            lines.extend(f"\\[ {notation.latex(item.formula)} \\]" for item in items)
        else:
            lines.append(f"{title} ({count}):")
            lines.extend(f"  {item.text}" for item in items)
    return "\n".join(lines) + "\n"


def cmd_encoding(args: argparse.Namespace) -> int:
    chosen = constraints_given(args)
    if chosen and args.dimacs is not None:
        options = " or ".join(flag(dest) for dest in chosen)
        refuse(f"--dimacs writes the whole CNF: it does not go with {options}")
    if args.json and args.dimacs == "-":
        refuse("--json and --dimacs - both write to stdout: write the DIMACS to a file")
    if args.dimacs not in (None, "-") and same_file(args.dimacs, args.board):
        where = quoted(args.dimacs)
        raise RushHourError(f"--dimacs {where}: BOARD was read from it, and the CNF would replace the board")
    entry = resolve_board(args.board)
    board = entry.board
    if chosen:
        return cmd_constraints(args, entry)
    cnf = encode(board)
    if args.dimacs is not None:
        rules = cnf.rules
        comment = (
            f"rushhour encoding of {entry.meta.get('name') or entry.label}\n"
            f"shape: {rules.shape.describe()}\n"
            f"the rules ({plural(len(rules.clauses), 'clause')}), then the position's facts as unit clauses\n"
            + "\n".join(f"row {r}: {row}" for r, row in enumerate(board.rows()))
        )
        text = cnf.dimacs(comment=comment)
        if args.dimacs == "-":
            sys.stdout.write(text)
            return 0
        write_text_atomic(args.dimacs, text)
        if not args.json:
            counts = f"{plural(cnf.variables, 'variable')}, {plural(cnf.clauses, 'clause')}"
            print(f"wrote {args.dimacs}: {counts}")
            return 0
    if args.json:
        emit("encoding", {**cnf.to_dict(), "board": entry_ref(entry), "dimacs": args.dimacs})
        return 0
    sys.stdout.write(encoding_report(board, entry.meta.get("name") or entry.label))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    entry = resolve_board(args.board)
    board = entry.board
    move = Move.parse(args.move)
    # an unknown vehicle: an error naming the board's vehicles; ``a+1`` is A's move when unambiguous
    move = Move(board.layout.vehicle_name(move.vehicle), move.distance)
    oracle: MoveOracle = oracle_for(board)
    verdict = oracle.explain(board, move)
    if args.json:
        emit("explain", {"board": entry_ref(entry), **verdict.to_dict(), "solver": oracle.backend})
        return 0 if verdict.legal else 1
    print(verdict)
    if verdict.legal:
        print(f"the rules with this position's facts and {verdict.proposition} are satisfiable")
        print(f"in the logic: {verdict.logic()[0]}")
        return 0
    print("in the logic, every obstacle on the way (nearest first):")
    for line in verdict.logic():
        print(f"  {line}")
    if verdict.core:
        print(f"unsatisfiable core: {', '.join(verdict.core)}")
    return 1


def cmd_theorems(args: argparse.Namespace) -> int:
    if args.json:
        refuse_color_without_drawing(args, "--json")
    width, height = parse_size(args.size)
    shape = Shape.generic(width, height)
    color = color_wanted(args)
    where = "with walls" if args.walls else "without walls"
    outcomes = check_all(width, height, walls=args.walls)
    unexpected = [o for o in outcomes if not o.as_expected]
    if args.json:
        body = {
            "width": width,
            "height": height,
            "walls": args.walls,
            "shape": shape.describe(),
            "theorems": [o.to_dict() for o in outcomes],
            "proved": sum(o.proved for o in outcomes),
            "refuted": sum(not o.proved for o in outcomes),
            "unexpected": len(unexpected),
        }
        emit("theorems", body)
        return 0 if not unexpected else 1
    print(f"Statements about every {width}x{height} position {where} ({shape.describe()}):")
    for outcome in outcomes:
        print(f"{outcome.verdict:<8} {outcome.theorem.title}  ({outcome.seconds * 1000:.0f} ms)")
        print(f"  {outcome.formula}")
        if outcome.counterexample is not None:
            print("  counterexample:")
            for line in draw(outcome.counterexample, color).splitlines():
                print(f"  {line}")
    proved = sum(o.proved for o in outcomes)
    print(f"{proved} proved, {len(outcomes) - proved} refuted, {len(unexpected)} unexpected")
    return 0 if not unexpected else 1


def claim_target(args: argparse.Namespace) -> tuple[Any, Any]:
    """What a claim is about: a generic shape (``--size``) or a board's entry; exactly one of them."""
    if (args.board is None) == (args.size is None):
        refuse("give BOARD or --size WxH (one of them)")
    if args.size is not None:
        width, height = parse_size(args.size)
        return Shape.generic(width, height), None
    return None, resolve_board(args.board)


def cmd_prove(args: argparse.Namespace) -> int:
    if args.json:
        refuse_color_without_drawing(args, "--json")
    shape, entry = claim_target(args)
    scope = "position" if args.position else "reachable" if args.reachable else "shape"
    if entry is None and scope != "shape":
        refuse(f"--{scope} needs a BOARD, not --size")
    if args.walls and scope != "shape":
        refuse(f"--walls does not go with --{scope}: those positions are BOARD's, walls and all")
    outcome = prove(args.claim, entry.board if entry else shape, scope=scope, walls=args.walls)
    if args.json:
        body = {"board": entry_ref(entry) if entry else None, **outcome.to_dict()}
        emit("prove", body)
        return 0 if outcome.proved else 1
    print(f"{outcome.verdict}  {outcome.claim}")
    took = f"{outcome.seconds * 1000:.0f} ms"
    if outcome.proved:
        print(f"for {outcome.where()}: the rules with the claim's negation are unsatisfiable ({took})")
        return 0
    print(f"for {outcome.where()}; a counterexample, where the claim is false ({took}):")
    assert outcome.counterexample is not None
    for line in draw(outcome.counterexample, color_wanted(args)).splitlines():
        print(f"  {line}")
    if outcome.falsified_by:
        print(f"false there because of: {', '.join(outcome.falsified_by)}")
    return 1


def cmd_count(args: argparse.Namespace) -> int:
    width, height = parse_size(args.size)
    shape = Shape.generic(width, height)
    started = time.perf_counter()
    total, fractions = count_with_likelihoods(shape, args.claim, args.likelihood, walls=args.walls)
    odds = list(zip(args.likelihood, fractions, strict=True))
    seconds = time.perf_counter() - started
    if args.json:
        body = {
            "width": width,
            "height": height,
            "walls": args.walls,
            "shape": shape.describe(),
            "claim": args.claim,
            "count": total,
            "likelihoods": [
                {"formula": f, "numerator": p.numerator, "denominator": p.denominator, "value": float(p)}
                for f, p in odds
            ],
            "counter": counter_name(),
            "seconds": round(seconds, 6),
        }
        emit("count", body)
        return 0
    where = "with" if args.walls else "without"
    print(f"{width}x{height} positions {where} walls ({shape.describe()})")
    if args.claim is not None:
        print(f"where {args.claim}")
    print(f"count: {total:,} ({total:.3e})" if total >= 10**6 else f"count: {total:,}")
    for formula, p in odds:
        print(f"likelihood of {formula}: {p.numerator:,}/{p.denominator:,} = {float(p):.6g}")
    print(f"exact model counts by {counter_name()}, {seconds:.1f} s")
    return 0
