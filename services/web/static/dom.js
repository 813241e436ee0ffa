// DOM helpers shared by the viewer's modules.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// "hand_monster_count" -> "hand monster count"; "CardDrawn" -> "card drawn".
export function words(text) {
  return String(text).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
}

// Of text and nodes (a sentence with a name in it), the first text is capitalised.
export function capitalised(text) {
  if (Array.isArray(text)) {
    const [first, ...rest] = text.flat(Infinity);
    return [capitalised(first), ...rest];
  }
  return typeof text === "string" && text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A name a client chose, isolated from the text around it: a right-to-left name (Hebrew, Arabic) would carry
// the digits and punctuation after it into its own direction ("0=דנה, 1=bob" drawn as "0=1 ,הנד=bob").
export function isolated(name) {
  return el("bdi", {}, name);
}

// Parts (text, nodes, lists of them) with ``separator`` between them.
export function joined(parts, separator) {
  return parts.flatMap((part, index) => (index ? [separator, part] : [part]));
}
