"""The package version: a leaf module, so every module that records it imports nothing else."""

__version__ = "0.1.0"
