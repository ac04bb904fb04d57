# SPDX-License-Identifier: MIT
"""Stand-in for conan.tools.files: copy and load, performed for real."""
import fnmatch
import os
import shutil

from conan import record


def load(conanfile, path, encoding="utf-8"):
    record("load", path)
    with open(path, encoding=encoding) as f:
        return f.read()


def copy(conanfile, pattern, src, dst, keep_path=True, excludes=None):
    """Copies files under `src` whose path relative to `src` matches `pattern` (fnmatch, as
    Conan does: "*" crosses directories) into `dst`; returns the copied destination paths."""
    record("copy", pattern, src, dst)
    copied = []
    for root, _dirs, files in os.walk(src):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), src)
            if not fnmatch.fnmatch(rel, pattern):
                continue
            if excludes and any(fnmatch.fnmatch(rel, e) for e in excludes):
                continue
            target = os.path.join(dst, rel if keep_path else name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(os.path.join(root, name), target)
            copied.append(target)
    return copied
