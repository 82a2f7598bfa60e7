"""``completion``: shell completion scripts for bash, zsh and fish, written from the argument parser.

One walk over the parser (:func:`commands`) says what each subcommand takes: its options, which of them
take a value, the value's fixed choices (engines, metrics, formats...) or kind (a file, a folder, a
built-in pack), and its positional arguments (a BOARD completes to files and pack names).  Each shell's
script is written from that, so a new option completes as soon as it is added to the parser.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rushhour.cli.core import examples
from rushhour.levels import all_packs

SHELLS = ("bash", "zsh", "fish")

#: what an option's value or a positional argument completes to, by its metavar
FILE, DIR, PACK, BOARD, NOTHING = "file", "dir", "pack", "board", "nothing"
_KINDS = {"FILE": FILE, "FILE|DIR": FILE, "DIR": DIR, "PACK": PACK, "BOARD": BOARD}


@dataclass(frozen=True)
class Value:
    """What a value completes to: ``kind`` (file, dir, pack, board or nothing) or fixed ``choices``."""

    kind: str = NOTHING
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    value: Value | None  # None: a flag that takes no value


@dataclass
class Command:
    name: str
    help: str
    options: list[Option] = field(default_factory=list)
    positionals: list[tuple[str, Value, bool]] = field(default_factory=list)  # metavar, value, optional


def _value(action: argparse.Action) -> Value:
    if action.choices is not None:
        return Value(choices=tuple(str(c) for c in action.choices))
    metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    kind = _KINDS.get(metavar, NOTHING)
    if kind == FILE and re.search(r"\bPACK\b", action.help or ""):
        kind = BOARD  # a FILE "(or a PACK)", as solve --batch takes: files and pack names
    return Value(kind=kind)


def _shorten(text: str, most: int = 70) -> str:
    """``text`` cut to ``most`` characters at most, at a word boundary, with ``...`` for the cut."""
    if len(text) <= most:
        return text
    cut = text[: most - 3]
    space = cut.rfind(" ")
    if space > most // 2:  # a word boundary not too far back; else the (one long) word is cut
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "..."


def _help(action: argparse.Action | None) -> str:
    text = (action.help or "") if action is not None else ""
    return "" if text == argparse.SUPPRESS else " ".join(text.split())


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _options(parser: argparse.ArgumentParser) -> list[Option]:
    out = []
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        value = None if action.nargs == 0 else _value(action)
        out.append(Option(tuple(action.option_strings), _help(action), value))
    return out


def commands(parser: argparse.ArgumentParser) -> tuple[list[Option], list[Command]]:
    """The top level's options, and every subcommand with what it takes."""
    sub = _subcommands(parser)
    found: list[Command] = []
    if sub is not None:
        helps = {a.dest: _help(a) for a in sub._choices_actions}
        for name, child in sub.choices.items():
            command = Command(name, helps.get(name, ""), _options(child))
            for action in child._actions:
                if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                    metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
                    command.positionals.append((metavar, _value(action), action.nargs in ("?", "*")))
            found.append(command)
    return _options(parser), found


# --- bash --------------------------------------------------------------------------------------------
def _bash_words(words: Sequence[str]) -> str:
    return " ".join(words)


def _sh_quote(word: str) -> str:
    """``word`` as one single-quoted word of bash or zsh (a quote inside as ``'\''``)."""
    return "'" + word.replace("'", "'\\''") + "'"


def _bash_value(value: Value, packs: Sequence[str], prog: str) -> str:
    """Shell lines that fill COMPREPLY for a value of this kind."""
    add = f"_{prog}_add"
    if value.choices:
        return f'{add} < <(compgen -W "{_bash_words(value.choices)}" -- "$cur")'
    if value.kind == FILE:
        return f'{add} < <(compgen -f -- "$cur")'
    if value.kind == DIR:
        return f'{add} < <(compgen -d -- "$cur")'
    if value.kind == PACK:
        return f"_{prog}_packs"
    if value.kind == BOARD:
        return f'_{prog}_packs; {add} < <(compgen -f -- "$cur")'
    return ":"


#: takes the quoting off the word being completed (``it\'``, ``'a b``, ``"a b"``) to match it against
#: the pack names, which readline then quotes as it inserts one (``complete -o filenames``)
_BASH_UNQUOTE = r"""_PROG_unquote() {
    # REPLY: the text of the word $1 as the shell reads it, its quotes and backslashes taken off
    # (the word being completed may still be in an open quote: it is closed at the end)
    local in=$1 c q="" i
    REPLY=""
    for ((i = 0; i < ${#in}; i++)); do
        c="${in:i:1}"
        if [[ "$q" == "'" ]]; then
            if [[ "$c" == "'" ]]; then q=""; else REPLY+="$c"; fi
        elif [[ "$c" == "\\" ]]; then
            i=$((i + 1))
            if [[ "$q" == '"' ]]; then
                case "${in:i:1}" in '$' | '`' | '"' | "\\") ;; *) REPLY+="\\" ;; esac
            fi
            REPLY+="${in:i:1}"
        elif [[ -n "$q" ]]; then
            if [[ "$c" == "$q" ]]; then q=""; else REPLY+="$c"; fi
        elif [[ "$c" == "'" || "$c" == '"' ]]; then q="$c"
        else REPLY+="$c"; fi
    done
    return 0
}"""


def _bash_packs(packs: Sequence[str], prog: str) -> list[str]:
    """The functions that offer the pack names: each name one word of an array, whatever it holds
    (spaces, quotes...), matched against the word being completed with its quoting taken off."""
    return [
        *_BASH_UNQUOTE.replace("_PROG_", f"_{prog}_").splitlines(),
        f"_{prog}_packs() {{",
        "    # the packs (built-in, then yours when this script was made) that begin with the word",
        "    local REPLY pack word=$cur i=$cword head=''",
        f"    local -a names=({' '.join(_sh_quote(p) for p in packs)})",
        "    # bash splits a word at a colon (COMP_WORDBREAKS): my:pack comes as my, :, pack; the name is",
        "    # matched whole, and what is offered is what follows the last colon, the piece bash replaces",
        '    while (( i > 1 )) && [[ "${COMP_WORDS[i]-}" == ":" || "${COMP_WORDS[i-1]-}" == ":" ]]; do',
        '        i=$((i - 1)); word="${COMP_WORDS[i]-}$word"',
        "    done",
        f'    _{prog}_unquote "$word"',
        '    (( i < cword )) && head="${REPLY%"${REPLY##*:}"}"',
        '    for pack in ${names[@]+"${names[@]}"}; do',
        '        if [[ "$pack" == "$REPLY"* ]]; then COMPREPLY+=("${pack#"$head"}"); fi',
        "    done",
        "    return 0",
        "}",
    ]


def bash_script(parser: argparse.ArgumentParser, packs: Sequence[str]) -> str:
    top, subs = commands(parser)
    prog = parser.prog
    lines = [
        f"# bash completion for {prog}: source <({prog} completion bash)",
        f"_{prog}_add() {{",
        "    local line",
        '    while IFS= read -r line; do COMPREPLY+=("$line"); done',
        "}",
        f"_{prog}_nth() {{",
        "    # which positional argument the cursor is at (from 0, in n): the words after the command",
        "    # word at $1 that are neither options nor the values of the options named after it",
        '    local at=$1 i word skip="" after="" valued start=$cword',
        '    shift; valued=" $* "',
        "    n=0",
        "    # a word bash split at its colons (classic:3 comes as classic, :, 3) counts once",
        "    while (( start > at + 1 )) &&",
        '        [[ "${COMP_WORDS[start]-}" == ":" || "${COMP_WORDS[start-1]-}" == ":" ]]; do',
        "        start=$((start - 1))",
        "    done",
        "    for ((i = at + 1; i < start; i++)); do",
        '        word="${COMP_WORDS[i]-}"',
        '        if [[ "$word" == ":" || "${COMP_WORDS[i-1]-}" == ":" ]]; then continue',
        '        elif [[ -n "$after" ]]; then n=$((n + 1))',
        '        elif [[ -n "$skip" ]]; then skip=""; [[ "$word" == "=" ]] && skip=1',
        '        elif [[ "$word" == "--" ]]; then after=1',
        '        elif [[ "$word" == "=" || "$valued" == *" $word "* ]]; then skip=1',
        '        elif [[ "$word" != -* ]]; then n=$((n + 1)); fi',
        "    done",
        "}",
        *_bash_packs(packs, prog),
        f"_{prog}() {{",
        '    local cur prev cmd at=0 n i word ended="" cword=${COMP_CWORD:-0}',
        "    COMPREPLY=()",
        "    # every word read with a default: safe under set -u, with no words or a cursor past them",
        '    cur="${COMP_WORDS[cword]-}"',
        '    prev=""',
        '    (( cword > 0 )) && prev="${COMP_WORDS[cword-1]-}"',
        "    # --option=value: bash splits it at the = (--engine, =, as), and readline completes the text",
        "    # after the =: the option is the word before it, the value the word after it (if any)",
        '    if [[ "$cur" == "=" ]]; then cur=""',
        '    elif [[ "$prev" == "=" ]] && (( cword > 1 )); then prev="${COMP_WORDS[cword-2]-}"; fi',
        '    cmd=""',
        "    for ((i = 1; i < cword; i++)); do",
        '        word="${COMP_WORDS[i]-}"',
        '        if [[ "$word" == "--" && -n "$cmd" ]]; then ended=1',  # after --, no more options
        '        elif [[ -z "$cmd" && -n "$word" && "$word" != -* && "$word" != "=" ]]; then',
        '            cmd="$word"; at=$i',
        "        fi",
        "    done",
        '    case "$cmd" in',
        '        "")',
        f'            _{prog}_add < <(compgen -W "{_bash_words([c.name for c in subs])} '
        f'{_bash_words([f for o in top for f in o.flags])}" -- "$cur")',
        "            ;;",
    ]
    for command in subs:
        lines.append(f"        {command.name})")
        valued = [o for o in command.options if o.value is not None]
        if valued:
            lines.append('            case "$prev" in')
            for option in valued:
                assert option.value is not None
                action = _bash_value(option.value, packs, prog)
                lines.append(f"                {'|'.join(option.flags)}) {action}; return 0 ;;")
            lines.append("            esac")
        flags = _bash_words([f for o in command.options for f in o.flags])
        lines.append('            if [[ "$cur" == -* && -z "$ended" ]]; then')
        lines.append(f'                _{prog}_add < <(compgen -W "{flags}" -- "$cur")')
        if command.positionals:
            lines.append("            else")
            valued_flags = _bash_words([f for o in valued for f in o.flags])
            lines.append(f"                _{prog}_nth $at {valued_flags}")
            lines.append('                case "$n" in')
            for k, (_, value, _) in enumerate(command.positionals):
                lines.append(f"                    {k}) {_bash_value(value, packs, prog)} ;;")
            lines.append("                esac")
        lines.append("            fi")
        lines.append("            ;;")
    lines += [
        f'        *) _{prog}_add < <(compgen -f -- "$cur") ;;',
        "    esac",
        "    return 0",
        "}",
        f"complete -o filenames -F _{prog} {prog}",
    ]
    return "\n".join(lines) + "\n"


# --- zsh ---------------------------------------------------------------------------------------------
def _zsh_text(text: str) -> str:
    """A description for an _arguments spec (``--flag[...]``) or a _describe entry (``name:...``),
    shortened at a word boundary, then escaped: a backslash before each backslash, bracket and colon
    (so a cut never leaves a lone backslash).  The spec is then quoted for the shell (:func:`_sh_quote`),
    which keeps apostrophes."""
    return re.sub(r"([\\\[\]:])", r"\\\1", _shorten(text))


def _zsh_action(value: Value, prog: str) -> str:
    if value.choices:
        return "(" + " ".join(value.choices) + ")"
    return {FILE: "_files", DIR: "_files -/", PACK: f"_{prog}_packs", BOARD: f"_{prog}_boards"}.get(
        value.kind, " "
    )


def _zsh_specs(options: Sequence[Option], prog: str) -> list[str]:
    specs = []
    for option in options:
        exclusive = f"({' '.join(option.flags)})" if len(option.flags) > 1 else ""
        for flag in option.flags:
            spec = f"{exclusive}{flag}[{_zsh_text(option.help)}]"
            if option.value is not None:
                metavar = option.flags[-1].lstrip("-").upper()
                spec += f":{metavar}:{_zsh_action(option.value, prog)}"
            specs.append(_sh_quote(spec))
    return specs


def zsh_script(parser: argparse.ArgumentParser, packs: Sequence[str]) -> str:
    top, subs = commands(parser)
    prog = parser.prog
    lines = [
        f"#compdef {prog}",
        f"# zsh completion for {prog}: source <({prog} completion zsh) after compinit,",
        f"# or save it as _{prog} in a folder of $fpath",
        f"_{prog}_packs() {{",
        "    # the packs: built-in, then yours when this script was made (compadd quotes each as it goes in)",
        "    local -a expl names",
        f"    names=({' '.join(_sh_quote(p) for p in packs)})",
        '    _wanted packs expl pack compadd "$@" -a names',
        "}",
        f"_{prog}_boards() {{",
        f"    _alternative 'packs:pack:_{prog}_packs' 'files:board file:_files'",
        "}",
        f"_{prog}() {{",
        "    local curcontext=${curcontext-} state line",
        "    local -a commands",
        "    commands=(",
    ]
    lines += [f"        {_sh_quote(c.name + ':' + _zsh_text(c.help))}" for c in subs]
    lines += [
        "    )",
        "    _arguments -C \\",
        *(f"        {spec} \\" for spec in _zsh_specs(top, prog)),
        "        '1:command:->command' \\",
        "        '*::argument:->argument'",
        "    case ${state-} in",
        f"        command) _describe -t commands '{prog} command' commands ;;",
        "        argument)",
        "            case ${line[1]-} in",
    ]
    for command in subs:
        specs = _zsh_specs(command.options, prog)
        for k, (metavar, value, optional) in enumerate(command.positionals, 1):
            specs.append(_sh_quote(f"{k}:{':' if optional else ''}{metavar}:{_zsh_action(value, prog)}"))
        lines.append(f"                {command.name})")
        lines.append("                    _arguments \\")
        lines += [f"                        {spec} \\" for spec in specs[:-1]]
        lines.append(f"                        {specs[-1]}" if specs else "                        ''")
        lines.append("                    ;;")
    lines += [
        "            esac",
        "            ;;",
        "    esac",
        "}",
        "if [[ ${zsh_eval_context[-1]-} == loadautofunc ]]; then",
        f'    _{prog} "$@"',
        "else",
        f"    compdef _{prog} {prog}",
        "fi",
    ]
    return "\n".join(lines) + "\n"


# --- fish --------------------------------------------------------------------------------------------
def _fish_quote(text: str) -> str:
    """``text`` as one single-quoted fish word (``\'`` and ``\\`` inside)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_text(text: str) -> str:
    """A description: shortened at a word boundary, as one fish word."""
    return _fish_quote(_shorten(text))


def _fish_list(words: Sequence[str]) -> str:
    """The argument of ``complete -a``: fish splits it into words as it splits a command line, so each
    word that needs it is quoted in it (a pack ``a b`` stays one word), and the whole once more."""
    inner = (w if re.fullmatch(r"[A-Za-z0-9_.+-]+", w) else _fish_quote(w) for w in words)
    return _fish_quote(" ".join(inner))


def _fish_flags(option: Option) -> str:
    parts = []
    for flag in option.flags:
        if flag.startswith("--"):
            parts.append(f"-l {flag[2:]}")
        else:
            parts.append(f"-s {flag[1:]}")
    return " ".join(parts)


def _fish_value(value: Value, packs: Sequence[str], option: bool = False, label: str = "") -> str:
    """The ``complete`` arguments for a value of this kind: an ``option``'s (``-r``: it takes one)
    or a positional argument's.  Each word offered is described by ``label`` (``--engine``, ``pack``)
    after a tab, where it would else take the description of the line (the option's whole help)."""

    def offered(words: Sequence[str], what: str) -> str:
        return _fish_list([f"{w}\t{what}" if what else w for w in words])

    if value.choices:
        return f"-x -a {offered(value.choices, label)}"
    if value.kind == FILE:
        return "-r -F"
    if value.kind == DIR:
        return "-x -a '(__fish_complete_directories)'"
    if value.kind == PACK:
        return f"-x -a {offered(packs, 'pack')}"
    if value.kind == BOARD:  # files too
        return f"{'-r ' if option else ''}-F -a {offered(packs, 'pack')}"
    return "-x"


def fish_script(parser: argparse.ArgumentParser, packs: Sequence[str]) -> str:
    top, subs = commands(parser)
    prog = parser.prog
    c = f"complete -c {prog}"
    using = f"__{prog}_using"
    valued_top = [f for o in top if o.value is not None for f in o.flags]
    lines = [
        f"# fish completion for {prog}: {prog} completion fish | source",
        f"function {using}",
        "    # true when the command word of the line (its first argument that is neither an option nor",
        "    # an option's value) is $argv[1]; with no argument, true while there is no command word yet",
        "    set -l words (commandline -opc)",
        "    set -e words[1]",
        "    set -l skip 0",
        "    for word in $words",
        "        if test $skip -eq 1",
        "            set skip 0",
    ]
    if valued_top:
        lines += [f"        else if contains -- $word {' '.join(valued_top)}", "            set skip 1"]
    lines += [
        "        else if not string match -q -- '-*' $word",
        '            if test (count $argv) -gt 0; and test "$word" = "$argv[1]"',
        "                return 0",
        "            end",
        "            return 1",
        "        end",
        "    end",
        "    test (count $argv) -eq 0",
        "end",
        f"{c} -f",
    ]
    for option in top:
        lines.append(f"{c} -n {using} {_fish_flags(option)} -d {_fish_text(option.help)}")
    for command in subs:
        lines.append(f"{c} -n {using} -a {command.name} -d {_fish_text(command.help)}")
    for command in subs:
        when = f"-n {_fish_quote(f'{using} {command.name}')}"
        for option in command.options:
            takes = ""
            if option.value is not None:
                takes = " " + _fish_value(option.value, packs, option=True, label=option.flags[-1])
            lines.append(f"{c} {when} {_fish_flags(option)}{takes} -d {_fish_text(option.help)}")
        for metavar, value, _ in command.positionals:
            if value.kind != NOTHING or value.choices:
                offered = _fish_value(value, packs, label=metavar)
                lines.append(f"{c} {when} {offered} -d {_fish_text(metavar)}")
                break
    return "\n".join(lines) + "\n"


WRITERS: dict[str, Callable[[argparse.ArgumentParser, Sequence[str]], str]] = {
    "bash": bash_script,
    "zsh": zsh_script,
    "fish": fish_script,
}


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``shell`` for the whole ``rushhour`` command (``parser``: the one
    :func:`rushhour.cli.build_parser` makes, which hands itself to the command as ``args.parser``)."""
    return WRITERS[shell](parser, [p.name for p in all_packs()])


def register(sub: Any) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description=(
            "Print the completion script of SHELL: subcommands, options, the fixed values of options "
            "(engines, metrics, formats, packs) and files for BOARD complete with Tab.  See docs/cli.md."
        ),
        epilog=examples(
            "source <(rushhour completion bash)            # in ~/.bashrc",
            "rushhour completion zsh > ~/.zfunc/_rushhour  # a folder of $fpath, before compinit",
            "rushhour completion fish > ~/.config/fish/completions/rushhour.fish",
        ),
    )
    p.add_argument("shell", metavar="SHELL", choices=SHELLS, help="bash, zsh or fish")
    p.set_defaults(func=cmd_completion)


def cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell, args.parser))
    return 0
