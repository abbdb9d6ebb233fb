"""Line logic: the exact line solver, presolve (fixings and the reduced model) and grid checks."""
