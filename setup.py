"""Builds the compiled parts of the package; everything else is in pyproject.toml.

setuptools turns the ``.pyx`` sources into C with Cython (a build requirement). The
extensions are optional: where no C compiler is at hand the install still succeeds, and the
pure-Python code they speed up serves instead.
"""

from setuptools import Extension, setup

EXTENSIONS = [
    Extension("whist.core.fastplay", ["src/whist/core/fastplay.pyx"], optional=True),
    Extension("whist.bots.fastplayout", ["src/whist/bots/fastplayout.pyx"], extra_compile_args=["-O3"],
              optional=True),
    Extension("whist.bots.dd.solver", ["src/whist/bots/dd/solver.pyx"], extra_compile_args=["-O3"], optional=True),
    Extension("whist.bots.individual_solver", ["src/whist/bots/individual_solver.pyx"], extra_compile_args=["-O3"],
              optional=True),
]

setup(ext_modules=EXTENSIONS)
