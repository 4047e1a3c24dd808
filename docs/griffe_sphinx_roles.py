"""A Griffe extension for the API pages: the docstrings cite code with Sphinx roles
(``:func:`~zerosum.x.f```), which mkdocstrings, rendering Markdown, would show as literal text.
Rewriting them here, at documentation time, leaves the 500-odd citations in 80-odd source files
untouched (one place to change, nothing to keep in step) and renders each as inline code:
``:func:`~a.b.f``` becomes ```f()```, ``:class:`a.B``` becomes ```a.B```."""

from __future__ import annotations

import re

from griffe import Extension

ROLE = re.compile(r":(?:py:)?(func|meth|class|mod|attr|data|obj|exc|const|type):`(~?)([^`<]+?)(?:\s*<([^`>]+)>)?`")


def _plain(match: re.Match) -> str:
    role, tilde, target, explicit = match.groups()
    if explicit:  # :func:`title <target>`
        return f"`{target.strip()}`"
    name = target.strip().split(".")[-1] if tilde else target.strip()
    if role in ("func", "meth") and not name.endswith(")"):
        name += "()"
    return f"`{name}`"


def convert(text: str) -> str:
    """The docstring with every Sphinx role written as Markdown inline code."""
    return ROLE.sub(_plain, text)


def _walk(obj) -> None:
    if obj.docstring is not None:
        obj.docstring.value = convert(obj.docstring.value)
    for member in obj.members.values():
        if not member.is_alias:  # an alias's target is converted where it is defined
            _walk(member)


class SphinxRoles(Extension):
    # on the whole package once loaded: the per-object hook misses the root module's docstring
    def on_package(self, *, pkg, **kwargs) -> None:
        _walk(pkg)
