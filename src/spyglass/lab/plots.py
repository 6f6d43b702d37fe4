"""The lab's plots, each written as PNG and SVG.

matplotlib's object API (``Figure``) draws off-screen with its Agg canvas: no display, no pyplot
state shared between calls. It is imported when a plot is drawn, so the workers that only play
games never pay for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FORMATS = ("png", "svg")
COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")


def _figure(width: float = 6.4, height: float = 3.6) -> Any:
    from matplotlib.figure import Figure  # noqa: PLC0415 - see the module's docstring

    return Figure(figsize=(width, height), layout="constrained")


def _wrap(title: str, width: int = 72) -> str:
    """A long title on two lines or more rather than cut off at the figure's edge."""
    import textwrap  # noqa: PLC0415

    return "\n".join(textwrap.wrap(title, width)) or title


def save(figure: Any, stem: Path) -> list[Path]:
    """Write ``stem``.png and ``stem``.svg; the paths written."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in FORMATS:
        path = stem.with_suffix(f".{suffix}")
        figure.savefig(path, dpi=100)
        paths.append(path)
    return paths


def histogram(values: Sequence[float], stem: Path, title: str, xlabel: str) -> list[Path]:
    """A histogram, one bar per value when the values are few whole numbers."""
    figure = _figure()
    axes = figure.add_subplot()
    if values:
        low, high = min(values), max(values)
        whole = all(float(v).is_integer() for v in values)
        if whole and high - low <= 60:
            bins: Any = [x - 0.5 for x in range(int(low), int(high) + 2)]
        else:
            bins = "auto"
        axes.hist(values, bins=bins, color=COLOURS[0], edgecolor="white")
    else:
        axes.text(0.5, 0.5, "no values", ha="center", va="center", transform=axes.transAxes)
    axes.set_title(_wrap(title), fontsize="medium")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    return save(figure, stem)


def rate_bars(
    labels: Sequence[str],
    rates: Sequence[Mapping[str, Any]],
    stem: Path,
    title: str,
    *,
    ylabel: str = "win rate",
    reference: float | None = None,
    reference_label: str = "",
) -> list[Path]:
    """Bars of proportions (dicts with rate, low, high) with their 95% intervals."""
    figure = _figure(max(5.6, 1.0 + 0.9 * len(labels)), 3.6)
    axes = figure.add_subplot()
    heights = [r["rate"] or 0.0 for r in rates]
    below = [max(0.0, h - r["low"]) for h, r in zip(heights, rates, strict=True)]
    above = [max(0.0, r["high"] - h) for h, r in zip(heights, rates, strict=True)]
    positions = range(len(labels))
    axes.bar(positions, heights, color=COLOURS[0], yerr=[below, above], capsize=4)
    tilted = len(labels) > 6
    axes.set_xticks(
        list(positions), labels, rotation=30 if tilted else 0, ha="right" if tilted else "center"
    )
    if reference is not None:
        axes.axhline(reference, color="grey", linestyle="--", label=reference_label)
        axes.legend(loc="upper right")
    axes.set_ylim(0, 1)
    axes.set_ylabel(f"{ylabel} (95% interval)")
    axes.set_title(_wrap(title), fontsize="medium")
    return save(figure, stem)


def grouped_rate_bars(
    groups: Sequence[str],
    series: Mapping[str, Sequence[Mapping[str, Any] | None]],
    stem: Path,
    title: str,
    *,
    ylabel: str = "win rate",
) -> list[Path]:
    """For each group (a game, an option value), one bar per series with its interval; a
    missing value (None) leaves a gap."""
    width = 0.8 / max(1, len(series))
    figure = _figure(max(6.4, 1.2 + 0.95 * len(groups)), 4.0)
    axes = figure.add_subplot()
    for k, (name, rates) in enumerate(series.items()):
        xs, heights, below, above = [], [], [], []
        for g, r in enumerate(rates):
            if r is None or r.get("rate") is None:
                continue
            xs.append(g + (k - (len(series) - 1) / 2) * width)
            heights.append(r["rate"])
            below.append(max(0.0, r["rate"] - r["low"]))
            above.append(max(0.0, r["high"] - r["rate"]))
        axes.bar(
            xs,
            heights,
            width,
            label=name,
            color=COLOURS[k % len(COLOURS)],
            yerr=[below, above],
            capsize=2,
        )
    axes.set_xticks(list(range(len(groups))), groups, rotation=30 if len(groups) > 4 else 0)
    if len(groups) > 4:
        for label in axes.get_xticklabels():
            label.set_horizontalalignment("right")
    axes.set_ylim(0, 1)
    axes.set_ylabel(f"{ylabel} (95% interval)")
    axes.set_title(_wrap(title), fontsize="medium")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save(figure, stem)


def line_plot(
    xs: Sequence[str],
    values: Sequence[float | None],
    stem: Path,
    title: str,
    *,
    ylabel: str,
    xlabel: str,
) -> list[Path]:
    """A measure (e.g. mean score) against an option's values."""
    figure = _figure()
    axes = figure.add_subplot()
    points = [(x, v) for x, v in zip(xs, values, strict=True) if v is not None]
    axes.plot([x for x, _ in points], [v for _, v in points], marker="o", color=COLOURS[1])
    axes.set_title(_wrap(title), fontsize="medium")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    return save(figure, stem)


def value_bars(
    labels: Sequence[str],
    values: Sequence[float],
    errors: Sequence[float],
    stem: Path,
    title: str,
    *,
    ylabel: str,
) -> list[Path]:
    """Bars of values with symmetric error bars (e.g. ratings with their uncertainty)."""
    figure = _figure(max(5.6, 1.0 + 0.9 * len(labels)), 3.6)
    axes = figure.add_subplot()
    positions = list(range(len(labels)))
    axes.bar(positions, values, color=COLOURS[2], yerr=errors, capsize=4)
    axes.set_xticks(positions, labels)
    axes.set_ylabel(ylabel)
    axes.set_title(_wrap(title), fontsize="medium")
    return save(figure, stem)


def count_bars(
    counts: Sequence[tuple[float, int]], stem: Path, title: str, *, xlabel: str, ylabel: str
) -> list[Path]:
    """A histogram given as (value, how many) pairs, e.g. the legal actions at each move."""
    figure = _figure()
    axes = figure.add_subplot()
    if counts:
        axes.bar([v for v, _ in counts], [n for _, n in counts], width=0.9, color=COLOURS[0])
        if len(counts) > 40:
            axes.set_xscale("symlog", linthresh=10)
    else:
        axes.text(0.5, 0.5, "no values", ha="center", va="center", transform=axes.transAxes)
    axes.set_title(_wrap(title), fontsize="medium")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    return save(figure, stem)


def place_bars(
    labels: Sequence[str], places: Sequence[Sequence[int]], stem: Path, title: str
) -> list[Path]:
    """One stacked bar per seat: the share of games it finished 1st, 2nd, ..."""
    figure = _figure(max(5.6, 1.6 + 0.9 * len(labels)), 3.8)
    axes = figure.add_subplot()
    positions = list(range(len(labels)))
    bottoms = [0.0] * len(labels)
    depth = max((len(p) for p in places), default=0)
    for k in range(depth):
        shares = [(p[k] / sum(p)) if sum(p) else 0.0 for p in places]
        axes.bar(
            positions,
            shares,
            bottom=bottoms,
            color=COLOURS[k % len(COLOURS)],
            label=ordinal(k + 1),
            edgecolor="white",
        )
        bottoms = [b + s for b, s in zip(bottoms, shares, strict=True)]
    axes.set_xticks(positions, labels)
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games")
    axes.set_title(_wrap(title), fontsize="medium")
    axes.legend(title="place", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save(figure, stem)


def difference_plot(
    labels: Sequence[str],
    rows: Sequence[Mapping[str, Any]],
    stem: Path,
    title: str,
    *,
    xlabel: str,
    percent: bool = False,
) -> list[Path]:
    """Paired differences with their 95% intervals, one line each (a forest plot); a filled
    marker where the difference survives the multiple-testing correction."""
    figure = _figure(6.4, max(2.8, 1.2 + 0.5 * len(labels)))
    axes = figure.add_subplot()
    scale = 100.0 if percent else 1.0
    for y, row in enumerate(rows):
        if row.get("difference") is None:
            continue
        centre = scale * row["difference"]
        low = scale * (row["low"] if row["low"] is not None else row["difference"])
        high = scale * (row["high"] if row["high"] is not None else row["difference"])
        colour = COLOURS[3] if row.get("significant") else COLOURS[0]
        axes.plot([low, high], [y, y], color=colour, linewidth=2)
        axes.plot(
            [centre],
            [y],
            marker="o",
            color=colour,
            markerfacecolor=colour if row.get("significant") else "white",
        )
    axes.axvline(0, color="grey", linestyle="--")
    # long agent specs on two lines, so the plot keeps its width
    axes.set_yticks(list(range(len(labels))), [_wrap(label, 32) for label in labels])
    axes.invert_yaxis()
    axes.set_xlabel(_wrap(xlabel, 48))  # the long label says what a filled marker means
    axes.set_title(_wrap(title), fontsize="medium")
    return save(figure, stem)


def matrix_plot(
    labels: Sequence[str],
    values: Sequence[Sequence[float | None]],
    stem: Path,
    title: str,
    *,
    note: str = "",
) -> list[Path]:
    """A head-to-head matrix: cell (row, column) is how often the row's agent finished ahead
    of the column's, written in the cell; 50% is even."""
    size = max(3.6, 1.4 + 0.9 * len(labels))
    figure = _figure(size + 1.2, size)
    axes = figure.add_subplot()
    grid = [[float("nan") if v is None else v for v in row] for row in values]
    image = axes.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            if value is not None:
                # white on the dark ends of the scale, black in its pale middle
                ink = "white" if abs(value - 0.5) > 0.3 else "black"
                axes.text(
                    j, i, f"{value:.0%}", ha="center", va="center", fontsize="small", color=ink
                )
    # long agent specs folded, so that they are not cut at the figure's edge
    folded = [_wrap(label.replace(",", ", "), 18) for label in labels]
    axes.set_xticks(list(range(len(labels))), folded, rotation=30, ha="right")
    axes.set_yticks(list(range(len(labels))), folded)
    axes.set_xlabel("against")
    axes.set_title(_wrap(title, 56), fontsize="medium")
    figure.colorbar(image, ax=axes, label=_wrap(note or "share of games ahead", 40))
    return save(figure, stem)


def history_plot(
    values: Sequence[float | None], best: Sequence[float | None], stem: Path, title: str,
    *, ylabel: str,
) -> list[Path]:  # fmt: skip
    """An optimisation's history: each trial's objective and the best so far."""
    figure = _figure()
    axes = figure.add_subplot()
    xs = [i for i, v in enumerate(values) if v is not None]
    axes.plot(xs, [values[i] for i in xs], "o", color=COLOURS[0], label="trial", alpha=0.7)
    ys = [i for i, v in enumerate(best) if v is not None]
    axes.step(ys, [best[i] for i in ys], where="post", color=COLOURS[3], label="best so far")
    axes.set_xlabel("trial")
    axes.set_ylabel(ylabel)
    axes.set_title(_wrap(title), fontsize="medium")
    axes.legend(loc="best")  # clear of the points, wherever they lie
    return save(figure, stem)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
