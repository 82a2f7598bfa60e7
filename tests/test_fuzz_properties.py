"""Properties of every reader under any text: it loads, or it raises :class:`RushHourError` (never
another exception); and whatever loads comes back the same through every writer that can hold it.

``bench/fuzz.py`` runs the same checks on hundreds of thousands of mutated inputs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rushhour.board import Board, Move
from rushhour.errors import MoveError, RushHourError
from rushhour.formats import Entry, parse_text
from rushhour.play.game import Game
from tests.fuzzing import FORMATS, NASTY, mutate, round_trips, seeds
from tests.strategies import boards

SEEDS = seeds()
ALPHABET = st.sampled_from(list('ABCXox.#:,{}[]"-+ 0123456789\n\r\tHVhv=²') + NASTY)
TEXTS = st.lists(ALPHABET, max_size=60).map("".join)


def load(text: str, fmt: str | None) -> list[Entry] | None:
    """The entries of ``text``, or None when the reader refused it with a RushHourError."""
    try:
        return parse_text(text, fmt=fmt)
    except RushHourError:
        return None


@pytest.mark.parametrize("fmt", [*FORMATS, None])
@given(text=TEXTS)
@settings(max_examples=300)
def test_any_text_loads_or_is_refused(fmt: str | None, text: str) -> None:
    entries = load(text, fmt)
    for entry in entries or []:
        round_trips(entry)


@pytest.mark.parametrize("fmt", FORMATS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=300)
def test_damaged_boards_load_or_are_refused(fmt: str, seed: int) -> None:
    rng = random.Random(seed)
    text = mutate(rng, rng.choice(SEEDS[fmt]))
    for detected in (fmt, None):
        for entry in load(text, detected) or []:
            round_trips(entry)


@given(board=boards(), name=st.text(max_size=12), moves=st.text(max_size=6))
@settings(max_examples=80)
def test_any_board_and_meta_round_trip_or_are_refused_by_the_writer(
    board: Board, name: str, moves: str
) -> None:
    round_trips(Entry(board, {"name": name, "moves": moves, "cluster": "12"}))


@given(text=st.text(max_size=30) | st.sampled_from(["A+2", "AA-13", "car9+1", "A+²", "B-" + "9" * 30]))
@settings(max_examples=300)
def test_any_move_text_parses_or_raises_move_error(text: str) -> None:
    try:
        move = Move.parse(text)
    except MoveError:
        return
    assert Move.parse(str(move)) == move


@given(seed=st.integers(0, 2**32 - 1), text=st.text(max_size=20))
@settings(max_examples=200)
def test_the_game_command_reader_takes_any_line(seed: int, text: str) -> None:
    rng = random.Random(seed)
    entry = parse_text(rng.choice(SEEDS["grid"]))[0]
    game = Game(entry.board, legal_moves=lambda b: b.legal_moves("moves"), solver=lambda b: None)
    for line in (text, mutate(rng, "A+1"), mutate(rng, "3")):
        try:
            move = game.resolve(line)
        except RushHourError:
            continue
        assert move.vehicle in entry.board.names
