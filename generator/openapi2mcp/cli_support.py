"""What every command of the command line ends with: its exit codes, one-line errors.

Exit codes: 0 success; 1 drift or a figure below its minimum; 2 unusable input; 3 an internal
error, printed as one line naming where it happened (never a traceback).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import NoReturn, ParamSpec

import click

from .generate import InternalError, internal_error

P = ParamSpec("P")
EXIT_DRIFT = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3


def no_traceback(command: Callable[P, None]) -> Callable[P, None]:
    """A command that ends any unexpected exception with one line and exit code 3."""

    @functools.wraps(command)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            command(*args, **kwargs)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_DRIFT)
        except InternalError as exc:
            _internal(exc)
        except Exception as exc:  # whatever it is, the user gets one line, not a traceback
            _internal(internal_error(exc))

    return guarded


def fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _internal(exc: InternalError) -> NoReturn:
    click.echo(str(exc), err=True)
    sys.exit(EXIT_INTERNAL)
