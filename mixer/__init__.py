"""Lets `import mixer` work from the repository root.

The package lives in python/mixer; this shim makes it the `mixer` package
(its submodules load from there), so no PYTHONPATH is needed here.
"""

import os as _os

__path__ = [_os.path.join(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))),
                          "python", "mixer")]
with open(_os.path.join(__path__[0], "__init__.py")) as _f:
    exec(compile(_f.read(), _f.name, "exec"))
