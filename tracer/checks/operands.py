"""The user's own names for an op's operands, as written in the source line that made the call.

`q @ q` is about `q` and `q`, not about "q" and "k": a message that names operands reads them
from the expression (`a @ b`, `torch.matmul(a, b)`, `a.matmul(b)`), and when the line holds no
single such expression it numbers them rather than guess.
"""

from __future__ import annotations

import ast

from ..evidence.sourcefile import parsed

OPERATORS: dict[str, type[ast.operator]] = {
    "matmul": ast.MatMult, "add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "div": ast.Div,
}
SIMPLE = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)  # need no parentheses before `.transpose(...)`


def operand_names(filename: str, line: int, op: str, count: int) -> list[str]:
    """The source text of each of the `count` tensor operands of the one `op` call on `line`, or
    `input 0`, `input 1`, ... when the line does not say which expression it was."""
    written = _written(filename, line, op, count)
    return written if written is not None else [f"input {position}" for position in range(count)]


def parenthesized(text: str) -> str:
    """`text` ready to take a method call: `k`, `self.k(x)` as they are, `(k * 2)` in parentheses."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return f"({text})"
    return text if isinstance(node, SIMPLE) else f"({text})"


def _written(filename: str, line: int, op: str, count: int) -> list[str] | None:
    source = parsed(filename) if filename else None
    if source is None:
        return None
    key = ("operands", line, op, count)
    if key not in source.memo:
        found = [operands for node in ast.walk(source.tree) if _spans(node, line)
                 and (operands := _operands(node, op, count)) is not None]
        source.memo[key] = [ast.unparse(node) for node in found[0]] if len(found) == 1 else None
    return source.memo[key]


def call_arguments(filename: str, line: int, op: str) -> list[str] | None:
    """The positional arguments, as written, of the one `.op(...)` method call on `line` (a view's
    sizes: `B, 2, T, C // 2`), or None when the line holds no single one."""
    source = parsed(filename) if filename else None
    if source is None:
        return None
    calls = [node for node in ast.walk(source.tree) if _spans(node, line) and isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == op]
    return [ast.unparse(argument) for argument in calls[0].args] if len(calls) == 1 else None


def _spans(node: ast.AST, line: int) -> bool:
    return isinstance(node, ast.expr) and node.lineno <= line <= (node.end_lineno or node.lineno)


def _operands(node: ast.AST, op: str, count: int) -> list[ast.expr] | None:
    """The operand expressions of `node` if it is a call of `op` on `count` tensors: an operator,
    a function (`torch.matmul(a, b)`) or a method (`a.matmul(b)`); constants (an einsum's
    equation) are no operands."""
    operator = OPERATORS.get(op)
    if operator is not None and isinstance(node, ast.BinOp) and isinstance(node.op, operator):
        return [node.left, node.right] if count == 2 else None
    if not isinstance(node, ast.Call):
        return None
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else function.id if isinstance(function, ast.Name) else ""
    if name != op:
        return None
    arguments = [argument for argument in node.args if not isinstance(argument, ast.Constant)]
    if len(arguments) == count:
        return arguments
    if isinstance(function, ast.Attribute) and len(arguments) == count - 1:
        return [function.value, *arguments]
    return None
