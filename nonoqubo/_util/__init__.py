"""Small helpers every layer shares: atomic writes, reader limits, plug-in discovery, progress bars."""
