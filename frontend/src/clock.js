// The seats' clocks at a table: each person's remaining time beside their name, the running
// one counting down on the page from the figures of the last state message (the server's
// remaining_ms at the moment it sent them, counted from the message's arrival: no clock of
// the browser's needs to agree with the server's), highlighted, and red when little is left.

/** "4:05", "1:02:07", "2 d 3 h", "5 h 12 min": a time left, as people read it. */
export function clockFace(ms, kind) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (kind === "turn" && s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (kind === "turn" && s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** Whether ``ms`` left is little: under 10% of the time, or under 20 seconds. */
export function lowTime(ms, clock) {
  return ms < Math.max(20000, clock.seconds * 100);
}

export class Clocks {
  constructor() {
    this.clock = null;
    this.arrived = 0;
    this.faces = new Map(); // seat -> its element
    this.timer = null;
  }

  /** The time left to ``seat`` now. */
  left(seat) {
    const base = this.clock.remaining_ms[seat];
    if (base === null || base === undefined) return null;
    return seat === this.clock.running ? base - (performance.now() - this.arrived) : base;
  }

  /** A new state's clock (``arrived``: when its message came, performance.now()). */
  update(clock, arrived) {
    this.clock = clock || null;
    this.arrived = arrived;
    clearInterval(this.timer);
    this.timer = null;
    if (this.clock && this.clock.running !== null && this.clock.running !== undefined) {
      this.timer = setInterval(() => this.tick(), 250);
    }
  }

  /** The element showing ``seat``'s time (null: a seat with no clock). */
  face(seat) {
    if (!this.clock || this.left(seat) === null) return null;
    const el = document.createElement("span");
    el.className = "clock";
    el.dataset.seat = String(seat);
    this.faces.set(seat, el);
    this.draw(seat, el);
    return el;
  }

  draw(seat, el) {
    const ms = this.left(seat);
    const out = (this.clock.out || []).includes(seat);
    const text = out ? "out of time" : clockFace(ms, this.clock.kind);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("running", seat === this.clock.running);
    el.classList.toggle("low", !out && lowTime(ms, this.clock));
    el.dataset.ms = String(Math.max(0, Math.round(ms)));
  }

  tick() {
    const seat = this.clock && this.clock.running;
    const el = this.faces.get(seat);
    if (el && el.isConnected) this.draw(seat, el);
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** The time-outs of a table as lines of its log. */
export function timeoutLines(clock) {
  const then = { bot: "a bot plays the seat from here", out: "out of the game; a bot plays the seat on", lost: "the game is lost" };
  return ((clock && clock.timeouts) || []).map((t) => `${t.name} ran out of time at step ${t.step}: ${then[t.then] || t.then}.`);
}
