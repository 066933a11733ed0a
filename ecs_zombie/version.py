"""The engine's version (also the package's: pyproject reads it from here)."""

__version__ = "0.2.10"
