"""Rendering: a ``ServerPlan`` becomes the generated package in memory (catalog, typed client, models,
README, publishing files), then formatted, written or checked.
"""
