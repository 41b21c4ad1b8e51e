"""One style for a command line that is refused, whoever refuses it (click's parser, Typer's types or
our own checks): a single line on stderr, ``Error: <what is wrong> (see: whist play --help)``, and
exit code 2. Click's own style is two or three lines, and Typer's boxed style shows the internals of
its type checks ("Value error, 'poker' is not one of ..."), which a player has no use for.

A command line that is right but cannot run here (a missing extra, a database or a Ray cluster
that does not answer, a file that cannot be read) is one line too, ``Error: <why>``, with exit
code 1 (``cannot_run``). A file that ``whist check`` or ``whist analyze`` refuses is exit code 1
and one line too: on stderr, or with --json a JSON object on stdout (``refused_input``).

Typer 0.12 raises click's exceptions and later versions those of the click they vendor, so the
classes are taken from ``typer.BadParameter``, which is one of them in either case.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

_ERRORS = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
ClickException: type[Exception] = _ERRORS["ClickException"]
UsageError: type[Exception] = _ERRORS["UsageError"]

# Typer's type checks word their messages for programmers; what they say stays, the prefix goes.
_INTERNALS = re.compile(r"\b(?:Value error|Assertion failed), ")


def usage_line(message: str, command: str) -> str:
    """``Error: <message> (see: <command> --help)`` on one line."""
    text = " ".join(_INTERNALS.sub("", message).split()).rstrip(".")
    return f"Error: {text} (see: {command} --help)"


def usage_error(message: str, command: str) -> NoReturn:
    """Refuse the command line: one line on stderr and exit code 2, as for click's own checks."""
    typer.echo(usage_line(message, command), err=True)
    raise typer.Exit(2)


def cannot_run(message: str) -> NoReturn:
    """Stop a command that cannot run as asked: one line on stderr and exit code 1."""
    typer.echo(f"Error: {' '.join(message.split())}", err=True)
    raise typer.Exit(1)


def refused_input(command: str, message: str, as_json: bool) -> int:
    """Exit code 1 for input the command read and refused: ``whist check: <why>`` on stderr, or with
    --json ``{"error": "<why>"}`` on stdout, so that a program reading the JSON gets JSON either way
    (ASCII, as the message may quote a file name that is not valid UTF-8)."""
    if as_json:
        print(json.dumps({"error": message}))
    else:
        print(f"{command}: {message}", file=sys.stderr)
    return 1


class WhistGroup(TyperGroup):
    """The ``whist`` command group: its usage errors, and those of every command in it, as one line."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except UsageError as error:
            command = self.command_named(error, prog_name or "whist", sys.argv[1:] if args is None else args)
            typer.echo(usage_line(error.format_message(), command), err=True)  # type: ignore[attr-defined]
            sys.exit(2)
        except ClickException as error:
            typer.echo(f"Error: {error.format_message()}", err=True)  # type: ignore[attr-defined]
            sys.exit(getattr(error, "exit_code", 1))
        except typer.Abort:
            typer.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def command_named(self, error: Exception, prog_name: str, args: Sequence[str]) -> str:
        """The command whose help to point to: the error's own, or the first command word given (an
        option's value refused before the command's context exists), or else the group."""
        context = getattr(error, "ctx", None)
        path = context.command_path if context is not None else prog_name
        if " " not in path:
            named = next((word for word in args if word in self.commands), None)
            path = f"{path} {named}" if named else path
        return str(path)
