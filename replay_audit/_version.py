"""The package's version, in a module of its own so that every layer can read it
without importing the package's ``__init__`` (the facade above all layers).

Must not: import anything.
"""

__version__ = "0.1.0"
