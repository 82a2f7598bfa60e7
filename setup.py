"""The compiled search (rushhour/search/_native.c) is optional: without a C compiler the install goes on
and the pure-Python search is used instead (see docs/solvers.md)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rushhour.search._native",
            ["rushhour/search/_native.c", "rushhour/search/_frontier.c", "rushhour/search/_clusters.c"],
            depends=["rushhour/search/_clusters.h", "rushhour/search/_native.h"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
