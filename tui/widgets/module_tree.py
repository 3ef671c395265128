"""ModuleTree: the model's modules as a tree, with call counts and finding markers.

It follows the current op (the screen binds `step`): the module running that op is
expanded into view and highlighted. Selecting a module posts `ModulePicked` with the first
op of that module's next call, so the screen can jump there.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..session import Session

OPEN_DEPTH = 2  # levels expanded at start: enough to see the layers of a stack


class ModuleTree(Tree[str]):
    """Module paths, each labelled `name Type ×calls ●findings`."""

    step: reactive[int] = reactive(0, repaint=False)
    """Index of the current op; its module is highlighted."""

    class ModulePicked(Message):
        """The user chose a module: jump to `event`, the first op of its next call."""

        def __init__(self, path: str, event: int) -> None:
            self.path, self.event = path, event
            super().__init__()

    def __init__(self, session: Session, **options: object) -> None:
        root = session.modules.get("")
        super().__init__(self._label("", root.type_name if root else session.recording.root_type,
                                     root.calls if root else 1, root.findings if root else 0), data="", **options)
        self.session = session
        self._by_path: dict[str, TreeNode[str]] = {"": self.root}
        self.guide_depth = 2

    @staticmethod
    def _label(path: str, type_name: str, calls: int, findings: int) -> Text:
        label = Text.assemble((path.rsplit(".", 1)[-1], "bold"), " ", (type_name, "cyan")) if path else Text(type_name, "bold cyan")
        if calls > 1:
            label.append(f" ×{calls}", "dim")
        if findings:
            label.append(f" ●{findings}", "bold red")
        return label

    def on_mount(self) -> None:
        for path, node in self.session.modules.items():
            if path == "":
                continue
            parent = self._by_path.get(node.parent or "", self.root)
            depth = path.count(".") + 1
            self._by_path[path] = parent.add(self._label(path, node.type_name, node.calls, node.findings),
                                           data=path, expand=depth < OPEN_DEPTH)
        for path, node in self._by_path.items():
            if not node.children:
                node.allow_expand = False
        self.root.expand()

    def watch_step(self, step: int) -> None:
        if not self.session.events:
            return
        node = self._by_path.get(self.session.events[self.session.clamp(step)].module)
        if node is None or node is self.cursor_node:
            return
        parent = node.parent
        while parent is not None:
            if not parent.is_expanded:  # expand() rebuilds the tree's lines even when open
                parent.expand()
            parent = parent.parent
        self.call_after_refresh(self.move_cursor, node)

    def on_tree_node_selected(self, message: Tree.NodeSelected[str]) -> None:
        message.stop()
        path = message.node.data or ""
        calls = [c for c in self.session.calls if c.path == path]
        if not calls:
            return
        later = [c for c in calls if c.first_event > self.step]
        first = (later or calls)[0].first_event
        self.post_message(self.ModulePicked(path, self.session.clamp(first)))
