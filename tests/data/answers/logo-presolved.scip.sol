objective value:                                    0
