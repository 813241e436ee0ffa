// The viewer page: a replay file or an ended match step by step, or a running match live, as one viewer.
// Everything drawn comes from the server already redacted for the chosen viewer (the caster, with the caster
// token, gets every seat's view, delayed by the server); a dropped replay file is sent to the server as it is and
// never read here.

import { ApiError, bytesBase64, call, stream } from "./connect.js";
import { drawBoard, seatName } from "./board.js";
import { Cards } from "./cards.js";
import { capitalised, el, isolated, joined } from "./dom.js";
import { sentence } from "./sentences.js";
import { Table } from "./table.js";
import { openTournament } from "./tournament.js";

const $ = (selector) => document.querySelector(selector);
const rulesets = new Map();
const state = { source: null, match: null, seat: -1, steps: [], index: -1, ruleset: null, cards: null,
  live: null, rendered: 0, pending: false, load: 0, at: 0, caster: false, table: null };
// Waits before each attempt to reconnect a live watch whose connection was lost (the last one repeats).
const RETRY_MS = [500, 1000, 2000, 5000];
// The largest replay file ViewReplay takes (services/limits.py MAX_VIEWED_REPLAY; tests/web checks they agree).
const MAX_REPLAY_BYTES = 4 * 1024 * 1024;

// A match's own ruleset version: its cards and layout, not the newest version's (0: the newest).
async function describe(rulesetId, version) {
  const key = `${rulesetId}@${version || 0}`;
  if (!rulesets.has(key)) {
    const described = await call("RulesetService", "DescribeRuleset", { ruleset: rulesetId, version: version || 0 });
    rulesets.set(key, { id: rulesetId, title: described.ruleset.title,
      layout: described.layoutJson ? JSON.parse(described.layoutJson) : {},
      catalog: JSON.parse(described.cardsJson || "[]") });
  }
  return rulesets.get(key);
}

function status(text, kind = "info", attributes = {}) {
  const node = $("#status");
  node.replaceChildren(text);
  node.className = kind;
  for (const name of [...node.attributes].map((a) => a.name).filter((n) => n.startsWith("data-"))) node.removeAttribute(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
}

function failed(error) {
  // A refusal names its reason; a call that failed without one (the server unreachable) its code.
  if (error instanceof ApiError) status(`${error.reason ? "Refused" : "Failed"} (${error.reason || error.code}): ` +
    error.message, "error", { "data-reason": error.reason });
  else status(`Failed: ${error.message}`, "error");
}

// Starts a load (a file, a match, a watch, another viewer) and returns its number: a load whose number is no
// longer state.load was replaced by a later one while it waited on the server, and its answers are dropped.
function reset() {
  if (state.live) state.live.abort();
  Object.assign(state, { live: null, steps: [], index: -1, rendered: 0, match: null, load: state.load + 1,
    caster: false, table: null });
  $("#controls").hidden = true;
  $("#controls").replaceChildren();
  $("#board").replaceChildren();
  $("#log").replaceChildren();
  $("#outcome").replaceChildren();
  $("#match").replaceChildren();
  return state.load;
}

// True, and counted in data-stale, when load ``mine`` was replaced by a later one.
function stale(mine) {
  if (mine === state.load) return false;
  document.body.dataset.stale = String(Number(document.body.dataset.stale || 0) + 1);
  return true;
}

// -- replays and ended matches ---------------------------------------------------------------------

async function openReplay(source, seat, at = 0, started = performance.now()) {
  const mine = reset();
  Object.assign(state, { source, seat, at });
  status("Loading…");
  let viewed;
  try {
    viewed = await call("MatchService", "ViewReplay", { ...source, seat });
  } catch (error) {
    if (!stale(mine)) failed(error);
    return;
  }
  if (stale(mine)) return;
  const verification = viewed.verification;
  if (verification && !verification.ok) {
    const failure = verification.failure || {};
    const where = failure.version ? ` at version ${failure.version}` : "";
    status(`Refused: the ${failure.check} check failed${where}: ${failure.message}`, "error",
      { "data-check": failure.check, "data-ok": "false" });
    return;
  }
  if (!(await useMatch(viewed.match, seat, mine))) return;
  state.steps = viewed.steps.map((step) => ({ event: step.event, viewJson: step.viewJson, toAct: step.toAct || [],
    deadline: step.deadline || null }));
  const checks = verification ? `verified: ${verification.checks.join(", ")}` : "stored match";
  // A file written before hash chain 2: say plainly what its checks leave out (docs/replay-format.md).
  const uncovered = (verification && verification.uncovered) || [];
  const missed = uncovered.length ? ` · not covered: ${uncovered.join("; ")}` : "";
  status(`${capitalised(checks)} · ${state.steps.length} versions${missed}`, "ok",
    { "data-ok": "true", "data-uncovered": String(uncovered.length) });
  show(at);
  document.body.dataset.loadMs = String(Math.round(performance.now() - started));
}

// False when load ``mine`` was replaced while the ruleset was described.
async function useMatch(match, seat, mine) {
  let ruleset;
  try {
    ruleset = await describe(match.ruleset, match.rulesetVersion);
  } catch (error) {
    if (!stale(mine)) failed(error);
    return false;
  }
  if (stale(mine)) return false;
  state.match = match;
  state.ruleset = ruleset;
  state.cards = new Cards(state.ruleset.catalog, state.ruleset.layout);
  const picker = $("#seat");
  // An option holds only text: the name is isolated by U+2068 ... U+2069, what <bdi> does (dom.js isolated).
  picker.replaceChildren(el("option", { value: "-1" }, "spectator"), ...match.seats.map((name, index) =>
    el("option", { value: String(index) }, `seat ${index} (\u2068${name}\u2069)`)));
  picker.value = String(seat);
  $("#match").replaceChildren(el("strong", {}, state.ruleset.title), ` · ${match.matchId} · `,
    ...joined(match.seats.map((name, index) => [`${index}=`, isolated(name)]), ", ").flat());
  document.body.dataset.ruleset = match.ruleset;
  return true;
}

// -- one step --------------------------------------------------------------------------------------

function show(index) {
  if (!state.steps.length) return;
  const started = performance.now();
  state.index = Math.max(0, Math.min(index, state.steps.length - 1));
  const step = state.steps[state.index];
  // A caster's update holds every seat's view, by seat.
  const views = state.caster ? JSON.parse(step.viewJson) : [JSON.parse(step.viewJson)];
  for (const view of views) state.cards.learn(view);
  const ctx = { view: views[0], layout: state.ruleset.layout, cards: state.cards, seats: state.match.seats,
    viewer: state.seat === -1 ? null : state.seat, toAct: step.toAct, deadline: step.deadline,
    live: state.live !== null, version: step.event.version };
  const board = state.caster ? casterBoard(ctx, views) : drawBoard(ctx);
  $("#board").replaceWith(board);
  if (state.table) state.table.decorate(state.index === state.steps.length - 1 ? board : null, ctx);
  counted();
  showLog(ctx);
  showOutcome();
  tick();
  document.body.dataset.stepMs = String(Math.round(performance.now() - started));
}

// Each seat's board as that seat sees it, side by side: every hand is shown.
function casterBoard(ctx, views) {
  return el("section", { id: "board", "data-version": ctx.version, "data-viewer": "caster" },
    views.map((view, seat) => {
      const board = drawBoard({ ...ctx, view, viewer: seat });
      board.removeAttribute("id");
      board.className = "caster-view";
      return board;
    }));
}

// The scrubber and the position over every version there is (live, more arrive while an earlier one is shown).
function counted() {
  const scrubber = $("#scrubber");
  scrubber.max = String(state.steps.length);
  scrubber.value = String(state.index + 1);
  $("#position").textContent = `version ${state.steps[state.index].event.version} of ${state.steps.length}`;
}

function showLog(ctx) {
  const log = $("#log");
  while (state.rendered > state.index + 1) {
    log.lastElementChild.remove();
    state.rendered -= 1;
  }
  const added = [];
  while (state.rendered < state.index + 1) {
    added.push(sentence(ctx, state.steps[state.rendered].event));
    state.rendered += 1;
  }
  log.append(...added);
  log.scrollTop = log.scrollHeight;
}

function showOutcome() {
  const node = $("#outcome");
  const last = state.index === state.steps.length - 1;
  if (!last || !state.match.outcomeJson) {
    node.replaceChildren();
    return;
  }
  const outcome = JSON.parse(state.match.outcomeJson);
  const names = (seats) => (seats.length ?
    joined(seats.map((seat) => seatName({ seats: state.match.seats }, seat)), ", ") : "nobody");
  node.replaceChildren(...[el("h2", {}, "Outcome"), outcome.draw ? "Draw" : ["Winners: ", names(outcome.winners)],
    el("br"), "Losers: ", names(outcome.losers), el("br"), `Reason: ${outcome.reason}`].flat(Infinity));
}

// -- live ------------------------------------------------------------------------------------------

async function watch(matchId, token, caster = false) {
  const mine = reset();
  Object.assign(state, { source: null, caster });
  status("Connecting…");
  const controller = new AbortController();
  // The caster token opens no view of its own: the caster's watch is the first call it is checked by.
  const probe = () => (caster ? Promise.resolve({ seat: -1 }) : call("MatchService", "GetView", { matchId, token }));
  let match;
  // A match with open seats starts once they are taken: until then the page says so and looks again.
  for (let attempt = 0; ; attempt += 1) {
    try {
      const seen = await probe();
      match = await call("MatchService", "GetMatch", { matchId });
      if (stale(mine)) return;
      state.seat = seen.seat ?? 0;
      break;
    } catch (error) {
      if (stale(mine)) return;
      if (!seating(error)) {
        failed(error);
        return;
      }
      const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
      status(`Waiting for every seat to be taken (JoinSeat); looking again in ${wait / 1000} s…`, "ok",
        { "data-live": "seating", "data-reason": error.reason });
      if (!(await delay(wait, controller.signal))) return;
    }
  }
  state.live = controller;
  if (!(await useMatch(match, state.seat, mine))) return;
  if (caster) $("#seat").replaceChildren(el("option", {}, "caster (every seat)"));
  // A seat's token makes the page a table: its commands as controls.
  else if (state.seat >= 0) {
    state.table = new Table(matchId, token, state.seat);
    // Each seat's presence, from a server that keeps it (Match.presence); later changes come as updates.
    if (match.presence) state.table.present(match.presence);
  }
  $("#seat").disabled = true;
  const viewer = caster ? "the caster (delayed)" : state.seat === -1 ? "a spectator" : `seat ${state.seat}`;
  const live = () => status(`Live as ${viewer}`, "ok", { "data-live": "true" });
  live();
  const onUpdate = (update) => {
    // A presence update has no event: every seat's presence after one connected or went away.
    if (!update.event) {
      if (state.table && update.presence) state.table.present(update.presence);
      return;
    }
    // A draw already scheduled shows the last version, this one too: updates arrive many to a frame.
    const following = state.pending || state.index >= state.steps.length - 1;
    state.steps.push({ event: update.event, viewJson: update.viewJson, toAct: update.toAct || [],
      deadline: update.deadline || null });
    if (state.table) state.table.reached(Number(update.event.version), update.toAct || []);
    if (following) schedule();
    else counted();
  };
  // A lost connection (the server restarted, the network dropped) or a full server is said and retried, the
  // watch resuming after the last version received; any other refusal ends the watch.
  const reached = () => (state.steps.length ? Number(state.steps[state.steps.length - 1].event.version) : 0);
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (attempt) {
        await probe();
        live();
        if (state.steps.length) show(state.index);
        if (state.table) state.table.retry();
      }
      await stream("MatchService", "WatchMatch",
        { matchId, token, includeView: true, fromVersion: reached(), caster }, onUpdate, controller.signal);
      break;
    } catch (error) {
      if (controller.signal.aborted) return;
      if (!lost(error) && !full(error)) {
        failed(error);
        stopLive();
        return;
      }
      const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
      const busy = full(error);
      const why = busy ? `The server holds as many watches as it takes (${error.metadata.limit})`
        : "Connection to the server lost";
      status(`${why} after version ${reached()}; reconnecting in ${wait / 1000} s (attempt ${attempt + 1})…`, "error",
        { "data-live": "reconnecting", ...(busy ? { "data-reason": error.reason } : {}) });
      for (const clock of document.querySelectorAll(".clock.live")) {
        clock.classList.remove("live");
        clock.querySelector(".remaining").textContent = "(not connected)";
      }
      if (!(await delay(wait, controller.signal))) return;
    }
  }
  try {
    state.match = await call("MatchService", "GetMatch", { matchId });
  } catch (error) {
    if (!controller.signal.aborted) failed(error);
    stopLive();
    return;
  }
  state.live = null;
  if (state.table) state.table.end();
  status("The match has ended", "ok", { "data-live": "ended" });
  show(state.steps.length - 1);
}

// The connection failed or dropped, or the server is shutting down: worth a retry.
function lost(error) {
  return error instanceof ApiError && error.code === "unavailable";
}

// The match has open seats: it starts once they are taken (docs/api.md, Open seats).
function seating(error) {
  return error instanceof ApiError && error.reason === "MATCH_NOT_STARTED";
}

// Every stream the server takes is open: one may close soon.
function full(error) {
  return error instanceof ApiError && error.reason === "TOO_MANY_STREAMS";
}

function stopLive() {
  state.live = null;
  if (state.steps.length) show(state.index);
}

// Resolves true after ``ms``, false at once when ``signal`` aborts (the watch was replaced).
function delay(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(false); }, { once: true });
  });
}

// Many updates can arrive at once (a watch starts with the history): draw once per frame.
function schedule() {
  if (state.pending) return;
  state.pending = true;
  requestAnimationFrame(() => {
    state.pending = false;
    show(state.steps.length - 1);
  });
}

function tick() {
  for (const clock of document.querySelectorAll(".clock.live")) {
    const left = Math.max(0, (Date.parse(clock.dataset.expiresAt) - Date.now()) / 1000);
    clock.querySelector(".remaining").textContent = left > 0 ? `${Math.ceil(left)} s left` : "time is up";
    clock.dataset.left = String(Math.ceil(left));
  }
}

// -- wiring ----------------------------------------------------------------------------------------

async function openFile(file) {
  const started = performance.now();
  if (tooLarge(file.size)) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  $("#seat").disabled = false;
  await openReplay({ replay: bytesBase64(bytes) }, -1, 0, started);
}

// A file the server would refuse (REPLAY_TOO_LARGE) is said so here, without sending it.
function tooLarge(size) {
  if (size <= MAX_REPLAY_BYTES) return false;
  reset();
  const bytes = (count) => count.toLocaleString("en");
  status(`Refused: the replay file is ${bytes(size)} bytes; the viewer opens files of at most 4 MiB ` +
    `(${bytes(MAX_REPLAY_BYTES)} bytes)`, "error", { "data-reason": "REPLAY_TOO_LARGE" });
  return true;
}

function wire() {
  const drop = $("#drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer.files.length) openFile(event.dataTransfer.files[0]);
  });
  $("#file").addEventListener("change", (event) => { if (event.target.files.length) openFile(event.target.files[0]); });
  $("#open-match").addEventListener("submit", (event) => {
    event.preventDefault();
    $("#seat").disabled = false;
    openReplay({ matchId: $("#match-id").value.trim() }, -1);
  });
  $("#watch").addEventListener("submit", (event) => {
    event.preventDefault();
    watch($("#watch-id").value.trim(), $("#token").value.trim(), $("#caster").checked);
  });
  $("#open-tournament").addEventListener("submit", (event) => {
    event.preventDefault();
    const address = new URLSearchParams({ tournament: $("#tournament-id").value.trim() });
    if ($("#player").value.trim()) {
      address.set("player", $("#player").value.trim());
      address.set("token", $("#player-token").value.trim());
    }
    location.search = `?${address}`;
  });
  $("#seat").addEventListener("change", (event) => {
    // While a load is under way, the version it was to open is kept (state.at), not lost to its reset.
    if (state.source) openReplay(state.source, Number(event.target.value), state.index >= 0 ? state.index : state.at);
  });
  $("#scrubber").addEventListener("input", (event) => show(Number(event.target.value) - 1));
  $("#first").addEventListener("click", () => show(0));
  $("#previous").addEventListener("click", () => show(state.index - 1));
  $("#next").addEventListener("click", () => show(state.index + 1));
  $("#last").addEventListener("click", () => show(state.steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    const moves = { ArrowLeft: state.index - 1, ArrowRight: state.index + 1, Home: 0, End: state.steps.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  setInterval(tick, 250);
}

async function fromAddress() {
  const query = new URLSearchParams(location.search);
  if (query.get("replay")) {
    const address = query.get("replay");
    let bytes;
    try {
      const response = await fetch(address);
      if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trimEnd());
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      status(`Failed to fetch the replay file ${address}: ${error.message}`, "error", { "data-fetch": "failed" });
      return;
    }
    if (!tooLarge(bytes.length)) await openReplay({ replay: bytesBase64(bytes) }, -1);
  } else if (query.get("match")) {
    await openReplay({ matchId: query.get("match") }, -1);
  } else if (query.get("watch")) {
    watch(query.get("watch"), query.get("token") || "", query.get("caster") === "1");
  } else if (query.get("tournament")) {
    openTournament(query.get("tournament"), query.get("player") || "", query.get("token") || "");
  }
}

wire();
fromAddress();
