// The table: a seat's legal commands as controls, for a page opened with a seat token. Everything is driven by
// what the server sends this seat (ListLegalCommands, the view, the layout): no ruleset is special-cased here.
//
// Commands are grouped by type, one button each, worded from their arguments; a card on the board that commands
// name gets a "choose" button, which narrows the controls to the commands naming it. A command is sent with
// SubmitCommand and a fresh command id; a refusal is said in words and the controls come back as they were.

import { ApiError, call } from "./connect.js";
import { seatName } from "./board.js";
import { capitalised, el, joined, words } from "./dom.js";

const CONCEDE = "concede";
const SEAT_KEY = /(^|_)seats?$/;

export class Table {
  // ``matchId`` and ``token`` open the seat; ``seat`` is the seat they open.
  constructor(matchId, token, seat) {
    Object.assign(this, { matchId, token, seat, commands: [], version: 0, wanted: 0, fetching: false,
      sending: false, picked: null, ended: false, toAct: [], presence: null, refusal: null, ctx: null,
      board: null });
    this.node = document.querySelector("#controls");
    this.node.hidden = false;
  }

  // The match reached ``version`` (the last one received), waiting on ``toAct``: the legal commands follow it.
  reached(version, toAct) {
    // An update before the last version wanted (a command's first events) says nothing of who acts now.
    if (version < this.wanted) return;
    this.toAct = toAct;
    if (version === this.wanted) return;
    this.wanted = version;
    this.fetch();
  }

  // One ListLegalCommands at a time; a version reached meanwhile is fetched when it answers.
  async fetch() {
    if (this.fetching || this.ended) return;
    this.fetching = true;
    const wanted = this.wanted;
    try {
      const legal = await call("MatchService", "ListLegalCommands",
        { matchId: this.matchId, token: this.token, minVersion: wanted });
      this.commands = (legal.commandsJson || []).map((text) => ({ text, command: JSON.parse(text) }));
      this.version = Number(legal.version);
      this.toAct = legal.toAct || [];
      if (this.picked && !this.commands.some((entry) => names(entry.command, this.picked))) this.picked = null;
    } catch (error) {
      // Said like a refusal (the server unreachable, the token refused); listed again at the next version, or
      // once the watch is back (retry).
      this.commands = [];
      this.refusal = error instanceof ApiError ? error : new ApiError("unknown", error.message, "", {});
    } finally {
      this.fetching = false;
    }
    if (this.wanted > wanted) this.fetch();
    else this.redraw();
  }

  // The watch reconnected: a listing that failed meanwhile is tried again.
  retry() {
    if (this.version < this.wanted) this.fetch();
  }

  // The presence of every seat, when the server sends it (MatchUpdate.presence).
  present(presence) {
    this.presence = presence;
    this.draw();
  }

  end() {
    this.ended = true;
    this.commands = [];
    this.draw();
  }

  // Called with each board drawn: its cards that commands name get their "choose" button. An earlier version's
  // board (the scrubber moved back) comes as null: its cards may be gone.
  decorate(board, ctx) {
    this.ctx = ctx;
    this.board = board;
    const ready = this.isReady();
    for (const card of board ? board.querySelectorAll(".card") : []) {
      const ref = card.dataset.instance || card.dataset.cardId;
      if (!ref || !ready || !this.commands.some((entry) => names(entry.command, ref))) continue;
      const chosen = this.picked === ref;
      const name = card.querySelector(".name")?.textContent || ref;
      const button = el("button", { type: "button", class: "pick", "data-ref": ref, "aria-pressed": String(chosen),
        "aria-label": `${chosen ? "Unchoose" : "Choose"} ${name} (${ref})` }, chosen ? "chosen" : "choose");
      button.addEventListener("click", () => this.pick(chosen ? null : ref));
      card.classList.toggle("picked", chosen);
      card.append(button);
    }
    this.draw();
  }

  pick(ref) {
    this.picked = ref;
    this.redraw();
  }

  // Draws the board's pick buttons again (a click changed the choice) and the controls.
  redraw() {
    for (const button of this.board?.querySelectorAll(".pick") || []) button.remove();
    this.decorate(this.board, this.ctx);
  }

  // The commands are for the last version received: older ones could name cards no longer there.
  isReady() {
    return !this.ended && !this.sending && !this.fetching && this.version >= this.wanted;
  }

  draw() {
    const ready = this.isReady();
    const yours = this.toAct.includes(this.seat);
    const offered = this.picked ? this.commands.filter((entry) => names(entry.command, this.picked)) : this.commands;
    const groups = new Map();
    for (const entry of offered) {
      const type = entry.command.type;
      if (!groups.has(type)) groups.set(type, []);
      groups.get(type).push(entry);
    }
    // Conceding is put last, apart from the game's moves.
    const types = [...groups.keys()].sort((a, b) => (a === CONCEDE) - (b === CONCEDE));
    this.node.dataset.version = String(this.version);
    this.node.dataset.state = this.ended ? "ended" : this.sending ? "sending" : ready ? "ready" : "waiting";
    this.node.dataset.turn = yours ? "you" : "other";
    this.node.replaceChildren(...[
      el("h2", { id: "controls-title" }, this.ctx ? ["Your commands as ", seatName(this.ctx, this.seat)] : "Your commands"),
      el("p", { class: "turn", role: "status" }, this.turnText(yours)),
      this.presenceList(),
      this.refusalNote(),
      this.picked ? el("p", { class: "picked" }, `Commands naming ${this.cardName(this.picked)} · `,
        this.button("show all commands", () => this.pick(null), { class: "unpick" })) : null,
      ready ? types.map((type) => this.group(type, groups.get(type))) : null,
      ready && !offered.length && !this.ended ? el("p", { class: "empty" }, "No command now") : null,
    ].flat().filter((part) => part !== null));
  }

  turnText(yours) {
    if (this.ended) return "The match has ended";
    if (this.sending) return "Sending…";
    if (yours) return "Your turn";
    if (!this.toAct.length || !this.ctx) return "Waiting";
    return ["Waiting for ", joined(this.toAct.map((seat) => seatName(this.ctx, seat)), ", ")];
  }

  presenceList() {
    if (!this.presence || !this.presence.length || !this.ctx) return null;
    return el("ul", { class: "presence" }, this.presence.map((entry) => el("li", {
      "data-seat": entry.seat ?? 0, "data-connected": String(Boolean(entry.connected)) },
    capitalised(seatName(this.ctx, entry.seat ?? 0)), entry.connected ? " connected" : " away",
    entry.since ? ` since ${new Date(entry.since).toLocaleTimeString()}` : "")));
  }

  refusalNote() {
    const error = this.refusal;
    if (!error) return null;
    const why = error.reason ? words(error.reason) : `${error.code} error`;
    return el("p", { class: "error refusal", role: "alert", "data-reason": error.reason || "" },
      `Refused: ${why}`, error.message ? ` (${error.message})` : "");
  }

  group(type, entries) {
    return el("fieldset", { class: type === CONCEDE ? "command-group concede" : "command-group", "data-type": type },
      el("legend", {}, capitalised(words(type)), entries.length > 1 ? ` (${entries.length})` : ""),
      entries.map((entry) => this.button(this.label(entry.command), () => this.send(entry), {
        class: "command", "data-type": type, "data-command": entry.text,
        "data-refs": JSON.stringify(refs(entry.command)) })));
  }

  button(text, onClick, attributes) {
    const button = el("button", { type: "button", ...attributes }, text);
    button.addEventListener("click", onClick);
    return button;
  }

  // "Card: Fire Wolf (0:3) · position: 1", or the type alone for a command without arguments.
  label(command) {
    const parts = Object.entries(command).filter(([key]) => key !== "type")
      .map(([key, value]) => [`${words(key)}: `, this.argument(key, value)]);
    return parts.length ? joined(parts, " · ") : capitalised(words(command.type));
  }

  argument(key, value) {
    if (value === null || value === undefined) return "none";
    if (Array.isArray(value)) return value.length ? joined(value.map((item) => this.argument(key, item)), ", ") : "none";
    if (typeof value === "object") {
      return ["(", joined(Object.entries(value).map(([inner, item]) => [`${words(inner)} `,
        this.argument(inner, item)]), ", "), ")"];
    }
    if (typeof value === "number" && SEAT_KEY.test(key) && this.ctx) return seatName(this.ctx, value);
    if (typeof value === "string") return this.cardName(value);
    if (typeof value === "boolean") return value ? "yes" : "no";
    return String(value);
  }

  // A card's catalog name with the reference the command holds ("Fire Wolf (0:3)"), or the text in words.
  cardName(text) {
    const name = this.ctx ? this.ctx.cards.name(text) : null;
    if (name) return name === text ? name : `${name} (${text})`;
    return text.includes("_") && !/\d/.test(text) ? words(text) : text;
  }

  async send(entry) {
    if (!this.isReady()) return;
    this.sending = true;
    this.refusal = null;
    this.draw();
    try {
      const reply = await call("MatchService", "SubmitCommand", { matchId: this.matchId, token: this.token,
        commandJson: entry.text, commandId: commandId() });
      this.picked = null;
      this.toAct = reply.toAct || [];
      // The command's events arrive on the watch; its last version is the one to list commands at.
      this.wanted = Math.max(this.wanted, Number(reply.version));
    } catch (error) {
      this.refusal = error instanceof ApiError ? error : new ApiError("unknown", error.message, "", {});
    } finally {
      this.sending = false;
    }
    if (this.version < this.wanted) this.fetch();
    else this.redraw();
  }
}

// Every string a command holds (its arguments' cards, skills, targets), its type aside.
function refs(command) {
  const found = [];
  const walk = (value) => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  Object.entries(command).filter(([key]) => key !== "type").forEach(([, value]) => walk(value));
  return found;
}

function names(command, ref) {
  return refs(command).includes(ref);
}

// A fresh id for each command sent (a retry of the same send would reuse it); crypto.randomUUID needs a
// secure context, getRandomValues does not.
function commandId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
