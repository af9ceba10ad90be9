"""The association's server: the recipe's files (docs/deployment.md) and ``stack``, which starts
them on this machine for tests/server and the benchmarks."""
