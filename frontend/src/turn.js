// Telling a player it is their move when they are looking elsewhere: the tab's title and icon
// change ("● Your move — ..." and an icon with a dot), an optional short tone (generated with
// Web Audio: no sound file; off unless the player turns it on, remembered in this browser),
// and a browser notification while the page is hidden (the Notification API; permission is
// asked only when the player presses the button, as browsers require).

import { h } from "./dom.js";

const SOUND = "spyglass.sound";
const NOTIFY = "spyglass.notify";
/** The tab's icon while it is your move: the site's mark with an amber dot (a data: address,
 * which the Content-Security-Policy allows for images). */
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#285240"/>' +
  '<circle cx="16" cy="16" r="10" fill="#f5b301" stroke="#ffffff" stroke-width="3"/></svg>');

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    // storage refused: the choice lasts for this page only
  }
}

export class TurnSignal {
  constructor() {
    this.mine = null; // whether it was this page's move at the last state (null: no state yet)
    this.iconLink = document.querySelector('link[rel="icon"]');
    this.plainIcon = this.iconLink ? this.iconLink.getAttribute("href") : null;
    this.audio = null;
    this.soundButton = h("button", { type: "button", id: "sound", class: "small", "aria-pressed": "false", title: "a short tone when it is your move", onclick: () => this.toggleSound() }, "Sound");
    this.notifyButton = h("button", { type: "button", id: "notify", class: "small", "aria-pressed": "false", title: "a browser notification when it is your move and this page is hidden", onclick: () => this.toggleNotify() }, "Notify me");
    this.notifyButton.hidden = typeof Notification === "undefined";
    this.drawButtons();
  }

  get soundOn() {
    return stored(SOUND);
  }

  get notifyOn() {
    return stored(NOTIFY) && typeof Notification !== "undefined" && Notification.permission === "granted";
  }

  drawButtons() {
    this.soundButton.setAttribute("aria-pressed", this.soundOn ? "true" : "false");
    this.notifyButton.setAttribute("aria-pressed", this.notifyOn ? "true" : "false");
  }

  toggleSound() {
    store(SOUND, !this.soundOn);
    this.drawButtons();
    if (this.soundOn) this.tone(); // the gesture lets the audio start, and says what it sounds like
  }

  async toggleNotify() {
    if (this.notifyOn) {
      store(NOTIFY, false);
    } else {
      let permission = Notification.permission;
      if (permission === "default") permission = await Notification.requestPermission();
      store(NOTIFY, permission === "granted");
      if (permission === "denied") this.notifyButton.title = "notifications are blocked for this site in the browser's settings";
    }
    this.drawButtons();
  }

  /** Two short notes, quiet. */
  tone() {
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      this.audio = this.audio || new Context();
      const ctx = this.audio;
      if (ctx.state === "suspended") ctx.resume();
      [660, 880].forEach((frequency, i) => {
        const start = ctx.currentTime + i * 0.16;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.14);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + 0.15);
      });
    } catch {
      // no audio on this device: the title and icon still say it
    }
  }

  /** The state of the table now: ``mine`` (this page has a move to make), ``title`` (the
   * game's), ``who`` (the seat to move's name, for the notification), ``tableId``. */
  update(mine, title, who, tableId) {
    document.title = mine ? `● Your move — ${title} · spyglass` : `${title} · spyglass`;
    if (this.iconLink) this.iconLink.setAttribute("href", mine ? TURN_ICON : this.plainIcon);
    document.documentElement.dataset.yourMove = mine ? "yes" : "no";
    const began = mine && this.mine === false;
    this.mine = mine;
    if (!began) return;
    if (this.soundOn) this.tone();
    if (this.notifyOn && document.hidden) {
      try {
        const note = new Notification(`Your move: ${title}`, { body: `${who}, the table is waiting for you.`, tag: `spyglass-${tableId}`, icon: this.plainIcon || undefined });
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch {
        // a browser that allows notifications only from a service worker: the title says it
      }
    }
  }
}
