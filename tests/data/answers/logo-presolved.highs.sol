Model status
Empty

# Primal solution values
None

# Dual solution values
None

# Basis
HiGHS_basis_file v2
None
