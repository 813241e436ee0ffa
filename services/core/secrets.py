"""Secrets this process was given (database password, admin token): never written to a log or an output line.

URLs are shown through ``eventstore.urls.redacted``; this is the net under it. The CLI registers each secret
as it reads it, and every log record and every line the CLI writes passes through ``scrub``, so a
driver's message that quotes a DSN or a token cannot leak it either.
"""

from __future__ import annotations

MASK = "***"
_known: set[str] = set()
_longest_first: tuple[str, ...] = ()


def hide(secret: str | None) -> None:
    """Remember a secret so that ``scrub`` masks it (empty values are ignored)."""
    global _longest_first
    if secret:
        _known.add(secret)
        _longest_first = tuple(sorted(_known, key=len, reverse=True))


def hide_url_password(url: str) -> None:
    """Remember the password of a database URL, raw and as it appears percent-encoded in the URL."""
    from eventstore.urls import parse  # here: the CLI's every start imports this module, the store rarely

    try:
        password = parse(url).password
    except Exception:  # an unparsable URL is refused later, with its password masked
        return
    if password:
        hide(str(password))
        hide(url.split("://", 1)[-1].rsplit("@", 1)[0].split(":", 1)[-1])


def scrub(text: str) -> str:
    """``text`` with every known secret replaced by ``***`` (longest first: one may contain another)."""
    for secret in _longest_first:
        if secret in text:
            text = text.replace(secret, MASK)
    return text
