// The board of one viewer at one version, drawn from the view the server sent for that viewer.
//
// Without a layout every view still reads: the per-seat list becomes one panel per seat (scalars as stats,
// lists and piles as zones), the rest of the view becomes the table. A ruleset's layout description
// (engine/rulesets/<id>/layout.json, docs/viewer.md) only names and orders what is already there.

import { capitalised, el, isolated, words } from "./dom.js";

const SEAT_FIELDS = new Set(["active", "turn_seat", "current", "seat", "first_seat", "starting_seat", "attacker_seat",
  "target_seat", "from_seat", "to_seat", "source_seat"]);

// "seat 0 (ann)" as text and the name's <bdi>.
export function seatName(ctx, seat) {
  if (seat === null || seat === undefined || seat < 0) return "no seat";
  return [`seat ${seat} (`, isolated(ctx.seats[seat] ?? "?"), ")"];
}

export function drawBoard(ctx) {
  const { view, layout } = ctx;
  const hidden = new Set(["viewer", ...(layout.hide || [])]);
  const seatsKey = layout.seats || Object.keys(view).find((key) => isSeatList(view[key]));
  const pendingKey = layout.pending || "pending";
  const board = el("section", { id: "board", "data-version": ctx.version, "data-viewer": ctx.viewer ?? "spectator" });
  board.append(headline(ctx, hidden, seatsKey, pendingKey));
  if (ctx.deadline) board.append(clock(ctx));
  if (view[pendingKey]) board.append(el("div", { class: "pending", "data-field": pendingKey },
    el("h3", {}, "Pending decision"), block(ctx, view[pendingKey])));
  if (seatsKey) {
    board.append(el("div", { class: "seats" }, view[seatsKey].map((side, index) => seatPanel(ctx, side, index))));
  }
  const table = Object.keys(view).filter((key) => key !== seatsKey && key !== pendingKey && !hidden.has(key) &&
    !isScalar(view[key]));
  const order = layout.table || [];
  table.sort((a, b) => rank(order, a) - rank(order, b));
  if (table.length) {
    board.append(el("article", { class: "table" }, el("h2", {}, layout.table_title || "Table"),
      table.map((key) => zone(ctx, key, view[key]))));
  }
  return board;
}

function headline(ctx, hidden, seatsKey, pendingKey) {
  const { view, layout } = ctx;
  const scalars = Object.keys(view).filter((key) => isScalar(view[key]) && !hidden.has(key) && key !== seatsKey &&
    key !== pendingKey);
  const shown = layout.header ? layout.header.filter((key) => key in view) : scalars;
  const rest = scalars.filter((key) => !shown.includes(key));
  return el("header", { class: "headline" },
    el("ul", {}, shown.map((key) => el("li", { "data-field": key }, el("span", { class: "label" }, label(layout, key)),
      " ", el("strong", {}, scalar(ctx, key, view[key]))))),
    rest.length ? el("details", { class: "more" }, el("summary", {}, "More"),
      el("dl", {}, rest.map((key) => [el("dt", {}, label(layout, key)), el("dd", { "data-field": key },
        scalar(ctx, key, view[key]))]))) : null);
}

function clock(ctx) {
  const { deadline } = ctx;
  const timeout = JSON.parse(deadline.timeoutJson || "{}");
  const attributes = { class: ctx.live ? "clock live" : "clock", "data-seat": deadline.seat ?? 0,
    "data-expires-at": deadline.expiresAt };
  const remaining = ctx.live ? "" : `${Math.round(deadline.seconds ?? 0)} s from this event`;
  return el("div", attributes, el("span", { class: "label" }, "On the clock"), " ",
    el("strong", {}, capitalised(seatName(ctx, deadline.seat ?? 0))), " ",
    el("span", { class: "remaining" }, remaining),
    el("span", { class: "then" }, ` · then the server submits ${words(timeout.type || "a timeout")}`));
}

function seatPanel(ctx, side, index) {
  const { layout } = ctx;
  const seat = side.seat ?? index;
  const lifeKeys = [].concat(layout.life || []);
  const badges = [];
  if (ctx.viewer === seat) badges.push(el("span", { class: "badge you" }, "you"));
  if ((ctx.toAct || []).includes(seat)) badges.push(el("span", { class: "badge to-act" }, "to act"));
  if (ctx.deadline && (ctx.deadline.seat ?? 0) === seat) badges.push(el("span", { class: "badge clock" }, "on the clock"));
  const keys = Object.keys(side).filter((key) => key !== "seat" && !lifeKeys.includes(key) &&
    !(layout.hide || []).includes(key));
  const order = Object.keys(layout.zones || {});
  const isZone = (key) => !isScalar(side[key]) || (side[key] === null && order.includes(key));
  const stats = keys.filter((key) => !isZone(key));
  const zones = keys.filter(isZone);
  zones.sort((a, b) => rank(order, a) - rank(order, b));
  return el("article", { class: "seat", "data-seat": seat },
    el("h2", {}, capitalised(seatName(ctx, seat)), " ", badges),
    lifeKeys.filter((key) => key in side).map((key) => el("div", { class: "life", "data-field": key },
      el("span", { class: "label" }, label(layout, key)), " ", el("strong", {}, side[key]))),
    el("dl", { class: "stats" }, stats.map((key) => el("div", { "data-field": key }, el("dt", {}, label(layout, key)),
      el("dd", {}, scalar(ctx, key, side[key]))))),
    zones.map((key) => zone(ctx, key, side[key])));
}

function zone(ctx, key, value) {
  const title = (layout, count) => el("h3", {}, (layout.zones || {})[key] || capitalised(words(key)),
    count === null ? "" : ` (${count})`);
  const { layout } = ctx;
  if (value === null) return el("div", { class: "zone", "data-zone": key }, title(layout, null), el("p", { class: "hidden" }, "hidden"));
  if (Array.isArray(value)) {
    return el("div", { class: "zone", "data-zone": key }, title(layout, value.length), row(ctx, value));
  }
  if ("count" in value && Object.keys(value).every((k) => k === "count" || k === "cards")) {
    return el("div", { class: "zone", "data-zone": key }, title(layout, value.count),
      value.cards ? row(ctx, value.cards) : (value.count ? el("p", { class: "hidden" }, "hidden") : null));
  }
  return el("div", { class: "zone", "data-zone": key }, title(layout, null), block(ctx, value));
}

function row(ctx, items) {
  if (!items.length) return el("p", { class: "empty" }, "empty");
  return el("div", { class: "cards" }, items.map((item) => {
    if (item === null) return el("div", { class: "slot" }, "empty");
    if (ctx.cards.isCardObject(item) || ctx.cards.idOf(item)) return ctx.cards.draw(item);
    if (isScalar(item)) return el("span", { class: "chip" }, String(item));
    return el("div", { class: "item" }, block(ctx, item));
  }));
}

function block(ctx, value) {
  if (isScalar(value)) return el("span", {}, scalar(ctx, "", value));
  if (Array.isArray(value)) return row(ctx, value);
  if (ctx.cards.isCardObject(value)) return ctx.cards.draw(value);
  return el("dl", { class: "block" }, Object.entries(value).map(([key, item]) => el("div", { "data-field": key },
    el("dt", {}, label(ctx.layout, key)), el("dd", {}, isScalar(item) ? scalar(ctx, key, item) : block(ctx, item)))));
}

function scalar(ctx, key, value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" && (SEAT_FIELDS.has(key) || (ctx.layout.seat_fields || []).includes(key))) {
    return seatName(ctx, value);
  }
  if (typeof value === "string") return ctx.cards.name(value) ?? value;
  return String(value);
}

function label(layout, key) {
  return (layout.labels || {})[key] || capitalised(words(key));
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

// One object per seat, in seat order (seat 0, 1, ...): other lists of objects with a seat (a chain of
// effects, say) do not read as the seats.
function isSeatList(value) {
  return Array.isArray(value) && value.length > 0 &&
    value.every((item, index) => item && typeof item === "object" && item.seat === index);
}

function rank(order, key) {
  const at = order.indexOf(key);
  return at === -1 ? order.length : at;
}
