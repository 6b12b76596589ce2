"""A hand record as HTML: a static table for Jupyter, and a self-contained replay page.

The replay page carries its hand as JSON and a few lines of script, with no external file, font
or library, so it opens offline, can be mailed or attached to a bug report, and is what the test
suite drives in headless Chromium. Keys: right / left arrow step one trick, Home / End jump to the
deal / the last trick. "view" shows every hand face up, or one seat's cards only (the others face down,
as that player sees the table). The address fragment `#trick=N` opens it at trick N, `#seat=S` in the
view of seat S, and `#keys=ArrowRight*13` presses keys on load (the test suite uses it to step through
the page as a reader would).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from spades_lab.viewer.hand import SUIT_SYMBOLS, Hand
from spades_lab.viewer.text import score_lines


def hand_table(record: dict[str, Any]) -> str:
    """The hand as HTML tables (deal, bids, tricks, score): what a record shows in a Jupyter cell."""
    hand = Hand.of(record)
    r = hand.record
    p = hand.players
    head = "".join(f"<th>{escape(hand.seat_name(s))}</th>" for s in range(p))
    rows = []
    for seat_cells, block in zip(zip(*(hand.suits(list(r["deal"][s])) for s in range(p))), (3, 2, 1, 0)):
        cells = "".join(
            "<td>" + " ".join(escape(Hand.short(c, block)) for c in cards) + "</td>" for cards in seat_cells
        )
        rows.append(f"<tr><th>{SUIT_SYMBOLS[block]}</th>{cells}</tr>")
    bids = "".join(f"<td>{escape(hand.bid_text(s))}</td>" for s in range(p))
    rows.append(f"<tr><th>bid</th>{bids}</tr>")
    tricks = []
    for t in hand.tricks():
        cells = "".join(
            f"<td>{'<b>' if s == t.winner else ''}{escape(c or '')}{'</b>' if s == t.winner else ''}</td>"
            for s, c in enumerate(t.cards)
        )
        tricks.append(
            f"<tr><td>{t.number}</td><td>seat {t.leader}</td>{cells}<td>seat {t.winner}</td>"
            f"<td>{' '.join(map(str, t.running))}</td></tr>"
        )
    title = f"game {r['game']}, hand {r['hand']}, dealer seat {r['dealer']}"
    if "pairing" in r:
        title += f", pairing {r['pairing']}, seating {r['seating']}"
    seat_heads = "".join(f"<th>seat {s}</th>" for s in range(p))
    score = "".join(f"<li>{escape(line)}</li>" for line in score_lines(hand))
    return (
        f'<div class="spades-hand"><p><b>{escape(title)}</b></p>'
        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"
        f"<table><tr><th>trick</th><th>leader</th>{seat_heads}<th>winner</th><th>tricks by seat</th></tr>"
        f"{''.join(tricks)}</table><ul>{score}</ul></div>"
    )


def page_data(record: dict[str, Any]) -> dict[str, Any]:
    """What the replay script needs, worked out in Python (so the page's script only lays it out)."""
    hand = Hand.of(record)
    r = hand.record
    p = hand.players
    seats = []
    for s in range(p):
        blocks = hand.suits(list(r["hands"][s]))
        seats.append({
            "name": hand.seat_name(s),
            "bid": hand.bid_text(s),
            "suits": [[{"card": c, "label": Hand.short(c, block)} for c in cards]
                      for cards, block in zip(blocks, (3, 2, 1, 0))],
        })  # fmt: skip
    tricks = [
        {"number": t.number, "leader": t.leader, "order": list(t.order), "cards": list(t.cards), "winner": t.winner,
         "running": list(t.running)}
        for t in hand.tricks()
    ]  # fmt: skip
    title = f"game {r['game']}, hand {r['hand']}"
    if "pairing" in r:
        title += f" (pairing {r['pairing']}, seating {r['seating']})"
    return {
        "title": title,
        "players": p,
        "dealer": int(r["dealer"]),
        "seats": seats,
        "tricks": tricks,
        "score": score_lines(hand),
        "exchange": [f"seat {a} passed {c} to seat {b}" for a, b, c in r.get("exchange") or []],
        "suits": list(SUIT_SYMBOLS[::-1]),
    }


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em; background: #f4f1ea; color: #222; }
h1 { font-size: 1.2em; margin: 0 0 .4em 0; }
#table { display: grid; grid-template-columns: 1fr 1.2fr 1fr; grid-template-rows: auto auto auto; gap: .6em;
         max-width: 60em; }
.seat { background: #fff; border: 1px solid #bbb; border-radius: .4em; padding: .4em .6em; min-height: 7em; }
.seat.lead { border-color: #1b6e3a; border-width: 2px; }
.seat h2 { font-size: 1em; margin: 0 0 .3em 0; }
.row { white-space: nowrap; line-height: 1.6; }
.c { display: inline-block; min-width: 1.3em; padding: 0 .15em; margin: 0 .08em; border: 1px solid #999;
     border-radius: .2em; background: #fff; text-align: center; font-weight: 600; }
.red { color: #c0161d; }
.gone { opacity: .18; }
#trick { background: #2f6b45; color: #fff; border-radius: .4em; padding: .5em; display: grid;
         grid-template-columns: repeat(3, 1fr); grid-template-rows: repeat(3, 2em); align-items: center;
         justify-items: center; }
#trick .c { color: #222; }
#trick .c.red { color: #c0161d; }
#trick .win { outline: 3px solid #ffd34d; }
#controls { margin: .8em 0; }
button { font-size: 1em; margin-right: .3em; }
#status { font-weight: 600; margin-left: .6em; }
#views { margin: 0 0 .8em 0; }
#views button.on { font-weight: 700; }
.c.back { background: repeating-linear-gradient(45deg, #2b4c7e, #2b4c7e 3px, #3d65a3 3px, #3d65a3 6px); }
#score { margin-top: .6em; }
"""

_SCRIPT = r"""
const D = JSON.parse(document.getElementById('hand-data').textContent);
const P = D.players;
const SLOT = P === 4 ? ['s0', 's1', 's2', 's3'] : ['s0', 's2'];
const TRICK_SLOT = P === 4 ? [[3, 2], [2, 1], [1, 2], [2, 3]] : [[3, 2], [1, 2]];
let step = 0;
let viewer = -1;  // -1: every hand face up; a seat: only that seat's cards (the others face down, as that player sees them)
function esc(t) { return String(t).replace(/[&<>"]/g, ch => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[ch])); }
function played(upTo) {
  const gone = new Set();
  for (let k = 0; k < upTo; k++) for (const c of D.tricks[k].cards) if (c) gone.add(c);
  return gone;
}
function cardSpan(label, card, block, cls) {
  const red = (block === 1 || block === 2) ? ' red' : '';
  return '<span class="c' + red + (cls || '') + '" data-card="' + esc(card) + '">' + esc(label) + '</span>';
}
function blockOf(card) {
  for (const s of D.seats) for (let r = 0; r < 4; r++) for (const x of s.suits[r]) if (x.card === card) return [3 - r, x.label];
  return [3, card];
}
function render() {
  const gone = played(step);
  const trick = step > 0 ? D.tricks[step - 1] : null;
  const running = trick ? trick.running : new Array(P).fill(0);
  const next = step < D.tricks.length ? D.tricks[step].leader : -1;
  for (let s = 0; s < P; s++) {
    const seat = D.seats[s];
    let left = 0;
    let rows = '';
    for (let r = 0; r < 4; r++) {
      let cards = '';
      for (const x of seat.suits[r]) {
        const isGone = gone.has(x.card);
        if (!isGone) left++;
        cards += cardSpan(x.label, x.card, 3 - r, isGone ? ' gone' : '');
      }
      rows += '<div class="row">' + D.suits[r] + ' ' + (cards || '-') + '</div>';
    }
    if (viewer >= 0 && s !== viewer) {
      rows = '<div class="row">' + '<span class="c back">&nbsp;</span>'.repeat(left) + (left ? '' : '-') + '</div>';
    }
    const el = document.getElementById(SLOT[s]);
    el.className = 'seat' + (s === next ? ' lead' : '');
    el.dataset.seat = s;
    el.dataset.cardsLeft = left;
    el.innerHTML = '<h2>' + esc(seat.name) + ' &middot; bid ' + esc(seat.bid) + ' &middot; tricks ' + running[s] + '</h2>' + rows;
  }
  let centre = '';
  if (trick) {
    for (let s = 0; s < P; s++) {
      const card = trick.cards[s];
      const [block, label] = blockOf(card);
      const [row, col] = TRICK_SLOT[s];
      centre += '<div style="grid-row:' + row + ';grid-column:' + col + '">' +
        cardSpan(card, card, block, s === trick.winner ? ' win' : '') + '</div>';
    }
    centre += '<div style="grid-row:2;grid-column:2;font-size:.85em">trick ' + trick.number + '<br>seat ' + trick.winner + ' wins</div>';
  } else {
    centre = '<div style="grid-row:2;grid-column:2;font-size:.85em">seat ' + D.tricks[0].leader + ' leads</div>';
  }
  document.getElementById('trick').innerHTML = centre;
  const status = document.getElementById('status');
  status.textContent = step === 0 ? 'the deal (trick 0 of ' + D.tricks.length + ')' : 'trick ' + step + ' of ' + D.tricks.length;
  document.body.dataset.step = step;
  document.body.dataset.viewer = viewer;
  for (const b of document.querySelectorAll('#views button')) b.classList.toggle('on', Number(b.dataset.view) === viewer);
  document.getElementById('score').style.display = step === D.tricks.length ? 'block' : 'none';
}
function go(n) { step = Math.max(0, Math.min(D.tricks.length, n)); render(); }
function view(seat) { viewer = seat; render(); }
let buttons = '<button data-view="-1">all hands</button>';
for (let s = 0; s < P; s++) buttons += '<button data-view="' + s + '">seat ' + s + '</button>';
document.getElementById('views').innerHTML = 'view: ' + buttons;
for (const b of document.querySelectorAll('#views button')) b.onclick = () => view(Number(b.dataset.view));
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(step - 1);
document.getElementById('next').onclick = () => go(step + 1);
document.getElementById('last').onclick = () => go(D.tricks.length);
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') go(step + 1);
  else if (e.key === 'ArrowLeft') go(step - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(D.tricks.length);
});
document.getElementById('title').textContent = D.title + ', dealer seat ' + D.dealer;
document.getElementById('score').innerHTML = D.score.map(l => '<div>' + esc(l) + '</div>').join('');
document.getElementById('exchange').textContent = D.exchange.join('; ');
const hash = new URLSearchParams(location.hash.slice(1));
viewer = hash.has('seat') ? Math.max(-1, Math.min(P - 1, parseInt(hash.get('seat'), 10))) : -1;
if (Number.isNaN(viewer)) viewer = -1;
go(parseInt(hash.get('trick') || '0', 10) || 0);
for (const part of (hash.get('keys') || '').split(',').filter(Boolean)) {
  const [key, times] = part.split('*');
  for (let i = 0; i < (parseInt(times || '1', 10) || 1); i++) document.dispatchEvent(new KeyboardEvent('keydown', {key: key}));
}
"""


def replay_page(record: dict[str, Any]) -> str:
    """A self-contained HTML page replaying the hand trick by trick (buttons and arrow keys)."""
    data = page_data(record)
    blob = json.dumps(data).replace("</", "<\\/")
    slots = (
        '<div></div><div class="seat" id="s2"></div><div></div>'
        '<div class="seat" id="s1"></div><div id="trick"></div><div class="seat" id="s3"></div>'
        '<div></div><div class="seat" id="s0"></div><div></div>'
        if data["players"] == 4
        else '<div></div><div class="seat" id="s2"></div><div></div>'
        '<div></div><div id="trick"></div><div></div>'
        '<div></div><div class="seat" id="s0"></div><div></div>'
    )
    if data["players"] == 2:
        slots = slots.replace('id="s2"', 'id="s1"', 1)
        script = _SCRIPT.replace("['s0', 's2']", "['s0', 's1']")
    else:
        script = _SCRIPT
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(data["title"])}</title>
<style>{_STYLE}</style></head>
<body>
<h1 id="title"></h1>
<div id="controls"><button id="first" title="the deal (Home)">&laquo; deal</button><button id="prev" title="previous trick (left arrow)">&#x25C0;</button><button id="next" title="next trick (right arrow)">&#x25B6;</button><button id="last" title="last trick (End)">end &raquo;</button><span id="status"></span></div>
<div id="views"></div>
<div id="table">{slots}</div>
<div id="exchange"></div>
<div id="score"></div>
<script type="application/json" id="hand-data">{blob}</script>
<script>{script}</script>
</body></html>
"""
