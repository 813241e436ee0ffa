// Cards: resolving what a view or an event names (a catalog id, an instance id, a card object) to the catalog
// entry, and drawing it. Only what the server sent for this viewer is ever drawn: the catalog is looked up,
// never listed.

import { el, words } from "./dom.js";

const SKIPPED_STATS = new Set(["id", "name", "text", "limit", "sacrifice_bonus"]);

export class Cards {
  constructor(catalog, layout) {
    this.entries = new Map(catalog.map((entry) => [entry.id, entry]));
    this.patterns = (layout.card_ref || []).map((source) => new RegExp(source));
    this.instances = new Map();
  }

  // Instance ids the current view shows with their card id, so events naming only the instance read well.
  learn(value) {
    if (Array.isArray(value)) value.forEach((item) => this.learn(item));
    else if (value && typeof value === "object") {
      const instance = value.instance ?? value.card ?? value.iid;
      if (typeof instance === "string" && typeof value.card_id === "string") this.instances.set(instance, value.card_id);
      Object.values(value).forEach((item) => this.learn(item));
    }
  }

  // The catalog id a string names (itself, or through the layout's card_ref patterns), or null.
  idOf(text) {
    if (typeof text !== "string") return null;
    if (this.entries.has(text)) return text;
    for (const pattern of this.patterns) {
      const found = pattern.exec(text);
      if (found && this.entries.has(found[1])) return found[1];
    }
    const known = this.instances.get(text);
    return known && this.entries.has(known) ? known : null;
  }

  name(text) {
    const id = this.idOf(text);
    return id ? this.entries.get(id).name : null;
  }

  isCardObject(value) {
    return value && typeof value === "object" && !Array.isArray(value) &&
      ("card_id" in value || "face_down" in value || ("instance" in value && Object.keys(value).length <= 3));
  }

  // A card drawn from a string id or a card object; extra fields of the object are its live state.
  draw(value) {
    if (typeof value === "string") return this.chip(this.idOf(value), value === this.idOf(value) ? null : value, {});
    const { card_id: cardId, instance, card, iid, ...rest } = value;
    const ref = instance ?? card ?? iid ?? null;
    const id = typeof cardId === "string" ? this.idOf(cardId) : this.idOf(ref);
    if (!id && (value.face_down || cardId === null || cardId === undefined)) {
      return el("div", { class: "card back", "data-instance": ref ?? "" }, el("div", { class: "name" }, "face down"),
        this.live(rest));
    }
    return this.chip(id, ref, rest, cardId);
  }

  chip(id, instance, live, rawId) {
    const entry = id ? this.entries.get(id) : null;
    const attributes = { class: "card", "data-card-id": id ?? rawId ?? "", "data-instance": instance ?? "" };
    if (entry) {
      const kind = entry.kind ?? entry.category ?? entry.monster_kind;
      if (kind) attributes["data-kind"] = kind;
      if (entry.colour) attributes["data-colour"] = entry.colour;
    }
    return el("div", attributes,
      el("div", { class: "name" }, entry ? entry.name : (rawId ?? instance ?? "?")),
      entry ? el("div", { class: "stats" }, stats(entry)) : null,
      entry && entry.text ? el("div", { class: "text" }, entry.text) : null,
      this.live(live));
  }

  live(state) {
    return liveLine(state, (text) => this.name(text));
  }
}

function stats(entry) {
  const parts = [];
  for (const [key, value] of Object.entries(entry)) {
    if (SKIPPED_STATS.has(key) || value === null || value === "" || key === "kind" || key === "category") continue;
    if (Array.isArray(value)) {
      if (value.length && value.every((item) => typeof item !== "object")) parts.push(value.map(words).join(", "));
    } else if (typeof value === "object") {
      for (const [inner, amount] of Object.entries(value)) if (amount && typeof amount !== "object") parts.push(`${words(inner)} ${amount}`);
    } else if (typeof value === "string") parts.push(words(value));
    else if (typeof value !== "boolean") parts.push(`${words(key)} ${value}`);
  }
  return parts.join(" · ");
}

function liveLine(live, nameOf) {
  const shown = (value) => (typeof value === "string" ? nameOf(value) ?? words(value) : value);
  const parts = [];
  if ("hp" in live && "max_hp" in live) parts.push(`hp ${live.hp}/${live.max_hp}`);
  for (const [key, value] of Object.entries(live)) {
    if (key === "hp" || key === "max_hp" || key === "face_down" || value === null || value === false) continue;
    if (Array.isArray(value)) { if (value.length) parts.push(`${words(key)} ${value.map(shown).join(", ")}`); }
    else if (typeof value === "object") continue;
    else parts.push(value === true ? words(key) : `${words(key)} ${shown(value)}`);
  }
  return parts.length ? el("div", { class: "live" }, parts.join(" · ")) : null;
}
