"""Builds the compiled parts of the package; everything else is in pyproject.toml.

setuptools turns the ``.pyx`` sources into C with Cython (a build requirement). The
extensions are optional: where no C compiler is at hand the install still succeeds, and the
pure-Python code they speed up serves instead.

A build that fails removes the extension's earlier output (in ``build/`` or, for an editable
install, in ``src/``): otherwise the module compiled from older sources would be packed or
imported as if it were current.
"""

from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExtWithoutStale(build_ext):
    def build_extension(self, ext: Any) -> None:
        # An up-to-date module is skipped inside build_extension, so a failure here means the
        # sources changed and the module already there is stale.
        try:
            super().build_extension(ext)
        except Exception:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            raise


EXTENSIONS = [
    Extension("israeli_whist.core.fastplay", ["src/israeli_whist/core/fastplay.pyx"], optional=True),
    # fastplayout weighs deals by the bids with fastestimate's estimate
    # (src/israeli_whist/bots/judgement/fastestimate.pxd, a floor below the search).
    Extension("israeli_whist.bots.search.fastplayout", ["src/israeli_whist/bots/search/fastplayout.pyx"],
              include_dirs=["src"], extra_compile_args=["-O3"], optional=True),
    Extension("israeli_whist.bots.judgement.fastestimate", ["src/israeli_whist/bots/judgement/fastestimate.pyx"],
              extra_compile_args=["-O3"], optional=True),
    # The two searches share src/israeli_whist/bots/search/cardbits.pxd: "src" is where Cython finds it.
    Extension("israeli_whist.bots.search.dd.solver", ["src/israeli_whist/bots/search/dd/solver.pyx"],
              include_dirs=["src"], extra_compile_args=["-O3"], optional=True),
    # Both compile src/israeli_whist/bots/search/individual_search.pxi: the search, and its helper thread.
    Extension("israeli_whist.bots.search.individual_solver", ["src/israeli_whist/bots/search/individual_solver.pyx"],
              include_dirs=["src"], extra_compile_args=["-O3"], optional=True),
    Extension("israeli_whist.bots.search.individual_helper", ["src/israeli_whist/bots/search/individual_helper.pyx"],
              include_dirs=["src"], extra_compile_args=["-O3"], optional=True),
]

if __name__ == "__main__":  # the build runs this file as a script; tests import it for the class
    setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildExtWithoutStale})
