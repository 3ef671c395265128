"""Fixtures for the TUI tests: `async def` Pilot tests, the working directory, app factories.

Every app runs from the repository root, so source paths (and the snapshots that show them)
are the same on every machine.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Callable

import pytest
from tui_support import ROOT, traced

from tui.app import ScopeApp


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests (Pilot scripts) in a fresh event loop; no asyncio plugin needed."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(pyfuncitem.obj(**arguments))
    return True


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture
def scope_app() -> Callable[[str], ScopeApp]:
    """A factory: `scope_app("zoo:NAME")` is a fresh app on that model's trace."""
    return lambda spec: ScopeApp(traced(spec), spec)
