// From clicks to moves. Clicking a card keeps the legal moves whose cards include it;
// clicking a place keeps those whose target names it; the move is played as soon as one
// remains. What can still be clicked is highlighted, and is a button for the keyboard and
// screen readers (Tab reaches it, Enter or Space chooses it, aria-pressed says it is chosen);
// the list of moves is the fallback.

function contains(labels, chosen) {
  const pool = [...labels];
  for (const c of chosen) {
    const i = pool.indexOf(c);
    if (i < 0) return false;
    pool.splice(i, 1);
  }
  return true;
}

export class MoveController {
  constructor({ onPlay, onChange }) {
    this.onPlay = onPlay;
    this.onChange = onChange || (() => {});
    this.legal = [];
    this.reg = null;
    this.cards = [];
    this.picked = []; // the drawn cards clicked for this.cards: positions in reg.cards
    this.place = null; // a registry place
    this.placeMoves = null; // the moves that target it
    this.hinted = null;
    this.pending = false; // a move was sent: nothing is clickable until the answer
    this.sentAt = null; // the step the move was sent from
    this.offline = false; // no link to the server: nothing is clickable until it is back
    this.cardAt = new Map(); // element -> its position in reg.cards
    this.placeAt = new Map(); // element -> its place in reg.places
    this.wired = new WeakSet(); // the drawings' roots that listen already
  }

  /** The link to the server is lost (true) or back (false). */
  setOffline(offline) {
    this.offline = offline;
    this.highlight();
  }

  /** A move is on its way to the server: clear the choice, let nothing be clicked. */
  wait(step) {
    this.pending = true;
    this.sentAt = step;
    this.cards = [];
    this.picked = [];
    this.place = null;
    this.placeMoves = null;
    this.highlight();
  }

  /** The server refused the move (or the link to it was lost): the same moves are open again. */
  resume() {
    this.pending = false;
    this.sentAt = null;
    this.highlight();
  }

  /** New legal moves and a new drawing: keep the selection only while it still fits. A
   * drawing of the step a move was sent from (another seat's news, drawn again) is not the
   * answer: the move stays on its way and nothing is clickable yet. */
  update(legal, reg, step) {
    const same = legal.length === this.legal.length && legal.every((a, i) => a.notation === this.legal[i].notation);
    this.legal = legal;
    this.reg = reg;
    if (!(this.pending && step === this.sentAt)) {
      this.pending = false;
      this.sentAt = null;
    }
    if (!same) {
      this.cards = [];
      this.picked = [];
      this.place = null;
      this.placeMoves = null;
      this.hinted = null;
    } else {
      // The drawing is new: the clicked cards are where they were, if the same cards are.
      this.picked = this.picked.filter((i) => reg.cards[i] && this.cards.includes(reg.cards[i].label));
    }
    if (same && this.place) {
      // The drawing is new: find the same place again by name.
      const again = reg.places.find((p) => p.name === this.place.name);
      this.place = again || null;
      if (!again) this.placeMoves = null;
    }
    this.wire();
    this.highlight();
  }

  candidates() {
    if (this.pending || this.offline) return [];
    return this.legal.filter(
      (a) => contains(a.labels, this.cards) && (!this.placeMoves || this.placeMoves.has(a.notation)),
    );
  }

  /** Moves to offer as buttons by the board: with nothing chosen, those that name no card
   * and no place drawn on the board ("pass", "look", or naming a kind of goods no card on
   * the board shows); with a choice, the moves it completes (the same cards played
   * different ways, or a move that needs nothing more). */
  choices() {
    if (this.pending || this.offline || !this.reg) return [];
    const offBoard = (a) => !this.reg.placesFor(a.target).length;
    const drawn = new Set(this.reg.cards.map((c) => c.label));
    const unclickable = (a) => !a.labels.some((label) => drawn.has(label));
    if (!this.active) return this.legal.filter((a) => unclickable(a) && offBoard(a));
    // With a choice made: the moves it completes, or that need only cards the board does not
    // show (a kind of goods named after choosing the seat, say).
    const rest = (a) => {
      const pool = [...a.labels];
      for (const c of this.cards) {
        const i = pool.indexOf(c);
        if (i >= 0) pool.splice(i, 1);
      }
      return pool;
    };
    return this.candidates().filter(
      (a) => rest(a).every((label) => !drawn.has(label)) && (this.place !== null || offBoard(a)),
    );
  }

  get active() {
    return this.cards.length > 0 || this.place !== null;
  }

  clear() {
    this.cards = [];
    this.picked = [];
    this.place = null;
    this.placeMoves = null;
    this.highlight();
    this.onChange();
  }

  movesAt(place) {
    const moves = new Set();
    for (const a of this.legal) {
      if (this.reg.placesFor(a.target).includes(place)) moves.add(a.notation);
    }
    return moves;
  }

  /** A click on a card: a chosen card is put back; any other card is added to the choice,
   * even when a card with the same label is chosen already (paying with two 1s). Without
   * ``selected`` (a card named by its label only), a chosen label is put back. */
  clickCard(label, selected = this.cards.includes(label), at = -1) {
    if (this.pending || this.offline) return false;
    const i = this.cards.indexOf(label);
    if (selected && i >= 0) {
      this.cards.splice(i, 1);
      const j = this.picked.indexOf(at);
      if (j >= 0) this.picked.splice(j, 1);
      else {
        const k = this.picked.findIndex((p) => this.reg.cards[p].label === label);
        if (k >= 0) this.picked.splice(k, 1);
      }
    } else {
      const next = [...this.cards, label];
      const fits = this.legal.some((a) => contains(a.labels, next) && (!this.placeMoves || this.placeMoves.has(a.notation)));
      if (!fits) return false;
      this.cards = next;
      if (at >= 0) this.picked.push(at);
    }
    this.settle();
    return true;
  }

  clickPlace(place) {
    if (this.pending || this.offline) return false;
    if (this.place === place) {
      this.place = null;
      this.placeMoves = null;
      this.settle();
      return true;
    }
    const moves = this.movesAt(place);
    const fits = this.legal.some((a) => moves.has(a.notation) && contains(a.labels, this.cards));
    if (!fits) return false;
    this.place = place;
    this.placeMoves = moves;
    this.settle();
    return true;
  }

  settle() {
    const left = this.candidates();
    if (this.active && left.length === 1) {
      this.onPlay(left[0]);
      return;
    }
    this.highlight();
    this.onChange();
  }

  /** Clicks and keys (one listener on the drawing's root, which may outlive a drawing: the
   * board keeps its root from state to state): a card first, if it can be chosen, else the
   * place around it. */
  wire() {
    const reg = this.reg;
    if (!reg) return;
    this.cardAt = new Map(reg.cards.map((c, i) => [c.el, i]));
    this.placeAt = new Map(reg.places.map((p) => [p.el, p]));
    const root = reg.root;
    if (!root || this.wired.has(root)) return;
    this.wired.add(root);
    const handler = (event) => {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      if (!this.reg || this.reg.root !== root) return;
      const now = this.reg;
      let node = event.target;
      let handled = false;
      while (node && node !== root && !handled) {
        const live = node.classList && (node.classList.contains("can") || node.classList.contains("sel"));
        const at = this.cardAt.get(node);
        if (at !== undefined && live) handled = this.clickCard(now.cards[at].label, node.classList.contains("sel"), at);
        const place = this.placeAt.get(node);
        if (!handled && place && live) handled = this.clickPlace(place);
        node = node.parentNode;
      }
      if (handled) event.preventDefault();
    };
    root.addEventListener("click", handler);
    root.addEventListener("keydown", handler);
  }

  highlight() {
    if (!this.reg) return;
    if (this.reg.root) {
      this.reg.root.classList.toggle("pending", this.pending);
      this.reg.root.classList.toggle("offline", this.offline);
    }
    const left = this.candidates();
    const usable = new Set();
    for (const a of left) for (const l of a.labels) usable.add(l);
    // The cards clicked are the ones marked chosen (your own 2, not the market's); a label
    // chosen otherwise marks the first card that shows it.
    const chosen = [...this.cards];
    const marked = new Set();
    for (const i of this.picked) {
      const k = chosen.indexOf(this.reg.cards[i].label);
      if (k >= 0) {
        chosen.splice(k, 1);
        marked.add(i);
      }
    }
    this.reg.cards.forEach((c, i) => {
      if (!marked.has(i)) {
        const k = chosen.indexOf(c.label);
        if (k >= 0) {
          chosen.splice(k, 1);
          marked.add(i);
        }
      }
      const selected = marked.has(i);
      c.el.classList.toggle("sel", selected);
      c.el.classList.toggle("can", !selected && usable.has(c.label));
    });
    const targets = new Set();
    for (const a of left) for (const p of this.reg.placesFor(a.target)) targets.add(p);
    for (const p of this.reg.places) {
      const selected = p === this.place;
      p.el.classList.toggle("sel", selected);
      p.el.classList.toggle("can", !selected && targets.has(p));
    }
    // Live items are buttons (a place's handle: itself, or its title); the others are plain
    // again, except the one with the focus, which keeps it (tabindex -1) until the page moves
    // it on. A place whose content does not name it says where it is first (hidden text).
    const focused = document.activeElement;
    for (const item of [...this.reg.cards, ...this.reg.places]) {
      const el = item.handle || item.el;
      const on = item.el.classList.contains("can") || item.el.classList.contains("sel");
      let where = el.querySelector(":scope > .where");
      if (on) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", item.el.classList.contains("sel") ? "true" : "false");
        const text = typeof item.where === "function" ? item.where() : item.where;
        if (text) {
          if (!where) {
            where = document.createElement("span");
            where.className = "where visually-hidden";
            el.prepend(where);
          }
          if (where.textContent !== text) where.textContent = text;
        } else if (where) where.remove();
      } else {
        if (el === focused) el.setAttribute("tabindex", "-1");
        else el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-pressed");
        if (where) where.remove();
      }
    }
    this.showHint();
  }

  /** Mark the cards and places of a hinted move. */
  hint(move) {
    this.hinted = move;
    this.showHint();
  }

  showHint() {
    if (!this.reg) return;
    const move = this.hinted;
    const labels = move ? [...move.labels] : [];
    for (const c of this.reg.cards) {
      const i = labels.indexOf(c.label);
      if (i >= 0) labels.splice(i, 1);
      c.el.classList.toggle("hinted", i >= 0);
    }
    const places = move ? new Set(this.reg.placesFor(move.target)) : new Set();
    for (const p of this.reg.places) p.el.classList.toggle("hinted", places.has(p));
  }
}
