"""Sphinx extension: diagrams of a model rendered where the documentation is built.

    # conf.py
    extensions = ["tracer.sphinx"]          # add "myst_parser" for Markdown pages

    .. attnscope-diagram:: zoo:softmax_axis_query
       :depth: 2
       :caption: The softmax normalizes over the queries.

    ```{attnscope-diagram} models/attention.py:build
    :attention:
    ```

Committed SVGs go stale as the model changes; this directive traces the TARGET while the
docs build and places the SVG inline in the HTML, findings flagged in red. Each diagram is
cached by the hash of the target's source file (and the options and attnscope's version),
and the page depends on that file, so editing the model re-renders exactly the diagrams
that show it. A target that cannot be traced or drawn is a Sphinx warning at the
directive's file and line (`sphinx-build -W` fails on it), never a traceback.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import os
import re
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

THEMES = ("light", "dark")
DEVICES = ("cpu", "meta")
SVG_START = re.compile(r"<svg\b")
SVG_SIZE = re.compile(r'<svg width="[^"]*" height="[^"]*"')
SVG_ID = re.compile(r'\bid="([^"]+)"')


class attnscope_diagram(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes in lower case
    """A rendered diagram: `svg` (inline markup), `alt`, `caption`."""


def _attnscope_version() -> str:
    try:
        return version("attnscope")
    except PackageNotFoundError:
        return "unknown"


def _zoo_file(name: str) -> str | None:
    from .targets import zoo_entries

    entry = zoo_entries().get(name)
    return getattr(getattr(entry, "module", None), "__file__", None)


def split_file(target: str) -> tuple[str, str] | None:
    """(file, ":NAME" or "") of a target naming a file (`x.py:build`, `run.attntrace`); None otherwise."""
    if target.startswith("zoo:"):
        return None
    if target.endswith(".attntrace"):
        return target, ""
    where, colon, name = target.rpartition(":")
    if colon and (where.endswith(".py") or "/" in where or os.sep in where):
        return where, f":{name}"
    return None


def source_file(target: str) -> str | None:
    """The file whose content decides the diagram: the target's script, module or recording."""
    try:
        if target.startswith("zoo:"):
            return _zoo_file(target[4:])
        named_file = split_file(target)
        if named_file is not None:
            return os.path.abspath(named_file[0]) if os.path.isfile(named_file[0]) else None
        spec = importlib.util.find_spec(target.rpartition(":")[0])
        return spec.origin if spec is not None and spec.origin and os.path.isfile(spec.origin) else None
    except Exception:  # noqa: BLE001 - no source to hash: the diagram is simply not cached
        return None


def inline_svg(svg: str, alt: str, prefix: str) -> str:
    """Graphviz's SVG as an HTML element: no XML prolog, scales to the page, ids unique per diagram,
    described for screen readers by `alt`."""
    start = SVG_START.search(svg)
    svg = svg[start.start():] if start else svg
    svg = SVG_SIZE.sub(f'<svg role="img" aria-label="{html.escape(alt, quote=True)}" '
                       'style="max-width:100%;height:auto"', svg, count=1)
    svg = SVG_ID.sub(lambda match: f'id="{prefix}-{match.group(1)}"', svg)
    svg = svg.replace('href="#', f'href="#{prefix}-').replace("url(#", f"url(#{prefix}-")
    # Graphviz wraps nodes with tooltips in <a>: the page theme must not underline their text.
    return svg.replace("<a ", '<a style="text-decoration:none" ')


def render(target: str, options: dict[str, Any]) -> dict[str, str]:
    """Trace `target` and draw it: {"svg": ..., "summary": "2 findings: softmax-axis, scale-factor"}."""
    from .commands.common import trace_target
    from .render import diagram
    from .targets import isolated

    with isolated():
        _, trace = trace_target(target, device=options.get("device"))
    drawn = diagram(trace, depth=options.get("depth"), focus=options.get("focus"),
                    attention=bool(options.get("attention")), theme=options.get("theme") or "light")
    codes = sorted({finding.code for finding in trace.findings})
    count = len(trace.findings)
    summary = f"{count} finding{'s' if count != 1 else ''}: {', '.join(codes)}" if codes else "no findings"
    return {"svg": drawn.svg(), "summary": summary}


class DiagramDirective(SphinxDirective):
    """`.. attnscope-diagram:: TARGET` with :depth: :attention: :focus: :theme: :device: :caption: :alt:."""

    required_arguments = 1
    has_content = False
    option_spec = {
        "depth": directives.nonnegative_int,
        "attention": directives.flag,
        "focus": directives.unchanged_required,
        "theme": lambda value: directives.choice(value, THEMES),
        "device": lambda value: directives.choice(value, DEVICES),
        "caption": directives.unchanged,
        "alt": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        given = self.arguments[0]
        target = given
        named_file = split_file(given)
        if named_file is not None:  # relative to this page, or to the source folder with a leading /
            target = str(self.env.relfn2path(named_file[0], self.env.docname)[1]) + named_file[1]
        settings = {name: self.options.get(name) for name in ("depth", "focus", "theme", "device")}
        settings["attention"] = "attention" in self.options
        source = source_file(target)
        if source is not None:
            self.env.note_dependency(source)
        try:
            made = self._cached(target, settings, source)
        except Exception as problem:  # noqa: BLE001 - every failure is one warning at the directive
            message = " ".join(str(problem).split()) or type(problem).__name__
            message = message.removeprefix(f"{target}: ").removeprefix(f"{given}: ")  # named once, below
            logger.warning("attnscope-diagram %s: %s", given, message, location=self.get_location(),
                           type="attnscope", subtype="diagram")
            return []
        alt = self.options.get("alt") or f"attnscope diagram of {given} ({made['summary']})"
        prefix = "attnscope-" + hashlib.sha256(f"{self.env.docname}:{self.lineno}".encode()).hexdigest()[:10]
        node = attnscope_diagram(svg=inline_svg(made["svg"], alt, prefix), alt=alt,
                                 caption=self.options.get("caption") or "")
        self.set_source_info(node)
        return [node]

    def _cached(self, target: str, settings: dict[str, Any], source: str | None) -> dict[str, str]:
        """The rendered diagram from the cache when the source is unchanged, else rendered and stored."""
        if source is None:
            return render(target, settings)
        with open(source, "rb") as handle:
            content = hashlib.sha256(handle.read()).hexdigest()
        key = hashlib.sha256(json.dumps([_attnscope_version(), target, settings, content], sort_keys=True)
                             .encode()).hexdigest()
        folder = self.config.attnscope_diagram_cache or os.path.join(self.env.doctreedir, "attnscope-diagrams")
        path = os.path.join(folder, f"{key}.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        made = render(target, settings)
        os.makedirs(folder, exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(made, handle)
        os.replace(path + ".tmp", path)  # whole or absent, also under `sphinx-build -j`
        return made


def visit_html(translator: Any, node: attnscope_diagram) -> None:
    caption = f"<figcaption>{html.escape(node['caption'])}</figcaption>" if node["caption"] else ""
    translator.body.append(f'<figure class="attnscope-diagram">{node["svg"]}{caption}</figure>\n')
    raise nodes.SkipNode


def visit_other(translator: Any, node: attnscope_diagram) -> None:
    """Inline SVG is for HTML; other builders (LaTeX, text, man) leave the diagram out."""
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("attnscope_diagram_cache", None, "env", [str, type(None)])
    app.add_node(attnscope_diagram, html=(visit_html, None), latex=(visit_other, None), text=(visit_other, None),
                 man=(visit_other, None), texinfo=(visit_other, None))
    app.add_directive("attnscope-diagram", DiagramDirective)
    return {"version": _attnscope_version(), "parallel_read_safe": True, "parallel_write_safe": True}
