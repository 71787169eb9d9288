"""rscount's version, in a module of its own so that every stage can name it without importing the
package's public API."""

__version__ = "0.2.0"
