"""One small exception tree: every user error the package raises is a CpModelsError."""

from __future__ import annotations


class CpModelsError(Exception):
    """Base of every error cpmodels reports to a user (never a bug in cpmodels itself)."""


class PuzzleError(CpModelsError, ValueError):
    """A puzzle that is malformed as a whole: a repeated given, a cell in two cages, a bad box."""


class ParseError(CpModelsError, ValueError):
    """Text that cannot be read, located by file, line and column (all 1-based)."""

    def __init__(
        self,
        message: str,
        *,
        path: str = "<input>",
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        self.message, self.path, self.line, self.column, self.text = message, path, line, column, text
        super().__init__(self._render())

    def _render(self) -> str:
        """The message as `path:line:col: message`, followed by the line and a caret under the column."""
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        out = f"{where}: {self.message}"
        if self.text is not None and self.column is not None:
            shown, caret = _window(self.text.rstrip("\n"), self.column - 1)
            out += f"\n    {shown}\n    {' ' * caret}^"
        return out


def _window(text: str, index: int, width: int = 72) -> tuple[str, int]:
    """At most `width` characters of `text` around `index`, and where `index` falls in them."""
    if len(text) <= width:
        return text, index
    start = max(0, min(index - width // 2, len(text) - width))
    left = "..." if start else ""
    right = "..." if start + width < len(text) else ""
    return left + text[start : start + width] + right, index - start + len(left)


class UnknownBackendError(CpModelsError, KeyError):
    """A backend name that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0])


class BackendUnavailableError(CpModelsError):
    """A backend that cannot take this puzzle (a missing package, an unsupported feature or size)."""


class UsageError(CpModelsError):
    """Options the whole command cannot run with, found at its first puzzle: said once, and the command stops."""


class SearchTimeoutError(CpModelsError):
    """A search that reached its time limit before it could answer the question asked."""


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM arrived: stop the whole run, keep what finished, exit with `code` (128 + the signal).

    A BaseException, like KeyboardInterrupt, so that code catching Exception (one engine's failure in a
    cross-check) lets it through.
    """

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code
