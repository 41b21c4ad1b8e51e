"""chart.png of ``whist tournament --out``: each bot's mean points per hand, and beside it the main
result, the paired (per deal) difference between the bots with its 95% confidence interval.

Drawn on a ``matplotlib.figure.Figure`` of its own (no pyplot state), so a test can read its texts.
"""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib.figure import Figure

from israeli_whist.bots.matches.tournament import TournamentResult
from israeli_whist.core.games import GAMES
from israeli_whist.core.wording import count_text

# One colour per bot (matplotlib's "tab10"), the same in every chart.
BOT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def finite(value: float) -> float:
    return 0.0 if math.isnan(value) else value


def chart_title(result: TournamentResult) -> str:
    spec = result.spec
    hands = len(result.rows)
    return (f"{GAMES[spec.game].title}: {' vs '.join(spec.labels)}\n"
            f"{count_text(spec.deals, 'deal')} in {count_text(len(result.arrangements), 'seat arrangement')}, "
            f"{count_text(hands, 'hand')} played, seed {spec.seed}")


def chart_figure(result: TournamentResult) -> Figure:
    bots = result.bots
    differences = result.differences
    figure = Figure(figsize=(max(8.0, 1.6 * len(bots) + 6), 4.8), layout="constrained")
    means_axes, difference_axes = figure.subplots(1, 2, width_ratios=[max(2, len(bots)), 3])
    figure.suptitle(chart_title(result), fontsize=12)

    labels = [bot.label for bot in bots]
    means = [finite(bot.mean.mean) for bot in bots]
    errors = [finite(bot.mean.half_width) for bot in bots]
    colours = [BOT_COLOURS[index % len(BOT_COLOURS)] for index in range(len(bots))]
    bars = means_axes.bar(labels, means, yerr=errors, capsize=8, color=colours)
    for bar, mean, error in zip(bars, means, errors, strict=True):  # beyond the error bar, not on it
        end, away = (mean + error, 4) if mean >= 0 else (mean - error, -4)
        means_axes.annotate(f"{mean:+.2f} ± {error:.2f}", (bar.get_x() + bar.get_width() / 2, end),
                            textcoords="offset points", xytext=(0, away), ha="center",
                            va="bottom" if away > 0 else "top", fontsize=9)
    means_axes.axhline(0, color="black", linewidth=0.8)
    means_axes.set_ylabel("mean points per hand (95% CI)")
    means_axes.set_title("Each bot", fontsize=10)
    means_axes.margins(y=0.2)

    names = [f"{difference.first} − {difference.second}" for difference in differences]
    centres = [finite(difference.mean.mean) for difference in differences]
    below = [finite(difference.mean.mean - difference.mean.low) for difference in differences]
    above = [finite(difference.mean.high - difference.mean.mean) for difference in differences]
    rows = list(range(len(differences)))
    difference_axes.errorbar(centres, rows, xerr=[below, above], fmt="o", color="black", capsize=6)
    for row, difference in zip(rows, differences, strict=True):
        interval = difference.mean
        low, high = ("?" if math.isnan(bound) else f"{bound:+.2f}" for bound in (interval.low, interval.high))
        difference_axes.annotate(f"{interval.mean:+.2f}  [{low}, {high}]", (finite(interval.mean), row),
                                 textcoords="offset points", xytext=(0, 9), ha="center", fontsize=9)
    difference_axes.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    difference_axes.set_yticks(rows, names)
    difference_axes.set_ylim(-0.7, len(differences) - 0.3)
    difference_axes.margins(x=0.3)  # room for the labels at both ends
    difference_axes.invert_yaxis()
    difference_axes.set_xlabel("points per hand, paired by deal (95% CI)")
    difference_axes.set_title("Paired difference: the main result", fontsize=10)
    return figure


def write_chart(result: TournamentResult, path: Path) -> None:
    chart_figure(result).savefig(path, dpi=100)
