# Solution for model obj
# Objective value = 0
