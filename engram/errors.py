"""The exceptions engram raises on purpose.

Every message starts with the file (and field) it is about, so editors and agents can jump to it.
"""


class EngramError(Exception):
    """A problem the user can fix; the CLI prints it and exits 1."""

    def lines(self) -> list[str]:
        """The message as the CLI prints it: one `engram: ...` line per line."""
        return [line if line.startswith("engram:") else f"engram: {line}"
                for line in str(self).splitlines()]


class ConfigError(EngramError):
    """A configuration file has an unknown key or a bad value."""


class WorkspaceError(EngramError):
    """The workspace folder cannot be found or read."""


class IndexWriteError(EngramError):
    """The index file is sound but cannot be written now (another process holds it too long,
    the disk is full or read-only)."""


class UnknownIdError(EngramError):
    """`load --id` named no memory that exists."""


class UnknownHostError(EngramError):
    """A hook host name is not one engram knows."""
