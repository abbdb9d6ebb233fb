"""Answers: solver samples decoded back to grids with their broken terms, and pictures of them."""
