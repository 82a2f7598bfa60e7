"""Completion of the player's packs whatever their names hold (a space, a quote...), of packs for
``solve --batch``, zsh descriptions kept whole (apostrophes, cut at a word), and fish conditions that
look at the command word itself.

Bash runs the script for real.  The zsh and fish scripts are read (each pack name must come out of the
shell's own quoting as one word), and where zsh or fish is installed they run in it too: fish's
``complete -C``, and zsh's own Tab in a pseudo-terminal."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from rushhour.board import Board
from rushhour.cli import build_parser
from rushhour.cli.completion import _fish_quote, _zsh_text, commands, script
from rushhour.levels import add_to_user_pack, user_packs_dir
from tests.cli import complete_in_bash

#: names the packs folder accepts (rushhour levels lists them, rushhour show "it's:1" plays them)
ODD_NAMES = ("it's", "a b", 'q"x', "d$x", "st*r", "b\\s", "x`y")

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def make_packs(folder: Path, monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> tuple[str, ...]:
    """The player's packs ``plain`` and ``names`` (files named so in the packs folder)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / "data"))
    add_to_user_pack("plain", Board.from_text("AA.B/...B/CC../...."))
    packs = user_packs_dir()
    text = (packs / "plain.txt").read_text()
    for name in names:
        (packs / f"{name}.txt").write_text(text)
    return names


@pytest.fixture
def odd_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    return make_packs(tmp_path, monkeypatch, ODD_NAMES)


# --- 1. pack names with spaces and quotes -------------------------------------------------------------
@needs_bash
def test_bash_offers_a_pack_with_an_apostrophe_or_a_space_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe's packs: levels i<TAB> offered a pack "its mine" that is not there, levels a<TAB>
    offered a and b."""
    make_packs(tmp_path, monkeypatch, ("it's", "a b"))
    assert complete_in_bash(tmp_path, ["rushhour", "levels", "i"]) == ["intermediate", "it's"]
    assert complete_in_bash(tmp_path, ["rushhour", "levels", "a"]) == ["a b", "advanced"]
    assert complete_in_bash(tmp_path, ["rushhour", "show", "a"]) == ["a b", "advanced"]


@needs_bash
def test_bash_offers_every_pack_under_its_real_name(tmp_path: Path, odd_packs: tuple[str, ...]) -> None:
    work = tmp_path / "work"
    work.mkdir()
    assert complete_in_bash(work, ["rushhour", "levels", "i"]) == ["intermediate", "it's"]
    assert complete_in_bash(work, ["rushhour", "levels", "a"]) == ["a b", "advanced"]
    assert complete_in_bash(work, ["rushhour", "levels", "pl"]) == ["plain"]
    for name in odd_packs:
        assert name in complete_in_bash(work, ["rushhour", "levels", ""]), name
        assert name in complete_in_bash(work, ["rushhour", "show", name[0]]), name
    # the word at the cursor as typed: escaped, or in quotes (closed or not)
    assert complete_in_bash(work, ["rushhour", "levels", "it\\'"]) == ["it's"]
    assert complete_in_bash(work, ["rushhour", "levels", "a\\ "]) == ["a b"]
    assert complete_in_bash(work, ["rushhour", "levels", "'a "]) == ["a b"]
    assert complete_in_bash(work, ["rushhour", "levels", '"a b"']) == ["a b"]
    assert complete_in_bash(work, ["rushhour", "levels", "'it'\\''"]) == ["it's"]
    assert complete_in_bash(work, ["rushhour", "show", 'q\\"']) == ['q"x']
    assert complete_in_bash(work, ["rushhour", "show", "d$"]) == ["d$x"]  # no expansion
    assert complete_in_bash(work, ["rushhour", "show", "st*"]) == ["st*r"]  # no pattern
    assert complete_in_bash(work, ["rushhour", "show", "b\\\\"]) == ["b\\s"]
    assert complete_in_bash(work, ["rushhour", "play", "--pack", "x\\`"]) == ["x`y"]


def zsh_pack_names(text: str) -> list[str]:
    """The words of the ``names=(...)`` array of the zsh script, read as the shell reads them (zsh's
    single and double quotes follow the POSIX rules that shlex implements)."""
    [line] = [ln for ln in text.splitlines() if ln.strip().startswith("names=(")]
    assert line.endswith(")")
    return shlex.split(line.strip()[len("names=(") : -1])


def test_zsh_script_holds_every_pack_as_one_quoted_word(odd_packs: tuple[str, ...]) -> None:
    text = script("zsh", build_parser())
    # the script is balanced: bash reads zsh's quoting the same way here, and shlex agrees
    checked = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True)
    assert (checked.returncode, checked.stderr) == (0, "")
    shlex.split(text, comments=True)
    names = zsh_pack_names(text)
    assert set(odd_packs) <= set(names) and "classic" in names and "plain" in names
    # no list of names left where the shell would split it at spaces: packs come from the function
    assert "_values" not in text and "(beginner" not in text
    assert "_alternative 'packs:pack:_rushhour_packs' 'files:board file:_files'" in text


def fish_words(text: str) -> list[str]:
    """The words of a line of fish: '...' keeps everything but \\' and \\\\, "..." and bare words take a
    backslash before any character (enough for what the script holds; $ and ( are left as written)."""
    words: list[str] = []
    word: str | None = None
    i = 0
    while i < len(text):
        c = text[i]
        if c in " \t" and word is not None:
            words.append(word)
            word = None
        elif c in " \t":
            pass
        elif c == "'":
            word = word or ""
            i += 1
            while text[i] != "'":  # an IndexError: the quote is never closed
                if text[i] == "\\" and text[i + 1] in "'\\":
                    i += 1
                word += text[i]
                i += 1
        elif c == '"':
            word = word or ""
            i += 1
            while text[i] != '"':
                if text[i] == "\\":
                    i += 1
                word += text[i]
                i += 1
        elif c == "\\":
            word = (word or "") + text[i + 1]
            i += 1
        else:
            word = (word or "") + c
        i += 1
    if word is not None:
        words.append(word)
    return words


def fish_completes(text: str) -> list[list[str]]:
    return [fish_words(ln) for ln in text.splitlines() if ln.startswith("complete ")]


def option_value(words: list[str], option: str) -> str:
    return words[words.index(option) + 1]


def fish_offered(words: list[str]) -> list[str]:
    """The words a fish ``complete`` line offers (its ``-a``), each without its description (what
    follows a tab in it)."""
    return [w.split("\t")[0] for w in fish_words(option_value(words, "-a"))]


def test_fish_script_offers_every_pack_as_one_word(odd_packs: tuple[str, ...]) -> None:
    text = script("fish", build_parser())
    pack_lines = [w for w in fish_completes(text) if "-l" in w and option_value(w, "-l") == "pack"]
    assert pack_lines
    for words in pack_lines:
        # fish splits the argument of -a into words as it splits a command line
        offered = fish_offered(words)
        assert set(odd_packs) <= set(offered) and "classic" in offered and "plain" in offered
        assert "a" not in offered and "b" not in offered


# --- 2. solve --batch takes a FILE or a PACK ----------------------------------------------------------
@needs_bash
def test_bash_offers_packs_and_files_for_solve_batch(tmp_path: Path) -> None:
    (tmp_path / "clues.txt").write_text("")
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--batch", "cl"]) == ["classic", "clues.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--batch", "=", "cl"]) == ["classic", "clues.txt"]
    assert complete_in_bash(tmp_path, ["rushhour", "show", "cl"]) == ["classic", "clues.txt"]
    # a FILE that is only a file stays so
    assert complete_in_bash(tmp_path, ["rushhour", "solve", "--csv", "cl"]) == ["clues.txt"]


def test_zsh_and_fish_offer_packs_for_solve_batch() -> None:
    _, found = commands(build_parser())
    solve = {f: o for c in found if c.name == "solve" for o in c.options for f in o.flags}
    assert solve["--batch"].value is not None and solve["--batch"].value.kind == "board"
    zsh = script("zsh", build_parser())
    assert re.search(r"'--batch\[[^']*\]:BATCH:_rushhour_boards'", zsh)
    fish = script("fish", build_parser())
    [batch] = [w for w in fish_completes(fish) if "-l" in w and option_value(w, "-l") == "batch"]
    assert "-r" in batch and "-F" in batch and "classic" in fish_offered(batch)


# --- 3. zsh descriptions ------------------------------------------------------------------------------
def zsh_descriptions(text: str) -> list[tuple[str, str]]:
    """Each flag's description in the zsh script, as _arguments shows it: the spec is one shell word;
    in it the description runs to the first ] without a backslash, and a backslash keeps the next
    character."""
    found = []
    for line in text.splitlines():
        line = line.strip().removesuffix("\\").strip()
        if not line.startswith("'-") and not line.startswith("'(-"):
            continue
        [spec] = shlex.split(line)  # one word: its quotes balanced
        spec = re.sub(r"^\([^)]*\)", "", spec)  # (-h --help): the flags it excludes
        flag = spec[: spec.index("[")]
        match = re.match(r"((?:[^\\\]]|\\.)*)\]", spec[len(flag) + 1 :])
        assert match, spec
        found.append((flag, re.sub(r"\\(.)", r"\1", match.group(1))))
    return found


def shortened_from(shown: str, full: str) -> bool:
    """Whether ``shown`` is ``full``, or ``full`` cut at a word boundary with ... after it."""
    if shown == full:
        return True
    kept = shown.removesuffix("...")
    return shown.endswith("...") and len(shown) <= 70 and full.startswith(kept) and full[len(kept)] in " ,;:("


def test_zsh_descriptions_keep_apostrophes_and_whole_words() -> None:
    described = zsh_descriptions(script("zsh", build_parser()))
    assert len(described) > 100
    progress = [shown for flag, shown in described if flag == "--progress"]
    assert progress and all(p.startswith("show the search's progress") for p in progress), progress
    top, found = commands(build_parser())
    helps: dict[str, set[str]] = {}
    for option in top + [o for c in found for o in c.options]:
        for flag in option.flags:
            helps.setdefault(flag, set()).add(option.help)
    for flag, shown in described:
        assert any(shortened_from(shown, full) for full in helps[flag]), (flag, shown)


def test_zsh_text_escapes_for_arguments_rather_than_dropping() -> None:
    assert _zsh_text("it's [a]: b\\c") == "it's \\[a\\]\\: b\\\\c"
    cut = _zsh_text("word " * 30)
    assert cut.endswith("...") and "wor..." not in cut and len(cut) <= 70


# --- 4. fish conditions look at the command word --------------------------------------------------------
def fish_conditions(text: str) -> dict[str, set[str]]:
    """The -n condition of each line, by the option (-l) or value (-a) it offers."""
    found: dict[str, set[str]] = {}
    for words in fish_completes(text):
        if "-n" in words:
            key = option_value(words, "-l") if "-l" in words else option_value(words, "-a")
            found.setdefault(key, set()).add(option_value(words, "-n"))
    return found


def test_fish_conditions_name_the_command_word_not_any_word() -> None:
    text = script("fish", build_parser())
    assert "__fish_seen_subcommand_from" not in text and "__fish_use_subcommand" not in text
    conditions = fish_conditions(text)
    assert conditions["why"] == {"__rushhour_using moves"}
    assert conditions["oracle"] == {"__rushhour_using moves"}
    assert conditions["solve"] == {"__rushhour_using"}
    # the helper is defined in the script: the first word after rushhour that is not an option
    body = text[text.index("function __rushhour_using") : text.index("\nend\n") + 5]
    assert "commandline -opc" in body and "string match -q -- '-*' $word" in body
    assert 'test "$word" = "$argv[1]"' in body and "return 1" in body
    opened = sum(1 for ln in body.splitlines() if re.match(r"\s*(function|for|if|while|switch|begin)\b", ln))
    assert opened == sum(1 for ln in body.splitlines() if ln.strip() == "end")
    for words in fish_completes(text)[1:]:
        assert "-n" in words and option_value(words, "-n").startswith("__rushhour_using"), words


@needs_bash
def test_bash_completes_a_word_it_split_at_its_colons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bash splits the word at the cursor at every colon (COMP_WORDBREAKS): a pack ``my:p`` typed as
    ``my:`` reaches the script as ``my``, ``:``, ``""``.  The name is matched whole and the piece after
    the last colon offered (the piece bash replaces); and a word so split counts as one argument."""
    make_packs(tmp_path, monkeypatch, ("my:p", "my:q"))
    work = tmp_path / "work"
    work.mkdir()

    def offered(words: list[str]) -> list[str]:  # but the script's own file, which a BOARD may be
        return [w for w in complete_in_bash(work, words) if w != "rushhour.bash"]

    assert offered(["rushhour", "play", "my", ":", ""]) == ["p", "q"]
    assert offered(["rushhour", "play", "my", ":", "q"]) == ["q"]
    assert offered(["rushhour", "play", "my", ":"]) == ["p", "q"]
    assert offered(["rushhour", "play", "--pack", "=", "my", ":"]) == ["p", "q"]
    assert offered(["rushhour", "play", "m"]) == ["my:p", "my:q"]
    # prove CLAIM BOARD: a claim written with a colon is one argument, the board comes next
    assert offered(["rushhour", "prove", "forall", ":", "x", "cla"]) == ["classic"]
    assert offered(["rushhour", "prove", "x", "my", ":", ""]) == ["p", "q"]


# --- 4. the zsh and fish scripts in the shells themselves (where they are installed) ------------------
needs_fish = pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
needs_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")


def complete_in_fish(folder: Path, line: str) -> dict[str, str]:
    """What fish offers at the end of ``line`` with the script made now: each word and its
    description."""
    script_file = folder / "rushhour.fish"
    script_file.write_text(script("fish", build_parser()))
    done = subprocess.run(
        ["fish", "--no-config", "-c", f"source {_fish_quote(str(script_file))}; complete -C {_fish_quote(line)}"],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=30,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return dict((ln.split("\t") + [""])[:2] for ln in done.stdout.splitlines())


@needs_fish
def test_fish_offers_every_pack_and_describes_each_value(tmp_path: Path, odd_packs: tuple[str, ...]) -> None:
    work = tmp_path / "work"
    work.mkdir()
    offered = complete_in_fish(work, "rushhour levels ")
    assert set(odd_packs) | {"classic", "plain"} <= set(offered) and "a" not in offered
    assert all(offered[name] == "pack" for name in odd_packs)
    engines = complete_in_fish(work, "rushhour solve --engine ")
    assert engines == {e: "--engine" for e in ("portfolio", "bfs", "astar", "sat", "random", "improve")}
    # the value of an option is no command word: --metric moves is followed by solve's options
    assert "--engine" in complete_in_fish(work, "rushhour solve --metric moves --e")
    assert set(complete_in_fish(work, "rushhour convert classic:3 --to ")) == {"grid", "fogleman", "csv", "json"}


def complete_in_zsh(folder: Path, typed: str) -> str:
    """The line zsh shows after ``typed`` and a Tab, with the script made now loaded by compinit."""
    functions = folder / "zfunc"
    functions.mkdir(exist_ok=True)
    (functions / "_rushhour").write_text(script("zsh", build_parser()))
    env = {**os.environ, "TERM": "dumb", "HOME": str(folder), "PATH": os.environ["PATH"]}
    shell = pexpect.spawn("zsh", ["-f"], env=env, encoding="utf-8", dimensions=(40, 200), cwd=str(folder))
    try:
        shell.sendline(f"PS1='%% '; fpath=({functions} $fpath); autoload -U compinit; compinit -u; print READY")
        shell.expect("\r\nREADY", timeout=30)
        shell.expect("% ", timeout=30)
        shell.send(typed + "\t")
        seen = ""
        end = time.monotonic() + 30
        while time.monotonic() < end:  # the line echoed, then what the completion adds, in pieces
            try:
                seen += shell.read_nonblocking(65536, timeout=1.0)
            except pexpect.TIMEOUT:
                if seen.rstrip("\x07").endswith((" ", "% ")) or "\n" in seen.split(typed[:8], 1)[-1]:
                    break
    finally:
        shell.terminate(force=True)
    return seen


@needs_zsh
def test_zsh_completes_packs_engines_and_quoted_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_packs(tmp_path, monkeypatch, ("it's", "a b"))
    work = tmp_path / "work"
    work.mkdir()
    assert "rushhour play classic " in complete_in_zsh(work, "rushhour play cla")
    assert "rushhour levels it\\'s " in complete_in_zsh(work, "rushhour levels it")
    assert "rushhour levels a\\ b " in complete_in_zsh(work, "rushhour levels a\\ ")
    engines = complete_in_zsh(work, "rushhour solve --engine ")
    assert all(e in engines for e in ("portfolio", "bfs", "astar", "sat", "random", "improve"))
