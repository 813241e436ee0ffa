// DOM helpers shared by the viewer's modules.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// "hand_monster_count" -> "hand monster count"; "CardDrawn" -> "card drawn".
export function words(text) {
  return String(text).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
}

export function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
