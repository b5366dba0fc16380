"""Smoke games: play many games with bots, gather statistics, write the balance report."""
