"""The one notation of the logic: formulas over the encoding's propositions, printed and parsed.

Connectives, from the tightest to the loosest: ``~`` (not), ``&`` (and), ``|`` (or), ``->`` (implies,
to the right: ``a -> b -> c`` is ``a -> (b -> c)``), ``<->`` (if and only if).  Propositions are
written as the program prints them: ``Empty(2,4)``, ``CMR(2,4)``, ``SlideR(2,1,3)``, ``Won``.
``true`` and ``false`` are the constants.

A *claim* may also use quantifiers over the grid and cell arithmetic::

    forall i,j: CMR(i,j) -> Empty(i,j+1)
    exists j: Red(2,j) & Part0(2,j)

A quantifier reaches as far right as it can.  A bound variable ranges over the rows when it stands (alone
or plus or minus a number) in a row place, over the columns in a column place, over the distances 2, 3,
... in a slide's third place (every such place, when several; a place where it stands negated, as in
``SlideR(2,j,5-j)``, does not count unless there is no other).  Under a quantifier a proposition
the rules do not have (a cell off the board, a slide longer than the board allows) is false: there is no
such cell, no such slide.  Written with numbers alone, such a proposition is an error.

>>> from rushhour.logic.encoding import Shape, encoding_for
>>> rules = encoding_for(Shape.generic(4, 4))
>>> claim = ground(parse("forall j: CMR(1,j) -> Empty(1,j+1)"), rules)
>>> print(show(claim))
(CMR(1,0) -> Empty(1,1)) & (CMR(1,1) -> Empty(1,2)) & (CMR(1,2) -> Empty(1,3)) & ~CMR(1,3)
>>> parse("CMR(1,2) -> (Empty(1,3)")
Traceback (most recent call last):
...
rushhour.errors.ParseError: claim 'CMR(1,2) -> (Empty(1,3)', column 24: expected ')', found the end
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from rushhour.errors import ArgumentTypeError, ParseError
from rushhour.numbers import MAX_DIGITS, quoted

if TYPE_CHECKING:
    from rushhour.logic.encoding import RulesEncoding

__all__ = [
    "And",
    "Atom",
    "Const",
    "Formula",
    "Iff",
    "Implies",
    "Not",
    "Or",
    "atoms",
    "check_expansion",
    "evaluate",
    "ground",
    "latex",
    "parse",
    "parse_ground",
    "read",
    "show",
    "to_clauses",
]


# --- ground formulas ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Atom:
    name: str


@dataclass(frozen=True, slots=True)
class Const:
    value: bool


@dataclass(frozen=True, slots=True)
class Not:
    arg: Formula


@dataclass(frozen=True, slots=True)
class And:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Implies:
    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Iff:
    left: Formula
    right: Formula


Formula = Union[Atom, Const, Not, And, Or, Implies, Iff]  # noqa: UP007 - a runtime alias

#: binding strength: a child binding less tightly than its parent is put in parentheses
_RANK = {Iff: 1, Implies: 2, Or: 3, And: 4, Not: 5, Atom: 6, Const: 6}


def conjoin(items: Iterable[Formula]) -> Formula:
    """The conjunction of ``items`` (one item: itself)."""
    args = tuple(items)
    return args[0] if len(args) == 1 else And(args)


def disjoin(items: Iterable[Formula]) -> Formula:
    args = tuple(items)
    return args[0] if len(args) == 1 else Or(args)


def none_of(items: Sequence[Formula]) -> Formula:
    return conjoin(Not(a) for a in items)


def at_most_one(items: Sequence[Formula]) -> Formula:
    """``(a -> ~b & ~c) & (b -> ~c)``: no two of ``items`` together."""
    return conjoin(Implies(a, none_of(items[k + 1 :])) for k, a in enumerate(items[:-1]))


def exactly_one(items: Sequence[Formula]) -> Formula:
    if len(items) == 1:
        return items[0]
    rest = at_most_one(items)
    return And((disjoin(items), *(rest.args if isinstance(rest, And) else (rest,))))


# --- printing -----------------------------------------------------------------------------------
_TEXT = {
    "not": "~",
    "and": " & ",
    "or": " | ",
    "imp": " -> ",
    "iff": " <-> ",
    "true": "true",
    "false": "false",
}
_LATEX = {
    "not": r"\lnot ",
    "and": r" \land ",
    "or": r" \lor ",
    "imp": r" \rightarrow ",
    "iff": r" \leftrightarrow ",
    "true": r"\top",
    "false": r"\bot",
}


def show(formula: Formula) -> str:
    """The formula in the notation (``parse`` reads it back)."""
    return _print(formula, _TEXT, str)


def latex(formula: Formula) -> str:
    r"""The formula for LaTeX math mode: ``\mathit{CMR}(2,4) \rightarrow \mathit{Empty}(2,5)``."""
    return _print(formula, _LATEX, _latex_atom)


def _latex_atom(name: str) -> str:
    family, paren, rest = name.partition("(")
    return rf"\mathit{{{family}}}" + paren + rest


def _print(f: Formula, words: dict[str, str], atom: Callable[[str], str]) -> str:
    def sub(child: Formula, parent: type, right: bool = False) -> str:
        text = _print(child, words, atom)
        rank, mine = _RANK[type(child)], _RANK[parent]
        # ``->`` groups to the right: its left side needs parentheses when it is an implication too
        if (
            rank < mine
            or (rank == mine and parent in (Implies, Iff) and not right)
            or (rank == mine and parent is Iff)
        ):
            return f"({text})"
        return text

    if isinstance(f, Atom):
        return atom(f.name)
    if isinstance(f, Const):
        return words["true" if f.value else "false"]
    if isinstance(f, Not):
        return words["not"] + sub(f.arg, Not)
    if isinstance(f, And | Or):
        word = words["and" if isinstance(f, And) else "or"]
        return word.join(sub(a, type(f)) for a in f.args)
    word = words["imp" if isinstance(f, Implies) else "iff"]
    return sub(f.left, type(f)) + word + sub(f.right, type(f), right=True)


# --- reading ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(<->|->|[~&|(),:+-])|([0-9]+)|([A-Za-z_][A-Za-z0-9_]*))")
_KEYWORDS = {"forall", "exists", "true", "false"}


@dataclass(frozen=True)
class _Tok:
    kind: str  # "op", "num", "name", "end"
    text: str
    column: int  # 1-based


@dataclass(frozen=True)
class Expr:
    """A cell coordinate: a number, or a bound variable (or its negation) plus a number (``j+1``,
    ``5-j``)."""

    variable: str | None
    offset: int
    column: int
    sign: int = 1

    def value(self, env: dict[str, int]) -> int:
        return self.offset + (self.sign * env[self.variable] if self.variable else 0)


@dataclass(frozen=True)
class Prop:
    """A proposition as written, its arguments possibly holding bound variables."""

    family: str
    args: tuple[Expr, ...]
    column: int


@dataclass(frozen=True)
class Quant:
    kind: str  # "forall" or "exists"
    variables: tuple[str, ...]
    body: Tree
    column: int


@dataclass(frozen=True)
class Op:
    """A connective over written formulas: ``not``, ``and``, ``or``, ``imp``, ``iff``."""

    kind: str
    args: tuple[Tree, ...]


Tree = Union[Prop, Quant, Op, Const]  # noqa: UP007 - a runtime alias


@dataclass(frozen=True)
class Claim:
    """A parsed formula and its text (errors found when grounding quote it, named ``what``)."""

    text: str
    tree: Tree
    what: str = "claim"

    def error(self, message: str, column: int) -> ParseError:
        return ParseError(message, source=f"{self.what} {quoted(self.text, 80)}", column=column)


#: the most nested connectives and parentheses a claim may have
MAX_DEPTH = 100
#: the most propositions a claim may have once its quantifiers are expanded
MAX_GROUND = 1_000_000


def parse(text: str, what: str = "claim") -> Claim:
    """Read a formula of the notation; a :class:`ParseError` names the column of the first mistake,
    calling the text ``what`` (a claim, a likelihood formula, ...)."""
    parser = _Parser(text, what)
    return Claim(text, parser.formula_to_end(), what)


class _Parser:
    def __init__(self, text: str, what: str = "claim") -> None:
        self.text = text
        self.what = what
        self.tokens = list(self._lex(text))
        self.pos = 0
        self.depth = 0
        self.bound: list[str] = []

    def _lex(self, text: str) -> Iterator[_Tok]:
        at = 0
        while True:
            m = _TOKEN.match(text, at)
            if m is None or m.end() == at:
                rest = len(text) - len(text[at:].lstrip())
                if rest >= len(text):
                    yield _Tok("end", "", len(text) + 1)
                    return
                raise self.error(f"unexpected character {text[rest]!r}", rest + 1)
            kind = "op" if m.group(1) else "num" if m.group(2) else "name"
            yield _Tok(kind, m.group(m.lastindex or 0), m.start(m.lastindex or 0) + 1)
            at = m.end()

    def error(self, message: str, column: int) -> ParseError:
        return ParseError(message, source=f"{self.what} {quoted(self.text, 80)}", column=column)

    @property
    def tok(self) -> _Tok:
        return self.tokens[self.pos]

    def take(self) -> _Tok:
        tok = self.tok
        self.pos += 1
        return tok

    def expect(self, text: str) -> _Tok:
        if self.tok.text != text or self.tok.kind == "end":
            raise self.error(f"expected {text!r}, found {self._found()}", self.tok.column)
        return self.take()

    def _found(self) -> str:
        return "the end" if self.tok.kind == "end" else repr(self.tok.text)

    def formula_to_end(self) -> Tree:
        tree = self.formula()
        if self.tok.kind != "end":
            raise self.error(f"expected a connective or the end, found {self._found()}", self.tok.column)
        return tree

    def formula(self) -> Tree:
        if self.tok.text in ("forall", "exists") and self.tok.kind == "name":
            with self.nested():
                return self.quantifier()
        left = self.implication()
        if self.tok.text == "<->":
            self.take()
            with self.nested():  # a <-> b <-> c nests to the right
                return Op("iff", (left, self.formula()))
        return left

    def quantifier(self) -> Tree:
        start = self.take()
        names: list[str] = []
        while True:
            tok = self.take()
            if tok.kind != "name" or tok.text in _KEYWORDS:
                raise self.error(f"expected a variable name after {start.text}", tok.column)
            if tok.text in names or tok.text in self.bound:
                raise self.error(f"variable {tok.text} is bound twice", tok.column)
            names.append(tok.text)
            if self.tok.text != ",":
                break
            self.take()
        self.expect(":")
        self.bound.extend(names)
        body = self.formula()
        del self.bound[-len(names) :]
        return Quant(start.text, tuple(names), body, start.column)

    def implication(self) -> Tree:
        left = self.disjunction()
        if self.tok.text == "->":
            self.take()
            with self.nested():  # a -> b -> c nests to the right
                right = self.formula() if self.tok.text in ("forall", "exists") else self.implication()
            return Op("imp", (left, right))
        return left

    def disjunction(self) -> Tree:
        items = [self.conjunction()]
        while self.tok.text == "|":
            self.take()
            items.append(self.conjunction())
        return items[0] if len(items) == 1 else Op("or", tuple(items))

    def conjunction(self) -> Tree:
        items = [self.unary()]
        while self.tok.text == "&":
            self.take()
            items.append(self.unary())
        return items[0] if len(items) == 1 else Op("and", tuple(items))

    @contextlib.contextmanager
    def nested(self) -> Iterator[None]:
        """One level deeper, as a reader counts them (a parenthesis, a ``~``, a quantifier, the right
        side of ``->``): a limit keeps the recursive descent far from Python's own."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"the claim nests deeper than {MAX_DEPTH} levels", self.tok.column)
        try:
            yield
        finally:
            self.depth -= 1

    def unary(self) -> Tree:
        tok = self.tok
        if tok.text == "~":
            self.take()
            with self.nested():
                return Op("not", (self.unary(),))
        if tok.text == "(":
            self.take()
            with self.nested():
                inner = self.formula()
            self.expect(")")
            return inner
        if tok.kind == "name" and tok.text in ("forall", "exists"):
            with self.nested():
                return self.quantifier()
        if tok.kind == "name" and tok.text in ("true", "false"):
            self.take()
            return Const(tok.text == "true")
        if tok.kind != "name":
            raise self.error(f"expected a proposition, found {self._found()}", tok.column)
        if tok.text in self.bound:
            raise self.error(f"{tok.text} is a variable, not a proposition", tok.column)
        self.take()
        args: list[Expr] = []
        if self.tok.text == "(":
            self.take()
            args.append(self.coordinate())
            while self.tok.text == ",":
                self.take()
                args.append(self.coordinate())
            self.expect(")")
        return Prop(tok.text, tuple(args), tok.column)

    def coordinate(self) -> Expr:
        """A sum of numbers and at most one bound variable, each after ``+`` or ``-`` (the first
        may have no sign): ``j+1``, ``5-j``, ``2``."""
        first = self.tok
        variable, sign_of_var, offset = None, 1, 0
        while True:
            sign = 1
            if self.tok.text in ("+", "-"):
                sign = 1 if self.take().text == "+" else -1
            tok = self.take()
            if tok.kind == "num":
                if len(tok.text) > MAX_DIGITS:  # no board has such a cell; int() of it may refuse too
                    many = f"the number {tok.text[:12]}... has more than {MAX_DIGITS} digits"
                    raise self.error(many, tok.column)
                offset += sign * int(tok.text)
            elif tok.kind == "name" and tok.text in self.bound:
                if variable is not None:
                    raise self.error("a coordinate holds at most one variable", tok.column)
                variable, sign_of_var = tok.text, sign
            elif tok.kind == "name" and tok.text not in _KEYWORDS:
                raise self.error(f"unknown variable {tok.text}: bind it with forall or exists", tok.column)
            else:
                raise self.error(f"expected a number or a variable, found {self._found_tok(tok)}", tok.column)
            if self.tok.text not in ("+", "-"):
                return Expr(variable, offset, first.column, sign_of_var)

    @staticmethod
    def _found_tok(tok: _Tok) -> str:
        return "the end" if tok.kind == "end" else repr(tok.text)


# --- grounding ----------------------------------------------------------------------------------
def _arity(family: str) -> tuple[int, ...]:
    if family.startswith("Slide"):
        return (3,)
    if family == "Won":
        return (0, 2)
    return (2,)


def check_expansion(claim: Claim, width: int, height: int) -> None:
    """Refuse, before anything is built, a claim whose quantifiers expand past :data:`MAX_GROUND`
    propositions on a ``width`` x ``height`` grid (a :class:`ParseError` at the innermost quantifier
    whose expansion alone is too large)."""
    size, column = _Grid(claim, width, height).expansion(claim.tree)
    if size > MAX_GROUND:
        message = f"the formula expands to {size:,} propositions, more than {MAX_GROUND:,}"
        raise claim.error(message, column or 1)


def ground(claim: Claim, rules: RulesEncoding) -> Formula:
    """The claim over ``rules``' propositions: quantifiers expanded over the grid, arithmetic done."""
    check_expansion(claim, rules.shape.width, rules.shape.height)
    return _Grounder(claim, rules).ground(claim.tree, {})


class _Grid:
    """What a claim's quantifiers range over on a grid: enough to size the claim without the rules."""

    def __init__(self, claim: Claim, width: int, height: int) -> None:
        self.claim = claim
        self.width, self.height = width, height

    def expansion(self, tree: Tree) -> tuple[int, int]:
        """How many propositions grounding ``tree`` visits (quantifiers' ranges do not depend on the
        values bound around them, so this is exact), and the column of the innermost quantifier
        whose expansion alone is past :data:`MAX_GROUND` (0 if none is)."""
        if isinstance(tree, Const):
            return 0, 0
        if isinstance(tree, Prop):
            return 1, 0
        if isinstance(tree, Quant):
            body, column = self.expansion(tree.body)
            size = body * math.prod(len(self.range_of(tree, v)) for v in tree.variables)
            return size, column or (tree.column if size > MAX_GROUND else 0)
        parts = [self.expansion(a) for a in tree.args]
        return sum(size for size, _ in parts), next((c for _, c in parts if c), 0)

    def range_of(self, q: Quant, variable: str) -> range:
        uses = [(k, a.sign) for p in _props(q.body) for k, a in enumerate(p.args) if a.variable == variable]
        places = {k for k, sign in uses if sign > 0} or {k for k, _ in uses}
        if not places:
            raise self.claim.error(f"variable {variable} is bound but never used", q.column)
        spans = {0: range(self.height), 1: range(self.width), 2: range(2, max(self.width, self.height))}
        out = spans[min(places)]
        for k in places:
            out = range(max(out.start, spans[k].start), min(out.stop, spans[k].stop))
        return out


class _Grounder(_Grid):
    def __init__(self, claim: Claim, rules: RulesEncoding) -> None:
        super().__init__(claim, rules.shape.width, rules.shape.height)
        self.rules = rules
        self.families = set(rules.classes)

    def ground(self, tree: Tree, env: dict[str, int]) -> Formula:
        if isinstance(tree, Const):
            return tree
        if isinstance(tree, Prop):
            return self.prop(tree, env)
        if isinstance(tree, Quant):
            return self.quant(tree, env)
        args = [self.ground(a, env) for a in tree.args]
        return _fold(tree.kind, args)

    def prop(self, p: Prop, env: dict[str, int]) -> Formula:
        rules = self.rules
        lacking = p.family not in self.families
        if lacking and not rules.is_a_family(p.family):
            known = ", ".join(sorted(self.families))
            raise self.claim.error(f"unknown proposition {p.family}: the propositions are {known}", p.column)
        if len(p.args) not in _arity(p.family):
            want = " or ".join(str(n) for n in _arity(p.family))
            raise self.claim.error(f"{p.family} takes {want} arguments, not {len(p.args)}", p.column)
        if lacking:  # a family of the encoding that this shape has none of (no V3 vehicle, no slide up)
            if any(a.variable for a in p.args):
                return Const(False)  # under a quantifier, as any proposition the rules do not have
            known = ", ".join(sorted(self.families))
            raise self.claim.error(f"the rules of this shape have no {p.family}: they have {known}", p.column)
        values = [a.value(env) for a in p.args]
        name = f"{p.family}({','.join(str(v) for v in values)})" if values else p.family
        if name in rules.ids:
            return Atom(name)
        if any(a.variable for a in p.args):
            return Const(False)  # under a quantifier: the rules have no such proposition
        if len(values) >= 2 and not (0 <= values[0] < self.height and 0 <= values[1] < self.width):
            where = f"{self.width}x{self.height}"
            raise self.claim.error(f"cell ({values[0]},{values[1]}) is off the {where} board", p.column)
        raise self.claim.error(f"the rules have no proposition {name}", p.column)

    def quant(self, q: Quant, env: dict[str, int]) -> Formula:
        ranges = [self.range_of(q, v) for v in q.variables]
        parts = []
        for values in itertools.product(*ranges):
            parts.append(self.ground(q.body, {**env, **dict(zip(q.variables, values, strict=True))}))
        return _fold("and" if q.kind == "forall" else "or", parts)


def _props(tree: Tree) -> Iterator[Prop]:
    if isinstance(tree, Prop):
        yield tree
    elif isinstance(tree, Quant):
        yield from _props(tree.body)
    elif isinstance(tree, Op):
        for a in tree.args:
            yield from _props(a)


def _fold(kind: str, args: list[Formula]) -> Formula:
    """Build a connective, folding the constants away (a quantifier's false instances)."""
    if kind == "not":
        (a,) = args
        return Const(not a.value) if isinstance(a, Const) else Not(a)
    if kind in ("and", "or"):
        unit = kind == "and"
        kept: list[Formula] = []
        for a in args:
            if isinstance(a, Const):
                if a.value != unit:
                    return Const(not unit)
                continue
            kept.extend(a.args if isinstance(a, And if unit else Or) else (a,))
        if not kept:
            return Const(unit)
        return kept[0] if len(kept) == 1 else (And if unit else Or)(tuple(kept))
    left, right = args
    if kind == "imp":
        if isinstance(left, Const):
            return right if left.value else Const(True)
        if isinstance(right, Const):
            return Const(True) if right.value else _fold("not", [left])
        return Implies(left, right)
    if isinstance(left, Const):
        return right if left.value else _fold("not", [right])
    if isinstance(right, Const):
        return left if right.value else _fold("not", [left])
    return Iff(left, right)


def parse_ground(text: str, rules: RulesEncoding, what: str = "claim") -> Formula:
    """``ground(parse(text, what), rules)``."""
    return ground(parse(text, what), rules)


def read(value: object, rules: RulesEncoding, what: str = "claim", name: str = "claim") -> Formula:
    """``value`` as a ground formula over ``rules``: notation text is parsed and grounded
    (:func:`parse_ground`); a :data:`Formula` built by hand is checked to be made of connectives and of
    propositions the rules have, and its constants are folded away.  Anything else is an
    :class:`ArgumentTypeError` naming the parameter ``name``.

    >>> from rushhour.logic.encoding import Shape, encoding_for
    >>> rules = encoding_for(Shape.generic(4, 4))
    >>> read(And((Atom("Won"), Const(True))), rules)
    Atom(name='Won')
    >>> read(Atom("Won(9,9)"), rules)
    Traceback (most recent call last):
    ...
    rushhour.errors.ParseError: claim: the rules have no proposition 'Won(9,9)'
    """
    if isinstance(value, str):
        return parse_ground(value, rules, what)
    try:
        return _checked(value, rules, what, name)
    except RecursionError:
        raise ParseError("the formula nests deeper than Python can follow", source=what) from None


def _checked(f: object, rules: RulesEncoding, what: str, name: str) -> Formula:
    """A hand-built formula, checked node by node and folded (:func:`read`)."""
    if isinstance(f, Atom):
        if not isinstance(f.name, str) or f.name not in rules.ids:
            raise ParseError(f"the rules have no proposition {f.name!r}", source=what)
        return f
    if isinstance(f, Const) and isinstance(f.value, bool):
        return f
    if isinstance(f, Not):
        return _fold("not", [_checked(f.arg, rules, what, name)])
    if isinstance(f, And | Or) and isinstance(f.args, tuple | list):
        return _fold("and" if isinstance(f, And) else "or", [_checked(a, rules, what, name) for a in f.args])
    if isinstance(f, Implies | Iff):
        args = [_checked(f.left, rules, what, name), _checked(f.right, rules, what, name)]
        return _fold("imp" if isinstance(f, Implies) else "iff", args)
    raise ArgumentTypeError(
        f"{{{name}}} must be a formula (notation text, or made of Atom, Const, Not, And, Or, Implies, "
        f"Iff), not {type(f).__name__}"
    )


# --- meaning ------------------------------------------------------------------------------------
def atoms(formula: Formula) -> Iterator[str]:
    """The proposition names of a formula, left to right (repeats included)."""
    if isinstance(formula, Atom):
        yield formula.name
    elif isinstance(formula, Not):
        yield from atoms(formula.arg)
    elif isinstance(formula, And | Or):
        for a in formula.args:
            yield from atoms(a)
    elif isinstance(formula, Implies | Iff):
        yield from atoms(formula.left)
        yield from atoms(formula.right)


def evaluate(formula: Formula, true: set[str] | frozenset[str]) -> bool:
    """The formula's value when exactly the propositions named in ``true`` are true."""
    if isinstance(formula, Atom):
        return formula.name in true
    if isinstance(formula, Const):
        return formula.value
    if isinstance(formula, Not):
        return not evaluate(formula.arg, true)
    if isinstance(formula, And):
        return all(evaluate(a, true) for a in formula.args)
    if isinstance(formula, Or):
        return any(evaluate(a, true) for a in formula.args)
    if isinstance(formula, Implies):
        return not evaluate(formula.left, true) or evaluate(formula.right, true)
    return evaluate(formula.left, true) == evaluate(formula.right, true)


def reasons(formula: Formula, true: set[str] | frozenset[str], value: bool) -> list[str]:
    """Literals (``CMR(2,4)``, ``~Empty(2,5)``) that give ``formula`` the value ``value`` under
    ``true``: for a false conjunction its first false member, for a false implication its true left
    side and false right side, and so on."""
    if isinstance(formula, Atom):
        return [formula.name if value else f"~{formula.name}"]
    if isinstance(formula, Const):
        return []
    if isinstance(formula, Not):
        return reasons(formula.arg, true, not value)
    if isinstance(formula, And | Or):
        decisive = value != isinstance(formula, And)  # one member decides: a false And, a true Or
        if decisive:
            first = next(a for a in formula.args if evaluate(a, true) == value)
            return reasons(first, true, value)
        return [x for a in formula.args for x in reasons(a, true, value)]
    if isinstance(formula, Implies):
        left, right = evaluate(formula.left, true), evaluate(formula.right, true)
        if not value:
            return reasons(formula.left, true, True) + reasons(formula.right, true, False)
        return reasons(formula.left, true, False) if not left else reasons(formula.right, true, right)
    return reasons(formula.left, true, evaluate(formula.left, true)) + reasons(
        formula.right, true, evaluate(formula.right, true)
    )


def to_clauses(formula: Formula, ids: dict[str, int], first_free: int) -> tuple[list[list[int]], int]:
    """Tseitin's transformation: clauses defining a literal equivalent to ``formula`` and that literal.
    New variables are numbered from ``first_free``; constants must have been folded away."""
    out: list[list[int]] = []
    counter = itertools.count(first_free)
    memo: dict[Formula, int] = {}  # equal subformulas share one literal

    def lit(f: Formula) -> int:
        found = memo.get(f)
        if found is None:
            memo[f] = found = _define(f, lit, counter, out, ids)
        return found

    return out, lit(formula)


def _define(
    f: Formula,
    sub: Callable[[Formula], int],
    counter: Iterator[int],
    out: list[list[int]],
    ids: dict[str, int],
) -> int:
    if isinstance(f, Atom):
        return ids[f.name]
    if isinstance(f, Const):
        raise ValueError("constants are folded before the transformation")
    if isinstance(f, Not):
        return -sub(f.arg)
    if isinstance(f, Implies):
        return _define(Or((Not(f.left), f.right)), sub, counter, out, ids)
    v = next(counter)
    if isinstance(f, Iff):
        a, b = sub(f.left), sub(f.right)
        out.extend([[-v, -a, b], [-v, a, -b], [v, a, b], [v, -a, -b]])
        return v
    kids = [sub(a) for a in f.args]
    if isinstance(f, And):
        out.extend([-v, k] for k in kids)
        out.append([v, *(-k for k in kids)])
    else:
        out.extend([v, -k] for k in kids)
        out.append([-v, *kids])
    return v
