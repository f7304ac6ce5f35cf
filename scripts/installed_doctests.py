"""Run the doctests of the installed conquian package, against the modules as imported.

The README's test command collects the doctests of ``src/conquian`` with pytest's
``--doctest-modules``, which imports the source files.  A compiled build
(``CONQUIAN_COMPILE=1``) has to be tested as installed, where a compiled module is an
extension module whose docstrings doctest cannot find.  So the examples are read from each
module's .py file (installed beside the extension module) and run in the namespace of the
module that ``import`` gives: the compiled one where there is one.  The option flags are
pytest's (ELLIPSIS); ``__main__`` modules are skipped, as pytest skips them.

    python scripts/installed_doctests.py      # from outside the source tree's src/
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.machinery
import sys
from pathlib import Path


def docstrings(tree: ast.Module, prefix: str) -> list[tuple[str, str, int]]:
    """(qualified name, docstring, line) of the module, its classes and functions."""
    found: list[tuple[str, str, int]] = []
    text = ast.get_docstring(tree, clean=False)
    if text is not None:
        found.append((prefix, text, 0))

    def visit(body: list[ast.stmt], name: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                qualified = f"{name}.{node.name}"
                text = ast.get_docstring(node, clean=False)
                if text is not None:
                    found.append((qualified, text, node.body[0].lineno - 1))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qualified)

    visit(tree.body, prefix)
    return found


def main() -> int:
    import conquian

    root = Path(conquian.__file__).parent
    compiled_suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    modules = compiled = docs = 0
    for path in sorted(root.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        module = importlib.import_module(name)
        tests = [
            parser.get_doctest(text, dict(vars(module)), qualified, str(path), line)
            for qualified, text, line in docstrings(ast.parse(path.read_text("utf-8")), name)
        ]
        tests = [test for test in tests if test.examples]
        if not tests:
            continue
        modules += 1
        docs += len(tests)
        compiled += (module.__file__ or "").endswith(compiled_suffixes)
        for test in tests:
            runner.run(test)
    result = runner.summarize(verbose=False)
    print(
        f"doctests of the installed package ({root}): {result.attempted} examples in {docs} docstrings of "
        f"{modules} modules, {compiled} of them compiled; {result.failed} failed"
    )
    return 1 if result.failed or not result.attempted else 0


if __name__ == "__main__":
    sys.exit(main())
