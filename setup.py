"""Builds the compiled parts of the package; everything else is in pyproject.toml.

The extensions are optional: where no C compiler is at hand the install still succeeds
and the pure-Python code they speed up is used instead.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension("whist.core.fastplay", ["src/whist/core/fastplay.pyx"], optional=True),
]

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives={"language_level": "3"}))
