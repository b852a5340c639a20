"""Side bets as data: a bet's definition file (:mod:`.definition`), its exact par sheet by
enumeration of the deals it looks at (:mod:`.exact`), and its simulated twin.

Nothing a definition file holds is ever evaluated as Python: the file is read as YAML data,
checked against a fixed vocabulary of conditions, and compiled into a small table of
numeric tests that the enumeration and simulation kernels read.
"""
