"""The smoke report as one self-contained HTML page: inline SVG charts, no scripts, opens offline."""

from __future__ import annotations

from html import escape
from typing import Any

from jinja2 import Environment, select_autoescape

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ r.title }} — smoke report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{margin-bottom:.2em} h2{margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0} td,th{padding:3px 9px;border-bottom:1px solid #eee;text-align:right}
th{background:#f6f6f6} td:first-child,th:first-child{text-align:left}
.badge{display:inline-block;padding:2px 8px;margin:2px;border-radius:10px;background:#fde2e1;color:#8a1c14}
.ok{background:#e3f4e1;color:#1d5e17} .muted{color:#777} .charts{display:flex;flex-wrap:wrap;gap:24px}
code{background:#f3f3f3;padding:1px 4px}
</style></head><body>
<h1>{{ r.title }}</h1>
<p class="muted">{{ r.games_finished }} of {{ r.games_requested }} games finished{% if r.interrupted %} (run interrupted){% endif %} ·
players {{ r.players|join(', ') }} · bots {{ r.bots|join(', ') }} · seed {{ r.seed }} · content {{ r.fingerprint }} ·
{{ r.games_per_second }} games/s on {{ r.workers }} worker(s), {{ r.backend }}</p>

<h2>At a glance</h2>
<p>
{% if r.errors %}<span class="badge">{{ r.errors|length }} game(s) failed</span>{% else %}<span class="badge ok">no failed games</span>{% endif %}
{% if r.flags.stalemates_flagged %}<span class="badge">stalemates: {{ (100*r.flags.stalemate_rate)|round(1) }}% of games hit the turn cap</span>{% else %}<span class="badge ok">stalemates: {{ r.stalemates }}</span>{% endif %}
{% for p, f in r.flags.first_player_advantage.items() %}<span class="badge">first seat wins {{ (100*f.rate)|round(1) }}% at {{ p }} players (fair: {{ (100*f.expected)|round(1) }}%)</span>{% endfor %}
{% if r.flags.dominant_components %}<span class="badge">dominant: {{ r.flags.dominant_components|join(', ') }}</span>{% endif %}
{% if r.flags.dead_components %}<span class="badge">{{ r.flags.dead_components|length }} component(s) never used</span>{% endif %}
</p>

{% if compare %}
<h2>Since the earlier run</h2>
<p class="muted">content {{ compare.old_fingerprint }} → {{ compare.new_fingerprint }}; mean length {{ compare.turns.old }} → {{ compare.turns.new }} turns.
Shifts marked ● are larger than chance (|z| &gt; 2.58).</p>
<table><tr><th>what</th><th>old</th><th>new</th><th>change</th><th>z</th></tr>
{% for s in compare.seats %}<tr><td>{{ '●' if s.significant }} seat {{ s.seat }} at {{ s.players }} players</td><td>{{ pct(s.old) }}</td><td>{{ pct(s.new) }}</td><td>{{ pct(s.change) }}</td><td>{{ s.z }}</td></tr>{% endfor %}
{% for c in compare.components[:25] %}<tr><td>{{ '●' if c.significant }} {{ c.id }}</td><td>{{ pct(c.old) }}</td><td>{{ pct(c.new) }}</td><td>{{ pct(c.change) }}</td><td>{{ c.z }}</td></tr>{% endfor %}
</table>
{% endif %}

{% if r.solo and r.solo.scored_only %}<h2>Solo games</h2>
<p>{{ r.solo.games }} games of one player, scored only (the rules name no win or loss for one player):
score mean {{ r.solo.scores.mean }}, min {{ r.solo.scores.min }}, median {{ r.solo.scores.median }}, max {{ r.solo.scores.max }}.</p>
{% elif r.solo %}<h2>Solo games</h2>
<p>{{ r.solo.games }} games of one player against the game: won {{ r.solo.won }}, lost {{ r.solo.lost }}
({{ pct(r.solo.win_rate) }}, 95% interval {{ pct(r.solo.ci_low) }}–{{ pct(r.solo.ci_high) }}).</p>{% endif %}
{% if r.win_rate_by_seat %}<h2>Win rate by seat</h2>
<p class="muted">Bars show the share of wins (ties split); whiskers the 95% interval; the dashed line a fair share.</p>
<div class="charts">{% for p, rows in r.win_rate_by_seat.items() %}{{ seat_chart(p, rows) }}{% endfor %}</div>{% endif %}

<h2>How games end</h2>
<div class="charts">{{ bars('End condition', r.end_reasons) }}{{ histogram('Game length (turns)', r.turns) }}{{ histogram('Scores', r.scores) }}{{ histogram('Winning margin', r.winning_margin) }}</div>
{% if r.stats %}<table><tr><th>statistic per game</th><th>mean</th><th>min</th><th>median</th><th>max</th></tr>
{% for k, d in r.stats.items() %}<tr><td>{{ k }}</td><td>{{ d.mean }}</td><td>{{ d.min }}</td><td>{{ d.median }}</td><td>{{ d.max }}</td></tr>{% endfor %}</table>{% endif %}

{% if r.shortages %}<table><tr><th>supply ran short</th><th>games</th><th>times in all</th></tr>
{% for k, row in r.shortages.items() %}<tr><td>{{ k }}</td><td>{{ row.games }}</td><td>{{ row.total }}</td></tr>{% endfor %}</table>{% endif %}

{% if r.coverage and r.coverage.choosable %}<h2>Coverage</h2>
<p>{{ r.coverage.covered }} of {{ r.coverage.choosable }} choosable components ({{ pct(r.coverage.share) }}) were chosen by at
least {{ pct(r.coverage.threshold) }} of seats.</p>
<table><tr><th>kind</th><th>covered</th><th>choosable</th></tr>
{% for kind, k in r.coverage.by_kind.items() %}<tr><td>{{ kind }}</td><td>{{ k.covered }}</td><td>{{ k.choosable }}</td></tr>{% endfor %}</table>
{% if r.coverage.below %}<p><b>Below {{ pct(r.coverage.threshold) }}</b>: {% for b in r.coverage.below %}{{ b.id }} ({{ pct(b.pick_rate) }}){{ ', ' if not loop.last }}{% endfor %}</p>{% endif %}
{% if r.coverage.never_choosable %}<p><b>Never choosable under the rules</b> (left out): {{ r.coverage.never_choosable|join(', ') }}</p>{% endif %}
{% if r.coverage.unchosen_kinds %}<p><b>Kinds no seat chooses</b> (the game brings them in; left out): {{ r.coverage.unchosen_kinds|join(', ') }}</p>{% endif %}{% endif %}

<h2>Components</h2>
<p class="muted">Pick rate: share of seats (one per player per game) that chose it. Win rate when used, and lift: that win rate minus the win rate of seats that did not use it. Sorted by lift within each kind.</p>
{% for kind, rows in by_kind %}<h3>{{ kind or 'other' }}</h3>
<table><tr><th>component</th>{% for e in events %}<th>{{ e }}</th>{% endfor %}<th>pick rate</th><th>win rate when used</th><th>lift</th><th>z</th></tr>
{% for cid, c in rows %}<tr><td>{{ cid }}</td>{% for e in events %}<td>{{ c.events.get(e, 0) }}</td>{% endfor %}<td>{{ pct(c.seat_games_used / r.seat_games if r.seat_games else None) }}</td><td>{{ pct(c.win_rate_when_used) }}</td><td>{{ pct(c.lift) }}</td><td>{{ c.z }}</td></tr>{% endfor %}
</table>{% endfor %}
{% for event, ids in r.never.items() %}{% if ids %}<p><b>Never {{ event }}</b> ({{ ids|length }}): {{ ids|join(', ') }}</p>{% endif %}{% set apart = (r.never_impossible or {}).get(event) %}{% if apart %}<p class="muted">Impossible under the rules, left out of never {{ event }} ({{ apart.ids|length }}, {{ apart.why }}): {{ apart.ids|join(', ') }}</p>{% endif %}{% endfor %}

{% if r.errors %}<h2>Failed games</h2>
<table><tr><th>game</th><th>seed</th><th>players</th><th>error</th><th>reproduce</th></tr>
{% for e in r.errors %}<tr><td>{{ e.index }}</td><td>{{ e.seed }}</td><td>{{ e.players }}</td><td>{{ e.message }}</td><td><code>{{ e.command }}</code></td></tr>{% endfor %}</table>{% endif %}
</body></html>
"""


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _seat_chart(players: str, rows: list[dict[str, Any]]) -> str:
    w, h, pad = 60 + 46 * len(rows), 190, 28
    scale = (h - 2 * pad)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img">',
             f'<text x="4" y="14" font-size="12">{players} players ({rows[0]["games"]} games)</text>']
    fair = h - pad - rows[0]["expected"] * scale
    parts.append(f'<line x1="30" x2="{w - 4}" y1="{fair:.1f}" y2="{fair:.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    for i, r in enumerate(rows):
        x = 36 + i * 46
        top = h - pad - r["rate"] * scale
        parts.append(f'<rect x="{x}" y="{top:.1f}" width="30" height="{h - pad - top:.1f}" fill="#4b7bbf"/>')
        lo, hi = h - pad - r["ci_low"] * scale, h - pad - r["ci_high"] * scale
        parts.append(f'<line x1="{x + 15}" x2="{x + 15}" y1="{lo:.1f}" y2="{hi:.1f}" stroke="#222"/>')
        parts.append(f'<text x="{x + 15}" y="{h - 10}" font-size="11" text-anchor="middle">seat {r["seat"]}</text>')
        parts.append(f'<text x="{x + 15}" y="{top - 4:.1f}" font-size="10" text-anchor="middle">{100 * r["rate"]:.0f}%</text>')
    parts.append("</svg>")
    return "".join(parts)


def _bars(title: str, counts: dict[str, int]) -> str:
    if not counts:
        return ""
    w, row = 320, 20
    h = 24 + row * len(counts)
    top = max(counts.values())
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img">',
             f'<text x="4" y="14" font-size="12">{escape(title)}</text>']
    for i, (k, v) in enumerate(counts.items()):
        y = 22 + i * row
        bw = 170 * v / top
        parts.append(f'<text x="4" y="{y + 13}" font-size="11">{escape(str(k))}</text>')
        parts.append(f'<rect x="100" y="{y + 2}" width="{bw:.1f}" height="{row - 6}" fill="#6a9f58"/>')
        parts.append(f'<text x="{104 + bw:.1f}" y="{y + 13}" font-size="11">{v}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histogram(title: str, dist: dict[str, Any]) -> str:
    hist = dist.get("histogram")
    if not hist:
        return ""
    counts = hist["counts"]
    w, h, pad = 320, 170, 24
    top = max(counts) or 1
    bw = (w - 20) / len(counts)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img">',
             f'<text x="4" y="14" font-size="12">{escape(title)}: mean {dist["mean"]}, median {dist["median"]}</text>']
    for i, c in enumerate(counts):
        bh = (h - 2 * pad - 6) * c / top
        parts.append(f'<rect x="{10 + i * bw:.1f}" y="{h - pad - bh:.1f}" width="{bw - 2:.1f}" height="{bh:.1f}" fill="#c77d3a"/>')
    lo, hi = hist["start"], hist["start"] + hist["width"] * len(counts)
    parts.append(f'<text x="10" y="{h - 8}" font-size="10">{lo:g}</text>')
    parts.append(f'<text x="{w - 10}" y="{h - 8}" font-size="10" text-anchor="end">{hi:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(report: dict[str, Any], comparison: dict[str, Any] | None = None) -> str:
    from markupsafe import Markup

    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    env.globals.update(
        pct=_pct,
        seat_chart=lambda p, rows: Markup(_seat_chart(p, rows)),
        bars=lambda t, c: Markup(_bars(t, c)),
        histogram=lambda t, d: Markup(_histogram(t, d)),
    )
    comps = report["components"]
    ordered = sorted(comps.items(), key=lambda kv: (kv[1]["lift"] is None, -(kv[1]["lift"] or 0)))
    events = sorted({e for c in comps.values() for e in c["events"]})
    kinds: dict[str, list[Any]] = {}
    for cid, c in ordered:
        kinds.setdefault(c["kind"], []).append((cid, c))
    return env.from_string(_PAGE).render(r=report, compare=comparison, by_kind=sorted(kinds.items()), events=events)
