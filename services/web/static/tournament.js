// The tournament view (?tournament=ID, and &player=NAME&token=T for a player): the standings and the current
// round's pairings, with a link to watch each game and, for the player's own table, to play it with the seat
// token WatchTournament hands the player. It follows WatchTournament and reads the pairings and standings again
// after each entry, so organiser results and drops show as they happen.

import { ApiError, call, stream } from "./connect.js";
import { el, isolated } from "./dom.js";

const $ = (selector) => document.querySelector(selector);
// Waits before each attempt to follow the tournament again after the connection was lost (the last one repeats).
const RETRY_MS = [500, 1000, 2000, 5000];
const view = { id: "", player: "", token: "", version: 0, games: new Map(), refreshing: null, again: false,
  aborted: null };

export async function openTournament(id, player, token) {
  if (view.aborted) view.aborted.abort();
  const aborted = new AbortController();
  Object.assign(view, { id, player, token, version: 0, games: new Map(), refreshing: null, again: false, aborted });
  document.body.dataset.view = "tournament";
  const section = $("#tournament");
  section.hidden = false;
  section.dataset.live = "opening";
  $("#you").replaceChildren();
  $("#feed").replaceChildren();
  say(`Opening tournament ${id}…`, "info");
  for (let attempt = 0; !aborted.signal.aborted; attempt += 1) {
    try {
      await stream("TournamentService", "WatchTournament",
        { tournamentId: id, fromVersion: view.version + 1, player, token }, received, aborted.signal);
      section.dataset.live = "ended";
      say("The tournament has ended", "ok");
      await refresh();
      return;
    } catch (error) {
      if (aborted.signal.aborted) return;
      if (!(error instanceof ApiError) || error.code !== "unavailable") {
        section.dataset.live = "refused";
        say(`Refused (${error.reason || error.code}): ${error.message}`, "error", error.reason);
        return;
      }
      section.dataset.live = "lost";
      say("Connection lost; reconnecting…", "error");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
    }
  }
}

function say(text, kind, reason = "") {
  const node = $("#tournament-status");
  node.replaceChildren(text);
  node.className = kind;
  if (reason) node.dataset.reason = reason;
  else delete node.dataset.reason;
}

function received(entry) {
  view.version = Number(entry.version);
  const section = $("#tournament");
  section.dataset.version = String(view.version);
  if (section.dataset.live !== "true") {
    section.dataset.live = "true";
    say(view.player ? `Live as ${view.player}` : "Live", "ok");
  }
  for (const notice of entry.notices || []) {
    const ready = notice.tableReady;
    if (ready) {
      view.games.set(`${ready.round}/${ready.table}/${ready.game || 1}`,
        { matchId: ready.matchId, seat: ready.seat || 0, seatToken: ready.seatToken || "" });
    }
    const line = describe(notice);
    if (line) $("#feed").prepend(el("li", { "data-version": entry.version }, line));
    if (view.player) you(notice);
  }
  refresh();
}

// What a notice tells the player, the last one shown: "your game is ready", "you choose", "you have the bye".
function you(notice) {
  const node = $("#you");
  if (notice.bye) node.replaceChildren(el("strong", { "data-you": "bye" }, `You have the bye in round ${notice.bye.round}`));
  else if (notice.tableReady && notice.tableReady.seatToken) {
    const ready = notice.tableReady;
    node.replaceChildren(el("strong", { "data-you": "ready" }, `Your game is ready: round ${ready.round}, table ` +
      `${ready.table}, game ${ready.game || 1}, seat ${ready.seat || 0} `), playLink(ready.matchId, ready.seatToken));
  } else if (notice.chooserWaiting && notice.chooserWaiting.chooser === view.player) {
    const waiting = notice.chooserWaiting;
    node.replaceChildren(el("strong", { "data-you": "choose" },
      `You choose who goes first in game ${waiting.game} (round ${waiting.round}, table ${waiting.table})`));
  } else if (notice.ended) node.replaceChildren(el("strong", { "data-you": "ended" }, "The tournament has ended"));
}

function describe(notice) {
  if (notice.roundPaired) {
    const paired = notice.roundPaired;
    return `Round ${paired.round} (${paired.stage}) ${paired.repaired ? "re-paired" : "paired"}: ${paired.tables || 0} tables`;
  }
  if (notice.tableReady) {
    const ready = notice.tableReady;
    return [`Round ${ready.round}, table ${ready.table}, game ${ready.game || 1}: `, isolated(ready.seats[0]), " vs ",
      isolated(ready.seats[1])];
  }
  if (notice.bye) return [`Round ${notice.bye.round}: `, isolated(notice.bye.player), " has the bye"];
  if (notice.chooserWaiting) {
    const waiting = notice.chooserWaiting;
    return [isolated(waiting.chooser), ` chooses who goes first in game ${waiting.game} at table ${waiting.table}`];
  }
  if (notice.gameResult) {
    const game = notice.gameResult;
    const outcome = !game.counted ? ["not counted"] : game.winner ? [isolated(game.winner), " won"] : ["drawn"];
    return [`Round ${game.round}, table ${game.table}, game ${game.game || 1}: `, ...outcome];
  }
  if (notice.matchResult) {
    const result = notice.matchResult;
    return [`Round ${result.round}, table ${result.table}: `, isolated(result.a), ` ${score(result.result)} `,
      isolated(result.b || "(bye)"), ` (${result.result.source})`];
  }
  if (notice.playerChange) {
    const change = notice.playerChange;
    return [isolated(change.player), `: ${change.change.replace("_", " ")}`];
  }
  if (notice.ended) return notice.ended.winner ? ["The tournament ended; winner ", isolated(notice.ended.winner)] :
    "The tournament ended";
  return null;
}

const score = (result) => `${result.winsA || 0}-${result.winsB || 0}-${result.draws || 0}`;

function watchLink(matchId, game) {
  return el("a", { class: "watch", "data-game": game, href: `?${new URLSearchParams({ watch: matchId })}` },
    `watch game ${game}`);
}

function playLink(matchId, seatToken) {
  return el("a", { class: "play", href: `?${new URLSearchParams({ watch: matchId, token: seatToken })}` }, "play");
}

// The pairings and standings again; a refresh asked for while one runs runs once more after it.
async function refresh() {
  if (view.refreshing) {
    view.again = true;
    return view.refreshing;
  }
  view.refreshing = (async () => {
    do {
      view.again = false;
      try {
        await draw();
      } catch (error) {
        say(`Failed to read the tournament (${error.reason || error.code || error.message})`, "error");
      }
    } while (view.again);
    view.refreshing = null;
  })();
  return view.refreshing;
}

// Marks #tournament[data-drawn] with the version received before the reads: what is drawn shows at least that.
async function draw() {
  const id = view.id;
  const version = view.version;
  const tournament = await call("TournamentService", "GetTournament", { tournamentId: id });
  const standings = await call("TournamentService", "GetStandings", { tournamentId: id });
  const pairings = tournament.currentRound ?
    await call("TournamentService", "GetPairings", { tournamentId: id }) : null;
  if (id !== view.id) return;
  $("#tournament-title").replaceChildren(el("strong", {}, tournament.name), ` · ${tournament.ruleset} · ` +
    `${tournament.format} · ${tournament.status}` + (tournament.currentRound ?
      ` · round ${tournament.currentRound} of ${tournament.rounds}` : ""));
  drawPairings(pairings);
  drawStandings(standings);
  $("#tournament").dataset.drawn = String(version);
}

function drawPairings(pairings) {
  const body = $("#pairings tbody");
  if (!pairings) {
    body.replaceChildren();
    return;
  }
  $("#pairings caption").textContent = `Round ${pairings.round} (${pairings.stage})`;
  body.replaceChildren(...(pairings.tables || []).map((table) => {
    const result = table.result ? `${score(table.result)} (${table.result.source})` : "";
    const links = [];
    for (let game = 1; view.games.has(`${pairings.round}/${table.table}/${game}`); game += 1) {
      const known = view.games.get(`${pairings.round}/${table.table}/${game}`);
      links.push(watchLink(known.matchId, game));
      if (known.seatToken && !table.finished) links.push(" ", playLink(known.matchId, known.seatToken));
      links.push(" ");
    }
    return el("tr", { "data-table": table.table, "data-finished": table.finished ? "true" : "false" },
      el("td", {}, String(table.table)), el("td", {}, isolated(table.a)),
      el("td", {}, table.b ? isolated(table.b) : "(bye)"), el("td", {}, result), el("td", {}, links));
  }));
}

function drawStandings(standings) {
  $("#standings tbody").replaceChildren(...(standings.standings || []).map((entry) => el("tr",
    { "data-player": entry.player },
    el("td", {}, String(entry.rank)), el("td", {}, isolated(entry.player), entry.dropped ? " (dropped)" : ""),
    el("td", {}, String(entry.points || 0)),
    el("td", {}, `${entry.wins || 0}-${entry.losses || 0}-${entry.draws || 0}`))));
}
