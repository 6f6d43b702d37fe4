"""Exact and clairvoyant solvers for the solo games."""
