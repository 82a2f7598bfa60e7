"""The version of rushhour, in one place: the package (``rushhour.__version__``), its metadata (read
from here by the build, see pyproject.toml) and the checks that other processes run the same one (a Dask
worker of an enumeration) all take it from here."""

__version__ = "0.1.0"
