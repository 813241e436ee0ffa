// The event log: each event (already redacted for the viewer) as a sentence. A layout may give templates per
// event type; otherwise the event's type and fields read as "Seat 0 (ann): card drawn, pile monster".

import { capitalised, el, isolated, joined, words } from "./dom.js";
import { seatName } from "./board.js";

// Fields whose numbers are seats, besides the layout's seat_fields: "seat", "to_seat", "winner", "winners"...
const SEAT_FIELDS = /(^|_)seat$|^(winner|loser)s?$/;

export function sentence(ctx, event) {
  const data = JSON.parse(event.dataJson || "{}");
  const templates = (ctx.layout.events || {})[event.type];
  const options = templates === undefined ? [] : Array.isArray(templates) ? templates : [templates];
  const template = options.find((text) => placeholders(text).every((key) => value(data, key) !== null));
  const text = template ? capitalised(fill(ctx, template, data)) : generic(ctx, event, data);
  // data-raw marks a line no template words (tests/web measures their share).
  const raw = !template && event.type !== "MatchCreated";
  return el("li", { "data-version": event.version, "data-type": event.type, "data-raw": raw },
    el("span", { class: "version" }, event.version), " ", text);
}

function generic(ctx, event, data) {
  if (event.type === "MatchCreated") {
    return [`Match created: ${data.ruleset} v${data.version}, seats `, joined((data.seats || []).map(isolated), ", ")];
  }
  const subject = typeof data.seat === "number" ? seatName(ctx, data.seat) : actorName(ctx, event.actor);
  const details = Object.entries(data).filter(([key, item]) => key !== "type" && key !== "seat" && item !== null &&
    !(typeof item === "object" && !Array.isArray(item))).map(([key, item]) => [`${words(key)} `, shown(ctx, key, item)]);
  return [capitalised(subject), `: ${words(event.type)}`, details.length ? [", ", joined(details, ", ")] : []];
}

function actorName(ctx, actor) {
  if (actor === "system") return "the server";
  if (actor === "admin") return "an admin";
  return /^\d+$/.test(actor || "") ? seatName(ctx, Number(actor)) : "the match";
}

function shown(ctx, key, item) {
  if (Array.isArray(item)) {
    if (item.length > 8) return `${item.length} items`;
    return item.length ? joined(item.map((entry) => shown(ctx, key, entry)), ", ") : "none";
  }
  // A card moved or named with its catalog id ({"card": "p0.c05", "card_id": "VL-T02", ...}) reads as its name.
  if (item && typeof item === "object") return typeof item.card_id === "string" ? shown(ctx, "card_id", item.card_id) : "…";
  if (typeof item === "number" && (SEAT_FIELDS.test(key) || (ctx.layout.seat_fields || []).includes(key))) {
    return seatName(ctx, item);
  }
  if (typeof item === "string") return ctx.cards.name(item) ?? words(item);
  if (typeof item === "boolean") return item ? "yes" : "no";
  return String(item);
}

function placeholders(template) {
  return [...template.matchAll(/\{([\w.]+)\}/g)].map((found) => found[1]);
}

function value(data, path) {
  let item = data;
  for (const part of path.split(".")) item = item === null || item === undefined ? undefined : item[part];
  return item === undefined ? null : item;
}

// The template's text with its placeholders' values between (split puts each placeholder at an odd index).
function fill(ctx, template, data) {
  return template.split(/\{([\w.]+)\}/g).map((part, index) => (index % 2 ?
    shown(ctx, part.split(".").pop(), value(data, part)) : part)).filter((part) => part !== "");
}
